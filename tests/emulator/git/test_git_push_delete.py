"""Deleting a branch by a push: git removes the ref (and its now empty folder) itself,
and the emulator records the deletion (issue 21 case 5)."""

from __future__ import annotations

from pathlib import Path

from git_helpers import base_env, commit_file, git, with_token

from ghbench.emulator.core import Emulator

PROXIED = "http://github.localhost/acme/todo.git"


def test_deleting_the_only_branch_of_its_folder_by_a_push(
    emulator_server: object, tmp_path: Path
) -> None:
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    env = base_env(tmp_path / "home")
    env["http_proxy"] = emulator_server.url  # type: ignore[attr-defined]
    authed = with_token(env, emulator_server.url, emulator_server.token, "github.localhost")  # type: ignore[attr-defined]
    work = tmp_path / "work"
    git(authed, "clone", "-q", PROXIED, str(work))
    git(authed, "checkout", "-q", "-b", "agent/x", cwd=work)
    commit_file(authed, work, "x.txt", "x\n", "X")
    git(authed, "push", "-q", "origin", "agent/x", cwd=work)
    repo = emulator.store.get_repo("acme", "todo")
    assert emulator.store.branch_sha(repo, "agent/x") is not None
    deleted = git(authed, "push", "origin", "--delete", "agent/x", cwd=work, check=False)
    assert deleted.returncode == 0, deleted.stderr
    assert "- [deleted]         agent/x" in deleted.stderr
    assert emulator.store.branch_sha(repo, "agent/x") is None
    listed = git(env, "ls-remote", PROXIED, "refs/heads/agent/x", cwd=work).stdout
    assert listed == ""
    # the branch can be pushed again (its folder comes back)
    git(authed, "push", "-q", "origin", "agent/x", cwd=work)
    assert emulator.store.branch_sha(repo, "agent/x") is not None
