"""Agents' lanes on one time-ordered queue against the in-process emulator, in virtual
time (each request a fixed 0.5 s): a command is its captured gh 2.102.0 requests sent
one after another, each a row of its invocation; agents' requests interleave in time
order; gh's disk cache is shared by the fleet; the steps around gh reach the world and
come back into the lane."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

import pytest

from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.core import Emulator
from ghbench.simulation.world import SimWorld
from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.fixtures import ScriptOutcome
from ghbench.workload.agents.fleet import AgentSpec, Fleet
from ghbench.workload.agents.session import AgentLane, AskReview, Gh, Learn, Push, Spawn, Wait
from ghbench.workload.runner import LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport

TOKEN = "ghp_fleettests00000000000000000000000000"
REPO = "acme/todo"
T0 = 1_000.0
DAY = 86_400.0


@dataclass
class World:
    """The world around the agents: what they pushed and the reviews they asked for."""

    pushed: list[str] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)

    def push(self, agent: AgentSpec) -> None:
        self.pushed.append(agent.id)

    def review(self, agent: AgentSpec, comments: int) -> int:
        self.asked.append(comments)
        return comments - 1  # one did not land


@dataclass
class Run:
    fleet: Fleet
    world: World
    rows: list[TraceRow]
    pr: int

    def add(self, agent: str, lane: AgentLane, at: float = T0) -> None:
        self.fleet.add(AgentSpec(agent, REPO, "feat/a", 1), lane, at)

    def of(self, invocation: str) -> list[tuple[int | None, float]]:
        """(request index, finished at) of an invocation's rows."""
        return [
            (r.requestIndex, parse_iso(r.timestamp))
            for r in self.rows
            if r.invocationId == invocation
        ]


@pytest.fixture
def run() -> Run:
    config = EmulatorConfig()
    config.faults.update({"latency": "fixed", "latency_ms": 500.0})
    clock = LaneClock(T0)
    emulator = Emulator(config=config, clock=clock, seed=0)
    emulator.create_user("ao-bot", [TOKEN])
    emulator.create_repo(REPO)
    emulator.create_issue(REPO, "Task", author="ao-bot")
    pr = emulator.create_pull(REPO, "feat/a", title="A")
    world = SimWorld.around(emulator, clock, TOKEN)
    transport = InProcessTransport(world.handle, token=TOKEN, rng=random.Random(0))
    rows: list[TraceRow] = []
    hooks = World()
    fleet = Fleet(transport, clock, rows.append, token=TOKEN, hooks=hooks, rng=random.Random(0))
    return Run(fleet, hooks, rows, pr)


def test_a_command_is_its_requests_one_after_another_then_the_lane_goes_on(run: Run) -> None:
    outcomes: list[ScriptOutcome] = []

    def lane() -> AgentLane:
        outcomes.append((yield Gh("repo.view")))
        yield Wait(10)
        outcomes.append((yield Gh("issue.view")))

    run.add("ta-1", lane())
    summary = run.fleet.run(T0 + 60)
    assert run.of("ta-1-1") == [(0, T0 + 0.5), (1, T0 + 1.0)]
    assert run.of("ta-1-2") == [(0, T0 + 11.5), (1, T0 + 12.0)]  # after the wait
    assert [(o.exit_code, len(o.responses)) for o in outcomes] == [(0, 2), (0, 2)]
    assert (summary.commands, summary.requests, summary.stopped) == (2, 4, {})
    row = run.rows[0]
    assert (row.sessionId, row.component, row.origin, row.args) == (
        "ta-1",
        "agent",
        "agent",
        ["repo", "view"],
    )


def test_agents_requests_interleave_in_time_order(run: Run) -> None:
    def lane() -> AgentLane:
        yield Gh("repo.view")

    run.add("ta-1", lane(), T0)
    run.add("ta-2", lane(), T0 + 0.25)
    run.fleet.run(T0 + 60)
    order = [(r.sessionId, r.requestIndex) for r in run.rows]
    assert order == [("ta-1", 0), ("ta-2", 0), ("ta-1", 1), ("ta-2", 1)]
    assert [parse_iso(r.timestamp) for r in run.rows] == [T0 + 0.5, T0 + 0.75, T0 + 1.0, T0 + 1.25]


def test_the_fleets_gh_cache_sends_feature_detection_once_a_day(run: Run) -> None:
    """gh 2.102's ``pr checks`` first asks what GitHub supports, kept a day in its disk
    cache, which every agent of the machine shares."""

    def lane(waits: tuple[float, ...]) -> AgentLane:
        yield Gh("pr.checks", {"pr": run.pr})
        for wait in waits:
            yield Wait(wait)
            yield Gh("pr.checks", {"pr": run.pr})

    run.add("ta-1", lane((60.0, DAY)), T0)
    run.add("ta-2", lane(()), T0 + 0.25)  # before ta-1's answers came: already asked
    run.fleet.run(T0 + 2 * DAY)
    sent = {inv: len(run.of(inv)) for inv in dict.fromkeys(r.invocationId for r in run.rows)}
    assert sent == {"ta-1-1": 4, "ta-2-2": 2, "ta-1-3": 2, "ta-1-4": 4}


def test_steps_around_gh_reach_the_world_and_come_back(run: Run) -> None:
    landed: list[int] = []

    def badge() -> AgentLane:
        yield Gh("pr.view.badge")

    def lane() -> AgentLane:
        yield Push()
        landed.append((yield AskReview(3)))
        yield Learn({"pr": run.pr})
        yield Spawn(badge())
        yield Gh("pr.comment")

    run.add("ta-1", lane())
    run.fleet.run(T0 + 60)
    assert (run.world.pushed, run.world.asked, landed) == (["ta-1"], [3], [2])
    by_command = {tuple(r.args or ())[:3]: r for r in run.rows}
    # the learned PR number fills a later command; the spawned lane ran beside it
    assert ("pr", "comment", str(run.pr)) in by_command
    assert ("pr", "view", "--json") in by_command
    assert {parse_iso(r.timestamp) for r in run.rows if r.requestIndex == 0} == {T0 + 0.5}


def test_lanes_past_the_end_or_after_the_stop_do_not_run(run: Run) -> None:
    def lane() -> AgentLane:
        yield Gh("repo.view")
        yield Wait(100)
        yield Gh("repo.view")

    run.add("ta-1", lane())
    run.add("ta-2", lane(), T0 + 500)
    summary = run.fleet.run(T0 + 50)
    assert {r.invocationId for r in run.rows} == {"ta-1-1"} and summary.commands == 1
    stop = threading.Event()
    stop.set()
    run.fleet.stop = stop
    run.fleet.run(T0 + 1000)
    assert len(run.rows) == 2
