"""git over HTTP with the real git: clone, fetch and push through the proxy address
(``http://github.localhost/OWNER/REPO.git`` with ``http_proxy`` at the emulator),
directly, and as an enterprise host; GitHub's answers to missing or wrong
credentials; git traffic is free; a push is a push for the whole API.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from git_helpers import base_env, commit_file, git, with_token

from ghbench.emulator.core import Emulator

PROXIED = "http://github.localhost/acme/todo.git"


@pytest.fixture
def env(tmp_path: Path, emulator_server: object) -> dict[str, str]:
    """git with a private HOME, its http_proxy at the emulator, no credentials."""
    out = base_env(tmp_path / "home")
    out["http_proxy"] = emulator_server.url  # type: ignore[attr-defined]
    return out


def _api(server: object) -> httpx.Client:
    return httpx.Client(
        base_url=server.url,  # type: ignore[attr-defined]
        headers={"Authorization": f"token {server.token}"},  # type: ignore[attr-defined]
    )


def test_clone_fetch_and_push_through_the_proxy_address_are_free(
    env: dict[str, str], emulator_server: object, tmp_path: Path
) -> None:
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    work = tmp_path / "work"
    git(env, "clone", "-q", PROXIED, str(work))  # anonymous: a public repository
    assert (work / "README.md").read_text() == "# todo\n"
    authed = with_token(env, emulator_server.url, emulator_server.token, "github.localhost")  # type: ignore[attr-defined]
    git(authed, "checkout", "-q", "-b", "feat/x", cwd=work)
    sha = commit_file(authed, work, "src/app.py", "print(1)\n", "Add the app")
    pushed = git(authed, "push", "-u", "origin", "feat/x", cwd=work)
    assert "* [new branch]      feat/x -> feat/x" in pushed.stderr
    repo = emulator.store.get_repo("acme", "todo")
    assert emulator.store.branch_sha(repo, "feat/x") == sha  # imported before push returned
    emulator.push("acme/todo", "main", "Moved on", files={"later.txt": "x\n"})
    fetched = git(env, "fetch", "origin", cwd=work)
    assert "main       -> origin/main" in fetched.stderr
    assert git(env, "show", "origin/main:later.txt", cwd=work).stdout == "x\n"
    # nothing charged, nothing in the ledger: not the token's budget, not the address's
    assert emulator.ledger_entries() == []
    assert emulator.limiter.view("ip:127.0.0.1", "core").used == 0
    assert emulator.limiter.view("octo", "core").used == 0


def test_clone_and_push_directly_with_or_without_dot_git(
    env: dict[str, str], emulator_server: object, tmp_path: Path
) -> None:
    url: str = emulator_server.url  # type: ignore[attr-defined]
    del env["http_proxy"]
    host = url.removeprefix("http://")
    authed = with_token(env, url, emulator_server.token, host)  # type: ignore[attr-defined]
    work = tmp_path / "direct"
    git(env, "clone", "-q", f"{url}/acme/todo", str(work))
    commit_file(authed, work, "b.txt", "b\n", "Direct")
    git(authed, "push", "-q", "origin", "HEAD:refs/heads/direct", cwd=work)
    listed = git(env, "ls-remote", f"{url}/acme/todo.git", "refs/heads/direct").stdout
    assert listed.split()[1] == "refs/heads/direct"


def test_an_enterprise_hosts_layout_is_served_too(
    env: dict[str, str], emulator_server: object, tmp_path: Path
) -> None:
    # GitHub Enterprise Server's git URLs are https://HOST/OWNER/REPO.git: the same layout
    url: str = emulator_server.url  # type: ignore[attr-defined]
    authed = with_token(env, url, emulator_server.token, "ghe.example.com")  # type: ignore[attr-defined]
    work = tmp_path / "ghe"
    git(authed, "clone", "-q", "http://ghe.example.com/acme/todo.git", str(work))
    commit_file(authed, work, "c.txt", "c\n", "Enterprise")
    git(authed, "push", "-q", "origin", "HEAD:refs/heads/ghe", cwd=work)
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    assert emulator.store.branch_sha(emulator.store.get_repo("acme", "todo"), "ghe")


def test_githubs_answers_to_missing_and_wrong_credentials(
    env: dict[str, str], emulator_server: object, tmp_path: Path
) -> None:
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    url: str = emulator_server.url  # type: ignore[attr-defined]
    token: str = emulator_server.token  # type: ignore[attr-defined]
    emulator.create_user("reader", ["ghp_reader000000000000000000000000000000"], scopes="read:org")
    with emulator.lock, emulator.db.transaction():
        emulator.store.create_repo("acme", "secret", private=True)
    work = tmp_path / "w"
    git(env, "clone", "-q", PROXIED, str(work))
    commit_file(env, work, "d.txt", "d\n", "D")
    # anonymous push: 401 with a Basic challenge; git asks for a user name
    anonymous = git(env, "push", "origin", "HEAD:refs/heads/anon", cwd=work, check=False)
    assert anonymous.returncode != 0
    assert "could not read Username for 'http://github.localhost'" in anonymous.stderr
    # a token the emulator does not know
    wrong = with_token(env, url, "ghp_" + "0" * 36, "github.localhost")
    refused = git(wrong, "push", "origin", "HEAD:refs/heads/x", cwd=work, check=False)
    assert "remote: Invalid username or token. Password authentication is not supported" in (
        refused.stderr
    )
    assert f"fatal: Authentication failed for '{PROXIED}/'" in refused.stderr
    # a known token: a missing repository is not found
    good = with_token(env, url, token, "github.localhost")
    missing = git(good, "ls-remote", "http://github.localhost/acme/nope.git", check=False)
    assert "remote: Repository not found." in missing.stderr
    assert "fatal: repository 'http://github.localhost/acme/nope.git/' not found" in (
        missing.stderr
    )
    # a private repository: anonymous is asked to authenticate, a token reads it
    private = git(env, "ls-remote", "http://github.localhost/acme/secret.git", check=False)
    assert "could not read Username" in private.stderr
    assert "refs/heads/main" in git(good, "ls-remote", "http://github.localhost/acme/secret").stdout
    # a token without the repo scope reads a public repository but may not push to it
    reader = with_token(env, url, "ghp_reader000000000000000000000000000000", "github.localhost")
    git(reader, "ls-remote", PROXIED)
    denied = git(reader, "push", "origin", "HEAD:refs/heads/r", cwd=work, check=False)
    assert "remote: Permission to acme/todo.git denied to reader." in denied.stderr
    assert "The requested URL returned error: 403" in denied.stderr
    assert emulator.ledger_entries() == []  # refusals are free too


def test_the_dumb_protocol_is_refused(emulator_server: object) -> None:
    url: str = emulator_server.url  # type: ignore[attr-defined]
    for path in ("/acme/todo.git/info/refs", "/acme/todo.git/HEAD"):
        answer = httpx.get(url + path)
        assert answer.status_code == 403 and "dumb HTTP" in answer.text


@pytest.mark.slow
def test_a_pushed_branch_is_a_branch_for_the_whole_api(
    env: dict[str, str], emulator_server: object, tmp_path: Path
) -> None:
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    url: str = emulator_server.url  # type: ignore[attr-defined]
    authed = with_token(env, url, emulator_server.token, "github.localhost")  # type: ignore[attr-defined]
    work = tmp_path / "w"
    git(authed, "clone", "-q", PROXIED, str(work))
    git(authed, "checkout", "-q", "-b", "feat/login", cwd=work)
    commit_file(authed, work, "README.md", "# todo\n\nLog in first.\n", "Document login")
    head = commit_file(authed, work, "src/login.py", "def login():\n    pass\n", "Add login")
    git(authed, "push", "-q", "-u", "origin", "HEAD", cwd=work)
    with _api(emulator_server) as api:
        made = api.post(
            "/repos/acme/todo/pulls", json={"title": "Login", "head": "feat/login", "base": "main"}
        )
        assert made.status_code == 201, made.text
        number = made.json()["number"]
        assert made.json()["head"]["sha"] == head
        files = api.get(f"/repos/acme/todo/pulls/{number}/files").json()
        assert [(f["filename"], f["status"], f["additions"], f["deletions"]) for f in files] == [
            ("README.md", "modified", 2, 0),
            ("src/login.py", "added", 2, 0),
        ]
        full = api.get(f"/repos/acme/todo/pulls/{number}").json()
        assert (full["additions"], full["deletions"], full["changed_files"]) == (4, 0, 2)
        # the PR follows a later push, a force push included
        git(authed, "commit", "-q", "--amend", "-m", "Add login (amended)", cwd=work)
        amended = git(authed, "rev-parse", "HEAD", cwd=work).stdout.strip()
        git(authed, "push", "-q", "--force", "origin", "HEAD", cwd=work)
        assert api.get(f"/repos/acme/todo/pulls/{number}").json()["head"]["sha"] == amended
        # a branch deleted by a push is gone for the API too; the default branch stays
        git(authed, "push", "-q", "origin", "HEAD:refs/heads/tmp", cwd=work)
        assert api.get("/repos/acme/todo/git/ref/heads/tmp").status_code == 200
        git(authed, "push", "-q", "origin", ":tmp", cwd=work)
        assert api.get("/repos/acme/todo/git/ref/heads/tmp").status_code == 404
        kept = git(authed, "push", "origin", ":main", cwd=work, check=False)
        assert "[remote rejected] main (deletion of the current branch prohibited)" in kept.stderr
    repo = emulator.store.get_repo("acme", "todo")
    pushed = emulator.store.commit(repo, head)
    assert pushed is not None and pushed.author_login == "octo"  # octo's noreply address
    assert (pushed.author_name, pushed.message) == ("Octo Cat", "Add login")


@pytest.mark.slow
def test_a_state_dir_keeps_pushes_across_a_restart(tmp_path: Path) -> None:
    from ghbench.emulator.process import start_emulator_process

    token = "ghp_restart00000000000000000000000000000"
    state = tmp_path / "state"
    env = base_env(tmp_path / "home")
    work = tmp_path / "w"
    with start_emulator_process(state, tokens=[token], repos=["acme/todo"]) as first:
        authed = with_token(env, first.url, token, "github.localhost")
        git(authed, "clone", "-q", PROXIED, str(work))
        sha = commit_file(authed, work, "kept.txt", "kept\n", "Keep me")
        git(authed, "push", "-q", "origin", "HEAD:refs/heads/kept", cwd=work)
    with start_emulator_process(state, tokens=[token]) as again:
        authed = with_token(env, again.url, token, "github.localhost")
        listed = git(authed, "ls-remote", PROXIED, "refs/heads/kept").stdout.split()
        assert listed == [sha, "refs/heads/kept"]
        answer = httpx.get(
            f"{again.url}/repos/acme/todo/git/ref/heads/kept",
            headers={"Authorization": f"token {token}"},
        )
        assert answer.json()["object"]["sha"] == sha


def test_a_push_the_emulator_did_not_record_is_recorded_at_start(tmp_path: Path) -> None:
    # as if the emulator were killed between git accepting a push and recording it
    from ghbench.clock import VirtualClock
    from ghbench.emulator.git.objects import Signature, commit_body

    first = Emulator(state_dir=tmp_path, clock=VirtualClock())
    repo = first.create_repo("acme/todo")
    main = first.store.branch_sha(repo, "main")
    assert main is not None
    tree = first.store.commits[(repo.id, main)].tree_sha
    who = Signature("Someone", "someone@example.com", 1_700_000_000)
    git_repo = first.git.repo(repo.id)
    sha = git_repo.put("commit", commit_body(tree, [main], who, who, "Pushed while stopping"))
    (git_repo.path / "refs" / "heads" / "late").write_text(sha + "\n")
    first.close()
    again = Emulator(state_dir=tmp_path, clock=VirtualClock())
    repo = again.store.get_repo("acme", "todo")
    assert again.store.branch_sha(repo, "late") == sha
    recorded = again.store.commit(repo, sha)
    assert recorded is not None and recorded.message == "Pushed while stopping"
    again.close()
