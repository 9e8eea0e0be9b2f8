"""The three transports produce the same rows for the same calls."""

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from ghbench.clock import SystemClock
from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator
from ghbench.simulation.world import SimWorld
from ghbench.trace.schema import TraceRow
from ghbench.workload.config import SessionSpec
from ghbench.workload.poller import Poller
from ghbench.workload.profiles import PROFILES
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, LaneClock, Transport
from ghbench.workload.transport.gh import GhTransport
from ghbench.workload.transport.http import HttpTransport
from ghbench.workload.transport.inprocess import InProcessTransport
from tools import GhBuild

Seed = Callable[[Emulator, str, int], list[SessionSpec]]

# What must match; durations, sizes of header blocks, timestamps, ETag values and
# reset times depend on the clock and the server, not on the transport's fidelity.
FIELDS = (
    "component",
    "operation",
    "args",
    "endpoint",
    "method",
    "ok",
    "exitCode",
    "httpStatus",
    "rateLimitLimit",
    "rateLimitResource",
    "graphqlCost",
)


_SHA = re.compile(r"\b[0-9a-f]{40}\b")


def _field(row: TraceRow, name: str) -> object:
    # ETag values hash content that carries timestamps, and so do commit shas (a commit's
    # dates are in its object): their presence is what counts
    value = getattr(row, name)
    if name == "args" and value:
        masked = [re.sub(r"If-None-Match: .*", "If-None-Match: <etag>", a) for a in value]
        return [_SHA.sub("<sha>", a) for a in masked]
    if name == "endpoint" and value:
        return _SHA.sub("<sha>", value)
    return value


def _project(rows: list[TraceRow]) -> tuple[Counter[str], int, int]:
    """The rows as a multiset (in-process lanes finish in latency order, real time in
    call order) plus the budget left at the end, which must agree to the point."""
    rows_key = Counter(repr(tuple(_field(r, f) for f in FIELDS)) for r in rows)
    core = min(r.rateLimitRemaining or 5000 for r in rows if r.rateLimitResource == "core")
    graphql = min(r.graphqlRemaining or 5000 for r in rows if r.graphqlRemaining is not None)
    return rows_key, core, graphql


def _poll(transport: Transport, clock: SystemClock | LaneClock, seeded: Any) -> list[TraceRow]:
    rows: list[TraceRow] = []
    runner = CallRunner(transport, clock, rows.append, RowSettings(secrets=(seeded.token,)))
    # one session still without a PR: PR detection runs on the cold tick
    sessions = (*seeded.sessions, SessionSpec(id="ta-x", repo="acme/todo", issue=99))
    poller = Poller(PROFILES["ao-main-60e8c881"], runner, repos=("acme/todo",), sessions=sessions)
    for _ in range(3):
        poller.tick()
    poller.view_issue("acme/todo", seeded.sessions[0].issue or 1)
    transport.close()
    return rows


def _inprocess_rows(seeded: Any, seed: Seed) -> list[TraceRow]:
    clock = LaneClock()
    emulator = Emulator(seed=7, clock=clock)
    seed(emulator, "acme/todo", len(seeded.sessions))
    world = SimWorld.around(emulator, clock, seeded.token)
    transport = InProcessTransport(world.handle, token=seeded.token, rng=random.Random(1))
    return _poll(transport, clock, seeded)


def test_http_and_inprocess_rows_match(seeded_server: Any, seed: Seed) -> None:
    http = HttpTransport(seeded_server.url, token=seeded_server.token)
    http_rows = _poll(http, SystemClock(), seeded_server)
    assert len(http_rows) > 10
    assert _project(http_rows) == _project(_inprocess_rows(seeded_server, seed))
    assert not any(seeded_server.token in str(r) for r in http_rows)


@pytest.mark.gh
@pytest.mark.slow
def test_gh_rows_match_inprocess(
    seeded_server: Any, seed: Seed, tmp_path_factory: pytest.TempPathFactory, gh_build: GhBuild
) -> None:
    home = tmp_path_factory.mktemp("home")
    (home / "tmp").mkdir()
    env = gh_environment(seeded_server.url, seeded_server.token, home)
    env["PATH"] = gh_build.path_env("/usr/bin:/bin")
    gh = GhTransport("gh", host="github.localhost", env=env)
    gh_rows = _poll(gh, SystemClock(), seeded_server)
    assert len(gh_rows) > 10
    assert _project(gh_rows) == _project(_inprocess_rows(seeded_server, seed))
