"""``refs/pull/N/head`` and ``refs/pull/N/merge`` over git, as GitHub advertises them
(issue 21 case 11): CI systems and agents fetch a PR by number; the merge ref appears
once GitHub has computed that the PR merges cleanly; nobody may push to them."""

from __future__ import annotations

from pathlib import Path

import httpx
from git_helpers import base_env, commit_file, git, with_token

from ghbench.emulator.core import Emulator

PROXIED = "http://github.localhost/acme/todo.git"


def test_pull_refs_are_fetched_and_never_pushed(emulator_server: object, tmp_path: Path) -> None:
    emulator: Emulator = emulator_server.emulator  # type: ignore[attr-defined]
    number = emulator.create_pull("acme/todo", "feat/a", title="A", author="octo")
    env = base_env(tmp_path / "home")
    env["http_proxy"] = emulator_server.url  # type: ignore[attr-defined]
    work = tmp_path / "work"
    git(env, "clone", "-q", PROXIED, str(work))
    head = emulator.store.pull(emulator.store.get_repo("acme", "todo"), number).head_sha  # type: ignore[union-attr]
    listed = git(env, "ls-remote", "origin", "refs/pull/*", cwd=work).stdout.splitlines()
    assert listed == [f"{head}\trefs/pull/{number}/head"]
    # GitHub makes the merge ref when it computes mergeability (a client asks for it)
    with httpx.Client(base_url=emulator_server.url) as api:  # type: ignore[attr-defined]
        for _ in range(2):
            api.get(f"/repos/acme/todo/pulls/{number}")
    listed = git(env, "ls-remote", "origin", "refs/pull/*", cwd=work).stdout.splitlines()
    assert [line.split("\t")[1] for line in listed] == [
        f"refs/pull/{number}/head",
        f"refs/pull/{number}/merge",
    ]
    git(
        env,
        "fetch",
        "-q",
        "origin",
        f"pull/{number}/head:pr-head",
        f"pull/{number}/merge:pr-merge",
        cwd=work,
    )
    assert git(env, "rev-parse", "pr-head", cwd=work).stdout.strip() == head
    parents = git(env, "log", "-1", "--format=%P", "pr-merge", cwd=work).stdout.split()
    assert parents[0] == head
    assert git(env, "show", "pr-merge:notes/feat/a.md", cwd=work).returncode == 0
    commit_file(env, work, "x.txt", "x\n", "Not a PR's")
    authed = with_token(env, emulator_server.url, emulator_server.token, "github.localhost")  # type: ignore[attr-defined]
    pushed = git(authed, "push", "origin", f"HEAD:refs/pull/{number}/head", cwd=work, check=False)
    assert pushed.returncode == 1
    assert "deny updating a hidden ref" in pushed.stderr
