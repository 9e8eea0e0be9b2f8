"""git's objects over the API (``rest/gitdata.py``): a pull request's head tree, its git
commit and a tag, with PyGithub over a real socket; and in-process, trees by branch or
sha (recursive or not), blobs in base64, tags newest name first, and the 404s for what
names no object."""

from __future__ import annotations

import base64

import httpx
from github import Github

from ghbench.emulator.core import Emulator

from .helpers import REPO, blob, put


def test_trees_commits_and_tags_with_pygithub(bot_github: Github) -> None:
    repo = bot_github.get_repo("acme/todo")
    pull = repo.get_pull(2)
    tree = repo.get_git_tree(pull.head.sha, recursive=True)
    assert sorted(e.path for e in tree.tree) == [
        "README.md",
        "notes",
        "notes/feat",
        "notes/feat/a.md",
    ]
    commit = repo.get_git_commit(pull.head.sha)
    assert commit.message == "Feature A" and commit.tree.sha == tree.sha
    repo.create_git_ref("refs/tags/v1.0", pull.base.sha)
    assert [(t.name, t.commit.sha) for t in repo.get_tags()] == [("v1.0", pull.base.sha)]


def test_a_tree_by_branch_or_sha_recursive_or_not(api: httpx.Client) -> None:
    assert put(api, "src/app/main.py", "print(1)\n").status_code == 201
    top = api.get(f"{REPO}/git/trees/main").json()
    assert top["truncated"] is False
    assert [(e["path"], e["type"], e["mode"]) for e in top["tree"]] == [
        ("README.md", "blob", "100644"),
        ("src", "tree", "040000"),
    ]
    assert "size" not in top["tree"][1]
    deep = api.get(f"{REPO}/git/trees/{top['sha']}", params={"recursive": "1"}).json()
    assert [e["path"] for e in deep["tree"]] == [
        "README.md",
        "src",
        "src/app",
        "src/app/main.py",
    ]
    file = deep["tree"][-1]
    assert (file["sha"], file["size"]) == (blob("print(1)\n"), 9)
    assert file["url"].endswith(f"/git/blobs/{file['sha']}")
    for off in ("0", "false"):
        shallow = api.get(f"{REPO}/git/trees/main", params={"recursive": off}).json()
        assert len(shallow["tree"]) == 2
    sub = api.get(f"{REPO}/git/trees/{top['tree'][1]['sha']}").json()
    assert [e["path"] for e in sub["tree"]] == ["app"]  # paths below the tree asked for


def test_what_names_no_tree_blob_or_commit_is_a_404(api: httpx.Client) -> None:
    put(api, "a.txt", "a\n")
    a = blob("a\n")
    for path in [
        f"git/trees/{a}",  # a blob is not a tree
        "git/trees/not-a-branch",
        f"git/trees/{'0' * 40}",
        "git/blobs/main",  # blobs are named by their id only
        f"git/blobs/{a[:7]}",
        f"git/blobs/{'0' * 40}",
        f"git/commits/{'0' * 40}",
    ]:
        assert api.get(f"{REPO}/{path}").status_code == 404, path


def test_a_blob_is_its_bytes_in_base64(api: httpx.Client) -> None:
    text = "x" * 100 + "\n"  # base64 longer than a line
    put(api, "long.txt", text)
    sha = blob(text)
    got = api.get(f"{REPO}/git/blobs/{sha.upper()}").json()
    assert (got["sha"], got["size"], got["encoding"]) == (sha, 101, "base64")
    assert "\n" in got["content"].rstrip("\n")  # wrapped, as git's base64 is
    assert base64.b64decode(got["content"]).decode() == text


def test_a_git_commit_and_tags_newest_name_first(emulator: Emulator, api: httpx.Client) -> None:
    first = api.get(f"{REPO}/git/ref/heads/main").json()["object"]["sha"]
    second = emulator.push("acme/todo", "main", "Second\n\nbody", files={"b.txt": "b\n"})
    commit = api.get(f"{REPO}/git/commits/{second}").json()
    assert commit["message"] == "Second\n\nbody"
    assert [p["sha"] for p in commit["parents"]] == [first]
    tree = api.get(f"{REPO}/git/trees/{second}").json()["sha"]
    assert commit["tree"]["sha"] == tree
    assert commit["verification"]["verified"] is False
    for name, sha in [("v1.0", first), ("v2.0", second), ("v1.5", first)]:
        made = api.post(f"{REPO}/git/refs", json={"ref": f"refs/tags/{name}", "sha": sha})
        assert made.status_code == 201
    tags = api.get(f"{REPO}/tags").json()
    assert [(t["name"], t["commit"]["sha"]) for t in tags] == [
        ("v2.0", second),
        ("v1.5", first),
        ("v1.0", first),
    ]
    assert tags[0]["zipball_url"].endswith("/zipball/refs/tags/v2.0")
    paged = api.get(f"{REPO}/tags", params={"per_page": 2, "page": 2})
    assert [t["name"] for t in paged.json()] == ["v1.0"]
    assert 'rel="prev"' in paged.headers["link"]
