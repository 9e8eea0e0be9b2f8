"""Shared fixtures: the emulator in-process, over a real socket, and env for real gh.

``emulator``        in-process core, virtual clock, seed 1234, repo ``acme/todo``,
                    user ``octo`` with token ``TEST_TOKEN``.
``emulator_server`` that emulator served over a real loopback socket: ``.url``,
                    ``.port``, ``.token``, ``.emulator``. The server (uvicorn in a
                    thread) is one per test session; each test plugs its own fresh
                    emulator into it (``serve``), so no state is shared between tests
                    and no test waits for a server to start or stop.
``serve``           ``serve(emulator)``: the session's server, serving ``emulator``
                    for this test (for tests that build their own emulator).
``gh_env``          env vars for running the real ``gh`` against ``emulator_server``
                    (tmp HOME and GH_CONFIG_DIR); gh missing skips, or fails under CI.

The real agent-orchestrator's tests are in ``tests/realao`` (their own fixtures).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer
from tools import require_tool

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


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``gh`` and ``needs(...)`` markers: a missing program skips, or fails under CI."""
    programs = [name for mark in item.iter_markers("needs") for name in mark.args]
    if item.get_closest_marker("gh") is not None:
        programs.append("gh")
    for name in dict.fromkeys(programs):
        require_tool(name)


@pytest.fixture
def emulator() -> Emulator:
    return make_emulator()


@dataclass
class RunningEmulator:
    url: str
    port: int
    token: str
    emulator: Emulator


class EmulatorSlot:
    """What the session's server serves: the emulator of the test running now.

    The server holds this slot; every attribute is the current emulator's, so the
    server's app calls whichever emulator the test plugged in. Between tests it is
    empty, and a stray request fails instead of reaching another test's state.
    """

    def __init__(self) -> None:
        self.current: Emulator | None = None

    def __getattr__(self, name: str) -> Any:
        if self.current is None:
            raise AttributeError(f"no test's emulator is plugged in (asked for {name!r})")
        return getattr(self.current, name)


@pytest.fixture(scope="session")
def _shared_server() -> Iterator[tuple[EmulatorServer, EmulatorSlot]]:
    slot = EmulatorSlot()
    server = EmulatorServer(slot, "127.0.0.1", 0)  # type: ignore[arg-type]
    server.start()
    try:
        yield server, slot
    finally:
        server.stop()


Serve = Callable[[Emulator], str]


@pytest.fixture
def serve(_shared_server: tuple[EmulatorServer, EmulatorSlot]) -> Iterator[Serve]:
    """``serve(emulator) -> url``: the session's server, serving ``emulator`` until the
    test ends (one emulator per test)."""
    server, slot = _shared_server

    def plug(emulator: Emulator) -> str:
        assert slot.current is None or slot.current is emulator, "one emulator per test"
        slot.current = emulator
        return server.url

    try:
        yield plug
    finally:
        slot.current = None


@pytest.fixture
def emulator_server(emulator: Emulator, serve: Serve) -> RunningEmulator:
    url = serve(emulator)
    return RunningEmulator(url, int(url.rsplit(":", 1)[1]), TEST_TOKEN, emulator)


@pytest.fixture
def gh_env(emulator_server: RunningEmulator, tmp_path: Path) -> dict[str, str]:
    require_tool("gh")
    home = tmp_path / "gh-home"
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    env |= gh_environment(emulator_server.url, emulator_server.token, home)
    return env
