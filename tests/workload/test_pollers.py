"""Each profile's poller is the one its AO build polls with: AO's TypeScript lifecycle
manager (gh invocations) or AO 0.10/0.12's SCM observer (the daemon's own requests, the
GitHub front's rows); one tick over one session on the in-process emulator shows which."""

from __future__ import annotations

import random

import pytest

from ghbench.simulation.cell import SIM_START
from ghbench.simulation.world import SimWorld
from ghbench.trace.schema import TraceRow
from ghbench.workload.config import SessionSpec
from ghbench.workload.observer import Observer
from ghbench.workload.observer_calls import USER_AGENT
from ghbench.workload.poller import Poller
from ghbench.workload.pollers import POLLERS, make_poller
from ghbench.workload.profiles import PROFILES
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport

REPO = "acme/todo"


def test_every_profile_names_a_poller() -> None:
    assert set(POLLERS) == {p.poller for p in PROFILES.values()}
    assert {"lifecycle": Poller, "scm-observer": Observer} == POLLERS


@pytest.mark.parametrize(
    ("profile", "kind", "client"),
    [("ao-main-60e8c881", Poller, None), ("ao-0.10.3", Observer, USER_AGENT)],
)
def test_the_profiles_poller_watches_its_sessions_and_polls_its_way(
    profile: str, kind: type, client: str | None
) -> None:
    clock = LaneClock(SIM_START)
    world = SimWorld(clock, seed=0)
    (spec,) = world.seed([REPO], 1, open_prs=True)
    rows: list[TraceRow] = []
    transport = InProcessTransport(world.handle, token=world.token, rng=random.Random(0))
    runner = CallRunner(transport, clock, rows.append, RowSettings())
    poller = make_poller(PROFILES[profile], runner, repos=(REPO,), sessions=(spec,))
    assert type(poller) is kind and set(poller.sessions) == {spec.id}
    poller.add_session(SessionSpec(id="ta-9", repo=REPO, issue=1))
    assert set(poller.sessions) == {spec.id, "ta-9"}
    runner.start_at(SIM_START)
    poller.tick()
    guard = next(r for r in rows if r.operation == "gh.api.guard-pr-list")
    assert guard.httpStatus == 200
    # gh's row keeps its argv; the daemon's request is the front's row, without one
    assert (guard.args is None) == (client is not None)
    assert all((r.args is None) == (client is not None) for r in rows)
