"""What the API says about commits, files and diffs is real git content, read by real
clients: a branch pushed with the real git, then read with PyGithub, octokit, gh and
GraphQL, every answer held to what git itself says in the pushing clone.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from git_helpers import base_env, commit_file, git, with_token
from github_descriptions import NODE_MODULES, need_node

from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator

PROXIED = "http://github.localhost/acme/todo.git"
BRANCH = "feat/login"


@dataclass
class Pushed:
    url: str
    token: str
    emulator: Emulator
    work: Path  # the clone that pushed BRANCH
    env: dict[str, str]  # git with the token (through the emulator's git environment)
    shas: list[str]  # BRANCH's two commits, oldest first
    number: int  # the pull request from BRANCH

    def git(self, *args: str) -> str:
        return git(self.env, *args, cwd=self.work).stdout


@pytest.fixture
def pushed(emulator_server: Any, tmp_path: Path) -> Pushed:
    """main gains docs/guide.md; BRANCH (pushed with git) adds a line to README.md,
    renames the guide and adds src/login.py; a pull request from it, CI passing."""
    emulator: Emulator = emulator_server.emulator
    guide = "".join(f"Step {n}: do the thing number {n}.\n" for n in range(1, 9))
    emulator.push("acme/todo", "main", "Add the guide", files={"docs/guide.md": guide})
    env = with_token(
        base_env(tmp_path / "home"), emulator_server.url, emulator_server.token, "github.localhost"
    )
    work = tmp_path / "work"
    git(env, "clone", "-q", PROXIED, str(work))
    git(env, "checkout", "-q", "-b", BRANCH, cwd=work)
    first = commit_file(env, work, "README.md", "# todo\n\nLog in first.\n", "Document login")
    git(env, "mv", "docs/guide.md", "docs/howto.md", cwd=work)
    second = commit_file(env, work, "src/login.py", "def login():\n    pass\n", "Add login")
    git(env, "push", "-q", "-u", "origin", BRANCH, cwd=work)
    number = emulator.create_pull("acme/todo", BRANCH, title="Login")
    emulator.set_ci("acme/todo", "success", pr=number)
    return Pushed(
        emulator_server.url, emulator_server.token, emulator, work, env, [first, second], number
    )


def _numstat(p: Pushed, old: str, new: str) -> list[tuple[int, int]]:
    """git's added and deleted lines per file, sorted."""
    lines = p.git("diff", "--numstat", "-M", old, new).splitlines()
    return sorted((int(a), int(d)) for a, d, _ in (line.split("\t", 2) for line in lines))


def _counts(files: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return sorted((f["additions"], f["deletions"]) for f in files)


def _client(p: Pushed) -> httpx.Client:
    return httpx.Client(base_url=p.url, headers={"Authorization": f"token {p.token}"})


def test_rest_reads_are_gits(pushed: Pushed) -> None:
    p = pushed
    merge_base = p.git("merge-base", "origin/main", "HEAD").strip()
    with _client(p) as api:
        for ref in (BRANCH, BRANCH.replace("/", "%2F"), f"heads/{BRANCH}", p.shas[1][:7]):
            answer = api.get(f"/repos/acme/todo/commits/{ref}")
            assert answer.status_code == 200 and answer.json()["sha"] == p.shas[1], ref
        commit = api.get(f"/repos/acme/todo/commits/{BRANCH}").json()
        assert commit["parents"][0]["sha"] == p.shas[0]
        assert commit["commit"]["tree"]["sha"] == p.git("rev-parse", "HEAD^{tree}").strip()
        assert commit["author"]["login"] == "octo"  # the author's email is octo's noreply
        assert _counts(commit["files"]) == _numstat(p, "HEAD~1", "HEAD")
        assert commit["stats"]["additions"] == sum(a for a, _ in _numstat(p, "HEAD~1", "HEAD"))
        # PR files: git's diff against the merge base, the rename included
        files = api.get(f"/repos/acme/todo/pulls/{p.number}/files").json()
        status = {f["filename"]: (f["status"], f.get("previous_filename")) for f in files}
        assert status == {
            "README.md": ("modified", None),
            "docs/howto.md": ("renamed", "docs/guide.md"),
            "src/login.py": ("added", None),
        }
        assert _counts(files) == _numstat(p, merge_base, "HEAD")
        # the diff and patch media types are git's own output
        diff = api.get(
            f"/repos/acme/todo/pulls/{p.number}",
            headers={"Accept": "application/vnd.github.v3.diff"},
        )
        assert diff.headers["content-type"].startswith("application/vnd.github.v3.diff")
        assert diff.text == p.git("diff", "-M", f"{merge_base}", "HEAD")
        patch = api.get(
            f"/repos/acme/todo/pulls/{p.number}", headers={"Accept": "application/vnd.github.patch"}
        )
        assert patch.text == p.git("format-patch", "--stdout", f"{merge_base}..HEAD")
        commit_diff = api.get(
            f"/repos/acme/todo/commits/{p.shas[0]}",
            headers={"Accept": "application/vnd.github.diff"},
        )
        assert commit_diff.text == p.git("diff", f"{p.shas[0]}~1", p.shas[0])
        # commits: the branch's history as git lists it; a path's history simplified by git
        listed = api.get("/repos/acme/todo/commits", params={"sha": BRANCH}).json()
        assert [c["sha"] for c in listed] == p.git("rev-list", "HEAD").split()
        readme = api.get("/repos/acme/todo/commits", params={"sha": BRANCH, "path": "README.md"})
        assert [c["sha"] for c in readme.json()] == p.git(
            "rev-list", "HEAD", "--", "README.md"
        ).split()
        pull_commits = api.get(f"/repos/acme/todo/pulls/{p.number}/commits").json()
        assert [c["sha"] for c in pull_commits] == p.shas
        # contents at a ref: a directory and a file, from git's tree and blob
        listing = api.get("/repos/acme/todo/contents/docs", params={"ref": BRANCH}).json()
        assert [(e["name"], e["type"], e["sha"]) for e in listing] == [
            ("howto.md", "file", p.git("rev-parse", "HEAD:docs/howto.md").strip())
        ]
        raw_file = api.get(
            "/repos/acme/todo/contents/README.md",
            params={"ref": BRANCH},
            headers={"Accept": "application/vnd.github.raw"},
        )
        assert raw_file.text == (p.work / "README.md").read_text()
        assert api.get("/repos/acme/todo/contents/nope.md").status_code == 404
        # branches and refs
        branch = api.get(f"/repos/acme/todo/branches/{BRANCH}").json()
        assert (branch["name"], branch["commit"]["sha"]) == (BRANCH, p.shas[1])
        names = [b["name"] for b in api.get("/repos/acme/todo/branches").json()]
        assert names == [BRANCH, "main"]
        refs = api.get("/repos/acme/todo/git/matching-refs/heads/feat").json()
        assert [r["ref"] for r in refs] == [f"refs/heads/{BRANCH}"]
        assert api.get("/repos/acme/todo/git/matching-refs/heads/none").json() == []
        # CI by branch name, "/" encoded or not
        for ref in (BRANCH, BRANCH.replace("/", "%2F")):
            assert api.get(f"/repos/acme/todo/commits/{ref}/status").json()["state"] == "success"
            runs = api.get(f"/repos/acme/todo/commits/{ref}/check-runs").json()
            assert [r["head_sha"] for r in runs["check_runs"]] == [p.shas[1]]


def test_compare_is_gits_three_dot_range(pushed: Pushed) -> None:
    """compare main...BRANCH: git's merge base, `main..BRANCH` and `BRANCH..main`
    commits, numstat and diff from the merge base, format-patch of the range."""
    p = pushed
    p.emulator.push("acme/todo", "main", "Later on main", files={"later.txt": "x\n"})
    p.git("fetch", "-q", "origin")
    merge_base = p.git("merge-base", "origin/main", "HEAD").strip()
    path = f"/repos/acme/todo/compare/main...{BRANCH}"
    with _client(p) as api:
        got = api.get(path).json()
        assert got["status"] == "diverged"
        assert got["merge_base_commit"]["sha"] == merge_base
        assert [c["sha"] for c in got["commits"]] == p.git(
            "rev-list", "--reverse", "origin/main..HEAD"
        ).split()
        assert got["behind_by"] == len(p.git("rev-list", "HEAD..origin/main").split())
        assert _counts(got["files"]) == _numstat(p, merge_base, "HEAD")
        diff = api.get(path, headers={"Accept": "application/vnd.github.diff"})
        assert diff.text == p.git("diff", "-M", "origin/main...HEAD")
        patch = api.get(path, headers={"Accept": "application/vnd.github.patch"})
        assert patch.text == p.git("format-patch", "--stdout", f"{merge_base}..HEAD")
        one = api.get(path, params={"per_page": 1, "page": 2})
        assert [c["sha"] for c in one.json()["commits"]] == [p.shas[1]]
        assert "files" not in one.json() and 'rel="first"' in one.headers["link"]


@pytest.mark.slow
def test_pygithub_reads_commits_branches_and_contents(pushed: Pushed) -> None:
    from github import Auth, Github

    p = pushed
    client = Github(base_url=p.url, auth=Auth.Token(p.token))
    repo = client.get_repo("acme/todo")
    commit = repo.get_commit(BRANCH)
    assert commit.sha == p.shas[1]
    assert commit.get_combined_status().state == "success"
    assert [r.conclusion for r in commit.get_check_runs()] == ["success"]
    assert commit.stats.additions == sum(f.additions for f in commit.files)
    pull = repo.get_pull(p.number)
    assert [c.sha for c in pull.get_commits()] == p.shas
    assert sorted(b.name for b in repo.get_branches()) == [BRANCH, "main"]
    assert repo.get_branch(BRANCH).commit.sha == p.shas[1]
    readme = repo.get_contents("README.md", ref=BRANCH)
    assert not isinstance(readme, list)
    assert readme.decoded_content == (p.work / "README.md").read_bytes()
    docs = repo.get_contents("docs", ref=BRANCH)
    assert isinstance(docs, list) and [d.path for d in docs] == ["docs/howto.md"]
    client.close()


def test_octokit_reads_refs_with_a_slash_and_the_diff_media_type(pushed: Pushed) -> None:
    node = need_node()
    p = pushed
    script = NODE_MODULES.parent / "git_content.mjs"
    proc = subprocess.run(
        [node, str(script), p.url, "acme", "todo", BRANCH, str(p.number)],
        env={"PATH": "/usr/bin:/bin", "GH_TOKEN": p.token, "HOME": str(p.work.parent)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    merge_base = p.git("merge-base", "origin/main", "HEAD").strip()
    assert got["commit"]["sha"] == p.shas[1]
    assert (got["status"]["state"], got["status"]["sha"]) == ("success", p.shas[1])
    assert got["checks"] == [["ci", "success"]]
    assert got["branch"] == {"name": BRANCH, "sha": p.shas[1]}
    assert got["branches"] == [BRANCH, "main"]
    assert got["commits"] == p.git("rev-list", "HEAD").split()
    assert got["pullCommits"] == p.shas
    assert got["matching"] == [f"refs/heads/{BRANCH}"]
    assert got["readme"] == (p.work / "README.md").read_text()
    assert got["diff"] == p.git("diff", "-M", merge_base, "HEAD")
    assert got["diffType"].startswith("application/vnd.github.v3.diff")
    assert got["patch"] == p.git("format-patch", "--stdout", f"{merge_base}..HEAD")
    assert got["commitDiff"] == p.git("diff", "-M", "HEAD~1", "HEAD")


@pytest.mark.gh
@pytest.mark.slow
def test_gh_pr_create_from_a_pushed_branch_then_diff_and_api(
    emulator_server: Any, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True)
    env = base_env(home) | gh_environment(emulator_server.url, emulator_server.token, home)
    env = with_token(env, emulator_server.url, emulator_server.token, "github.localhost")
    work = tmp_path / "work"
    git(env, "clone", "-q", PROXIED, str(work))  # origin: http://github.localhost/acme/todo.git
    git(env, "checkout", "-q", "-b", BRANCH, cwd=work)
    commit_file(env, work, "src/login.py", "def login():\n    return True\n", "Add login")
    git(env, "push", "-q", "-u", "origin", "HEAD", cwd=work)

    def gh(*args: str) -> str:
        proc = subprocess.run(
            ["gh", *args], env=env, cwd=work, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    url = gh("pr", "create", "--fill", "--base", "main").strip().splitlines()[-1]
    assert url.endswith("/acme/todo/pull/1")
    merge_base = git(env, "merge-base", "origin/main", "HEAD", cwd=work).stdout.strip()
    assert (
        gh("pr", "diff", "1", "--color", "never")
        == git(env, "diff", "-M", merge_base, "HEAD", cwd=work).stdout
    )
    head = git(env, "rev-parse", "HEAD", cwd=work).stdout.strip()
    commit = json.loads(gh("api", f"repos/acme/todo/commits/{BRANCH}"))
    assert (commit["sha"], commit["files"][0]["filename"]) == (head, "src/login.py")
    view = json.loads(gh("pr", "view", "1", "--json", "additions,deletions,files,commits"))
    assert (view["additions"], view["deletions"]) == (2, 0)
    assert [f["path"] for f in view["files"]] == ["src/login.py"]
    assert [c["oid"] for c in view["commits"]] == [head]
