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
``gh_build``        the gh this test runs (``tools.GhBuild``), or None. A test marked
                    ``gh`` (or ``needs("gh")``) runs once per build, Debian's 2.23 and
                    PyPI's 2.102 (ids ``[gh-2.23]``, ``[gh-2.102]``), with a directory
                    holding only that gh first on PATH (os.environ's, for the module's
                    tests of that build); a build missing skips, or fails under CI. The
                    shared server checks that every gh request it answered came from the
                    build the test names, and none from a test not marked ``gh``.
``gh_env``          env vars for running that ``gh`` against ``emulator_server``
                    (tmp HOME and GH_CONFIG_DIR, the build first on PATH).

The real agent-orchestrator's tests are in ``tests/realao`` (their own fixtures).
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ghbench.cli import main
from ghbench.clock import VirtualClock
from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest, EmuResponse
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.signals import STOP_SIGNALS
from tools import GH_BUILDS, GhBuild, require_gh, require_tool

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


def _runs_gh(node: pytest.Item) -> bool:
    needs = (name for mark in node.iter_markers("needs") for name in mark.args)
    return node.get_closest_marker("gh") is not None or "gh" in needs


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that runs gh runs with each build: ``gh_build`` parametrized per module."""
    if _runs_gh(metafunc.definition):
        metafunc.parametrize(
            "gh_build", GH_BUILDS, ids=[b.id for b in GH_BUILDS], indirect=True, scope="module"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``needs(...)`` markers: a missing program skips, or fails under CI (gh: its
    build, checked by ``gh_build``)."""
    programs = [name for mark in item.iter_markers("needs") for name in mark.args]
    for name in dict.fromkeys(programs):
        if name != "gh":
            require_tool(name)


@pytest.fixture(scope="module", autouse=True)
def gh_build(request: pytest.FixtureRequest) -> Iterator[GhBuild | None]:
    build: GhBuild | None = getattr(request, "param", None)
    if build is None:
        yield None
        return
    require_gh(build)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", build.path_env())
        yield build


@pytest.fixture
def emulator() -> Emulator:
    return make_emulator()


@dataclass
class RunningEmulator:
    url: str
    port: int
    token: str
    emulator: Emulator


_GH_AGENT = re.compile(r"GitHub CLI (\S+)")


class EmulatorSlot:
    """What the session's server serves: the emulator of the test running now.

    The server holds this slot; every attribute is the current emulator's, so the
    server's app calls whichever emulator the test plugged in. Between tests it is
    empty, and a stray request fails instead of reaching another test's state. It
    keeps the versions of the real gh its requests came from: a User-Agent ``GitHub CLI
    2.23.0`` with gh's ``Time-Zone`` header, which ghbench's imitations of gh (the
    model's requests, the agents' captured ones) do not send.
    """

    def __init__(self) -> None:
        self.current: Emulator | None = None
        self.gh_versions: set[str] = set()
        self._lock = threading.Lock()

    def handle(self, request: EmuRequest) -> EmuResponse:
        found = _GH_AGENT.match(request.headers.get("user-agent", ""))
        if found and "time-zone" in request.headers:
            with self._lock:
                self.gh_versions.add(found.group(1))
        emulator = self.current
        if emulator is None:
            raise AttributeError("no test's emulator is plugged in (asked for 'handle')")
        return emulator.handle(request)

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
def serve(
    _shared_server: tuple[EmulatorServer, EmulatorSlot], gh_build: GhBuild | None
) -> Iterator[Serve]:
    """``serve(emulator) -> url``: the session's server, serving ``emulator`` until the
    test ends (one emulator per test); then the gh versions it saw must be the test's
    build (none when the test is not marked ``gh``)."""
    server, slot = _shared_server

    def plug(emulator: Emulator) -> str:
        assert slot.current is None or slot.current is emulator, "one emulator per test"
        slot.current = emulator
        return server.url

    slot.gh_versions = set()
    try:
        yield plug
    finally:
        slot.current = None
    expected = set() if gh_build is None else {gh_build.version}
    assert slot.gh_versions <= expected, (
        f"gh {sorted(slot.gh_versions)} reached the emulator; the test runs "
        + (f"gh {gh_build.version}" if gh_build else "no gh (mark it gh)")
    )


@pytest.fixture
def emulator_server(emulator: Emulator, serve: Serve) -> RunningEmulator:
    url = serve(emulator)
    return RunningEmulator(url, int(url.rsplit(":", 1)[1]), TEST_TOKEN, emulator)


@pytest.fixture
def gh_env(
    emulator_server: RunningEmulator, tmp_path: Path, gh_build: GhBuild | None
) -> dict[str, str]:
    assert gh_build is not None, "a test that runs gh is marked gh (one run per gh build)"
    home = tmp_path / "gh-home"
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True)
    # gh_build's gh first; today's gh's sampled telemetry off (tools.gh_child_env says why)
    env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "GH_TELEMETRY": "false"}
    env |= gh_environment(emulator_server.url, emulator_server.token, home)
    return env


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def ghbench(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Any:
    """The real entry point in-process (the imports are paid once), in ``tmp_path``.
    The stop signals' handlers ``main`` sets are put back after each call: a worker that
    kept them would raise ``StopSignal`` (a KeyboardInterrupt) at a SIGTERM meant for
    another test's processes."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Ran:
        before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
        out = capsys.readouterr()
        return Ran(code, out.out, out.err)

    return run
