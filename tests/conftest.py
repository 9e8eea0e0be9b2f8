"""Shared fixtures: the emulator in-process, over a real socket, and env for real gh.

``emulator``        in-process core, virtual clock, seed 1234, repo ``acme/todo``,
                    user ``octo`` with token ``TEST_TOKEN``.
``emulator_server`` that emulator served by uvicorn on a free loopback port in a
                    thread: ``.url``, ``.port``, ``.token``, ``.emulator``.
``gh_env``          env vars for running the real ``gh`` against ``emulator_server``
                    (tmp HOME and GH_CONFIG_DIR); skips when gh is not installed.
``ao_env``          env vars for the stand-in ``ao`` (tests/drivers/fake_ao/ao) and the
                    tmux, git and gh it runs: a private HOME, GH_CONFIG_DIR, TMPDIR and
                    tmux server (its own TMUX_TMPDIR, killed afterwards), a 1 s poll
                    tick. Tests add what they need (FAKE_AO_LAYOUT, PATH, ...).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.server import EmulatorServer, gh_environment

TEST_TOKEN = "ghp_test0000000000000000000000000000000001"
TEST_USER = "octo"
TEST_REPO = "acme/todo"


def make_emulator(**kwargs: object) -> Emulator:
    """A seeded emulator like the ``emulator`` fixture (extra kwargs go to Emulator)."""
    kwargs.setdefault("clock", VirtualClock())
    kwargs.setdefault("seed", 1234)
    emulator = Emulator(**kwargs)  # type: ignore[arg-type]
    emulator.create_user(TEST_USER, [TEST_TOKEN])
    emulator.create_repo(TEST_REPO)
    return emulator


@pytest.fixture
def emulator() -> Emulator:
    return make_emulator()


@dataclass
class RunningEmulator:
    url: str
    port: int
    token: str
    emulator: Emulator


@pytest.fixture
def emulator_server(emulator: Emulator) -> Iterator[RunningEmulator]:
    server = EmulatorServer(emulator, "127.0.0.1", 0)
    url = server.start()
    try:
        yield RunningEmulator(url, server.port, TEST_TOKEN, emulator)
    finally:
        server.stop()


@pytest.fixture
def gh_env(emulator_server: RunningEmulator, tmp_path: Path) -> dict[str, str]:
    if shutil.which("gh") is None:
        pytest.skip("the gh CLI is not installed (apt-get install gh); CI installs it")
    home = tmp_path / "gh-home"
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    env |= gh_environment(emulator_server.url, emulator_server.token, home)
    return env


@pytest.fixture
def ao_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    for d in (home / ".config" / "gh", tmp):
        d.mkdir(parents=True)
    tmux_dir = Path(tempfile.mkdtemp(prefix="gba", dir="/tmp"))  # socket paths must be short
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "TMUX_TMPDIR": str(tmux_dir),
        "GH_CONFIG_DIR": str(home / ".config" / "gh"),
        "FAKE_AO_TICK": "1",
        "LANG": "C.UTF-8",
    }
    try:
        yield dict(env)  # a copy: the cleanup below uses the private server's own env
    finally:
        if shutil.which("tmux"):  # our private tmux server only (its own socket dir)
            subprocess.run(["tmux", "kill-server"], env=env, capture_output=True)
        shutil.rmtree(tmux_dir, ignore_errors=True)
