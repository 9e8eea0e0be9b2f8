"""A user's checkout whose origin is on github.com, pointed at the emulator without
changing the checkout or the user's git configuration: ``git_environment`` only
(git's environment-level configuration), with the real git and gh 2.23.

Nothing may reach github.com: https and ssh both lead to traps that record any
attempt, and the user's own credential helper records being asked.
"""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from git_helpers import base_env, commit_file, git

from ghbench.emulator.client_env import gh_environment, git_environment

REMOTES = ["https://github.com/acme/todo.git", "git@github.com:acme/todo.git"]


class Trap:
    """A listening socket that records every connection (an HTTPS proxy nobody
    should use) and answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.hits: list[bytes] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    self.hits.append(conn.recv(200) or b"(connected)")
                except OSError:
                    self.hits.append(b"(connected)")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def trap() -> Iterator[Trap]:
    found = Trap()
    yield found
    found.close()


def _user_world(tmp_path: Path, remote: str) -> tuple[dict[str, str], Path, Path]:
    """A user's HOME (a global git config with a credential helper that records being
    asked) and checkout (origin ``remote``), made without the emulator."""
    home = tmp_path / "home"
    env = base_env(home)
    asked = tmp_path / "user-helper-was-asked"
    (home / ".gitconfig").write_text(
        f"[credential]\n\thelper = !touch {asked} && false\n[user]\n\tname = User\n"
    )
    checkout = tmp_path / "checkout"
    git(env, "init", "-q", "-b", "main", str(checkout))
    git(env, "remote", "add", "origin", remote, cwd=checkout)
    return env, checkout, asked


@pytest.mark.gh
@pytest.mark.parametrize("remote", REMOTES)
def test_a_github_checkout_reaches_the_emulator_through_the_environment_only(
    emulator_server: Any, tmp_path: Path, trap: Trap, remote: str
) -> None:
    user_env, checkout, asked = _user_world(tmp_path, remote)
    ssh_marker = tmp_path / "ssh-was-run"
    user_config = (tmp_path / "home" / ".gitconfig").read_bytes()
    home = tmp_path / "home"
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    # what the harness gives AO and its agents: gh's environment and git's
    env = user_env | gh_environment(emulator_server.url, emulator_server.token, home)
    env |= git_environment(emulator_server.url, existing=user_env)
    env |= {
        "HTTPS_PROXY": trap.url,  # github.com over https would go here
        "https_proxy": trap.url,
        "GIT_SSH_COMMAND": f"touch {ssh_marker}; false",
    }
    git(env, "fetch", "-q", "origin", cwd=checkout)
    git(env, "checkout", "-q", "-b", "main", "origin/main", cwd=checkout)
    assert git(env, "remote", "get-url", "origin", cwd=checkout).stdout.strip() == (
        "http://github.localhost/acme/todo.git"
    )
    # an agent's worktree: commit, push -u origin HEAD, gh pr create --fill
    worktree = tmp_path / "worktree"
    git(env, "worktree", "add", "-q", "-b", "feat/agent", str(worktree), cwd=checkout)
    head = commit_file(env, worktree, "agent.txt", "done\n", "Agent's work")
    git(env, "push", "-q", "-u", "origin", "HEAD", cwd=worktree)
    created = subprocess.run(
        ["gh", "pr", "create", "--fill"],
        env=env,
        cwd=worktree,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert created.returncode == 0, created.stderr
    assert created.stdout.strip().endswith("/acme/todo/pull/1")
    emulator = emulator_server.emulator
    pull = emulator.store.pull(emulator.store.get_repo("acme", "todo"), 1)
    assert pull is not None and (pull.head_ref, pull.head_sha) == ("feat/agent", head)
    # nothing tried github.com, nothing of the user's was changed or asked: the checkout
    # still names github.com (only branch tracking, the agent's own push -u, was added)
    assert trap.hits == [] and not ssh_marker.exists() and not asked.exists()
    assert (tmp_path / "home" / ".gitconfig").read_bytes() == user_config
    plain = git(user_env, "config", "--get-regexp", r"^remote\.", cwd=checkout).stdout
    assert plain.splitlines() == [
        f"remote.origin.url {remote}",
        "remote.origin.fetch +refs/heads/*:refs/remotes/origin/*",
    ]


def test_the_variables_append_to_a_callers_own_and_hold_no_token() -> None:
    own = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.pager", "GIT_CONFIG_VALUE_0": "cat"}
    env = git_environment("http://127.0.0.1:1234", existing=own)
    count = int(env["GIT_CONFIG_COUNT"])
    assert count > 1 and "GIT_CONFIG_KEY_0" not in env  # the caller's entry is left alone
    pairs = [(env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"]) for i in range(1, count)]
    assert ("url.http://github.localhost/.insteadOf", "https://github.com/") in pairs
    assert ("url.http://github.localhost/.insteadOf", "git@github.com:") in pairs
    assert ("http.http://github.localhost/.proxy", "http://127.0.0.1:1234") in pairs
    assert ("credential.http://github.localhost/.helper", "") in pairs  # others reset
    helper = dict(pairs)["credential.http://github.localhost/.helper"]
    assert "$GH_TOKEN" in helper  # read when git asks: the token is never in the variables
