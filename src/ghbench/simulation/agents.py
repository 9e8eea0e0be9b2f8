"""Coding agents against the in-process emulator in virtual time: ``run_agents``.

The world an agent lives in is the emulator plus what happens off gh: a push is a
new commit on the session's branch with CI pending, and CI ends (failed with the
profile's ``ci_failure`` probability) after the profile's ``ci_duration``; a reviewer
leaves comments when the agent asks for review. Everything else is the agent's own
gh traffic, sent as the captured requests (``ghbench.workload.agents``) and priced
by the emulator's ledger. The run writes the same artifacts as ``simulate``: an
AO-schema trace (one row per request, ``origin: agent``) and a scorecard.

A runbook cell runs agents beside the AO model (``CellAgents``): they share its world,
clock and transport, and the cell calls ``run(t)`` before each of its own events and
ticks at ``t`` (the fleet stops at ``t`` and keeps later events queued), so both run in
one time order, tick by tick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.artifacts.io import unique_path
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.spec import Policies
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.result import RunResult
from ghbench.runspec.spec import RunSpec
from ghbench.scorecard import Snapshots, build_scorecard_artifact, write_scorecard
from ghbench.simulation.world import SIM_START, Ledger, SimWorld
from ghbench.timefmt import format_duration
from ghbench.trace.files import write_rows
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.fleet import AgentSpec, Fleet, FleetSummary
from ghbench.workload.agents.profiles import AgentParams, agent_profile
from ghbench.workload.agents.session import (
    AgentLane,
    Wait,
    agent_session,
    pr_badge,
    review_response,
)
from ghbench.workload.config import SessionSpec
from ghbench.workload.runner import LaneClock, Transport
from ghbench.workload.transport.inprocess import InProcessTransport

__all__ = [
    "AgentRun",
    "AgentRunSpec",
    "AgentWorld",
    "AgentsResult",
    "CellAgents",
    "agents_for",
    "run_agents",
    "simulate_agents",
    "start_agents",
    "write_agent_artifacts",
]

AGENT_REPO = "acme/todo-app"
# AO's limit-finder spawns sessions 3 s apart (reference: agent-orchestrator.md, §6)
SPAWN_STAGGER_S = 3.0


@dataclass(frozen=True)
class AgentRunSpec:
    """``agents`` sessions of ``profile`` from their spawn, measured over ``duration_s``
    after ``warmup_s`` (0: the window is the session's active phase from its start)."""

    profile: str = "default"
    agents: int = 5
    duration_s: float = 1800.0
    warmup_s: float = 0.0
    repo: str = AGENT_REPO
    stagger_s: float = SPAWN_STAGGER_S
    params: AgentParams | None = None  # overrides the profile's (calibration sweeps)
    # hourly points per resource instead of GitHub's 5,000 (a large one shows the
    # agents' demand where the bucket would have stopped them)
    limits: tuple[tuple[str, int], ...] = ()
    # the fleet's policies in front of every agent's gh (docs/policies.md)
    policies: Policies | None = None

    @classmethod
    def of(cls, spec: RunSpec) -> AgentRunSpec:
        """The run's sessions' agents alone: ``spec.agents``'s profile, one agent per
        session, over its window from their spawn."""
        return cls(
            profile=spec.agents,
            agents=spec.cell.sessions,
            duration_s=spec.duration.seconds,
            warmup_s=spec.warmup.seconds,
        )

    @property
    def resolved(self) -> AgentParams:
        return self.params if self.params is not None else agent_profile(self.profile)

    @property
    def scenario_id(self) -> str:
        """The cell: how many agents; the profile is the variant compared within it."""
        return f"agents-{self.agents}"

    @property
    def slug(self) -> str:
        return f"agents-{self.profile}-{self.agents}"


def _later(seconds: float, action: Any) -> AgentLane:
    """A lane that does ``action`` (the world's, not an agent's) after ``seconds``."""
    yield Wait(seconds)
    action()


class AgentWorld:
    """The emulator as agents' pushes and reviewers change it (``WorldHooks``)."""

    def __init__(self, world: SimWorld, params: AgentParams, rng: random.Random) -> None:
        self.world = world
        self.params = params
        self.rng = rng
        self.fleet: Fleet | None = None
        self.pushes = 0
        self.ci_runs: dict[str, int] = {}

    def push(self, agent: AgentSpec) -> None:
        api = self.world.emulator
        sha = api.push(agent.repo, agent.branch, f"Work on #{agent.issue}")
        api.set_ci(agent.repo, "pending", sha=sha)
        self.pushes += 1
        outcome = "failure" if self.rng.random() < self.params.ci_failure else "success"
        self.ci_runs[outcome] = self.ci_runs.get(outcome, 0) + 1

        def finish() -> None:
            api.set_ci(agent.repo, outcome, sha=sha)

        assert self.fleet is not None
        delay = self.rng.uniform(*self.params.ci_duration)
        self.fleet.add(agent, _later(delay, finish), self.world.clock.now())

    def review(self, agent: AgentSpec, comments: int) -> int:
        api = self.world.emulator
        owner, _, name = agent.repo.partition("/")
        repo = api.store.repo(owner, name)
        pulls = [] if repo is None else api.store.pulls(repo, head=agent.branch)
        if not pulls:
            return 0
        api.add_review_comments(agent.repo, count=comments, prs=[pulls[0].number])
        return comments


def agents_for(sessions: list[SessionSpec]) -> list[AgentSpec]:
    """The agent of each AO session: its id, repository, branch and issue."""
    return [AgentSpec(s.id, s.repo, s.branch_name, s.issue or 0) for s in sessions]


def start_agents(
    fleet: Fleet,
    params: AgentParams,
    sessions: list[AgentSpec],
    *,
    start: float,
    stagger: float,
    rng: random.Random,
) -> None:
    """Queue each session's agent, ``stagger`` seconds apart from ``start``."""
    for i, agent in enumerate(sessions):
        lane = agent_session(params, random.Random(rng.randrange(2**31)))
        fleet.add(agent, lane, start + i * stagger)


class CellAgents:
    """A run's coding agents in its world: one ``Fleet`` over the run's transport, whose
    queue the run advances with ``run(t)`` before each of its own events at ``t``."""

    def __init__(
        self,
        world: SimWorld,
        transport: Transport,
        params: AgentParams,
        rng: random.Random,
        seen: Callable[[TraceRow], None] | None = None,
        *,
        policies: Policies | None = None,
        limits: Mapping[str, float] | None = None,
    ) -> None:
        """``seen``: told of every agent row as it is written (the orchestrator's meter
        of the shared budget reads the agents' answers too)."""
        self.params = params
        self.rng = rng
        self.rows: list[TraceRow] = []
        self.seen = seen
        self.world = AgentWorld(world, params, random.Random(rng.randrange(2**31)))
        self.fleet = Fleet(
            transport,
            world.clock,
            self._keep,
            token=world.token,
            hooks=self.world,
            rng=rng,
            gh=params.gh,
            policies=policies,
            limits=limits,
        )
        self.world.fleet = self.fleet

    def _keep(self, row: TraceRow) -> None:
        self.rows.append(row)
        if self.seen is not None:
            self.seen(row)

    def spawn(self, sessions: Sequence[SessionSpec], *, start: float, stagger: float) -> None:
        """Each session's agent from its task on, ``stagger`` seconds apart from ``start``."""
        start_agents(
            self.fleet, self.params, agents_for(list(sessions)), start=start, stagger=stagger,
            rng=self.rng,
        )  # fmt: skip

    def answer_review(self, session: SessionSpec, comments: int, at: float) -> None:
        """From ``at``, the agent of ``session`` addresses the ``comments`` its PR got."""
        (agent,) = agents_for([session])
        lane_rng = random.Random(self.rng.randrange(2**31))
        self.fleet.add(agent, review_response(self.params, lane_rng, session.pr or 0, comments), at)

    def badges(self, sessions: Sequence[SessionSpec], at: float) -> None:
        """The PR badge of each session's agent from ``at``, when the profile has one."""
        if self.params.badge_interval > 0:
            for agent in agents_for(list(sessions)):
                self.fleet.add(agent, pr_badge(self.params), at)

    def run(self, until: float) -> FleetSummary:
        """Every agent request up to ``until``; later ones stay queued."""
        return self.fleet.run(until)


@dataclass
class AgentRun:
    """The in-memory outcome of a run, before anything is written."""

    spec: AgentRunSpec
    rows: list[TraceRow]
    window_start: float
    window_end: float
    snapshots: dict[str, RateLimitSnapshot]
    ledger: Ledger
    summary: FleetSummary
    pushes: int = 0
    ci_runs: dict[str, int] = field(default_factory=dict)

    def points_per_hour(self, resource: str) -> float:
        return self.ledger.per_hour(resource)


def run_agents(spec: AgentRunSpec, *, seed: int) -> AgentRun:
    """Run ``spec`` in memory, deterministic for ``seed``; nothing is written."""
    rng = random.Random(seed)
    params = spec.resolved
    clock = LaneClock(SIM_START)
    world = SimWorld(clock, seed=rng.randrange(2**31))
    for resource, limit in spec.limits:
        world.emulator.set_limit(resource, limit)
    sessions = world.seed([spec.repo], spec.agents, open_prs=False)
    transport = InProcessTransport(
        world.handle, token=world.token, rng=random.Random(rng.randrange(2**31))
    )
    limits = {**TOKEN_LIMITS, **{r: float(n) for r, n in spec.limits}}
    agents = CellAgents(world, transport, params, rng, policies=spec.policies, limits=limits)
    start = clock.now()
    window_start = start + spec.warmup_s
    window_end = window_start + spec.duration_s
    snapshots: dict[str, RateLimitSnapshot] = {}

    def snapshot(name: str) -> AgentLane:
        return _later(0.0, lambda: snapshots.__setitem__(name, world.rate_limit_snapshot()))

    # the bracket: before anything at the window's start, after everything at its end
    # (the ledger's window counts both ends)
    agents.fleet.add(AgentSpec("control", spec.repo, "", 0), snapshot("before"), window_start)
    agents.spawn(sessions, start=start, stagger=spec.stagger_s)
    summary = agents.run(window_end)
    clock.jump(window_end)
    snapshots["after"] = world.rate_limit_snapshot()
    rows = sorted(agents.rows, key=lambda r: r.timestamp)
    return AgentRun(
        spec,
        rows,
        window_start,
        window_end,
        snapshots,
        world.ledger(window_start, window_end),
        summary,
        pushes=agents.world.pushes,
        ci_runs=agents.world.ci_runs,
    )


def agent_scorecard(run: AgentRun, *, trace_path: str | None = None) -> ScorecardArtifact:
    spec = run.spec
    return build_scorecard_artifact(
        TraceFrame.from_rows(run.rows),
        window_start_ms=round(run.window_start * 1000),
        window_end_ms=round(run.window_end * 1000),
        scenario_id=spec.scenario_id,
        measured_at=run.window_end,
        warmup_requested=format_duration(spec.warmup_s),
        duration_requested=format_duration(spec.duration_s),
        snapshots=Snapshots(before=run.snapshots.get("before"), after=run.snapshots.get("after")),
        control_calls=len(run.snapshots),
        session_count=spec.agents,
        trace_path=trace_path,
    )


@dataclass(frozen=True)
class AgentsResult(RunResult):
    """What ``write_agent_artifacts`` wrote, and the run it wrote."""

    run: AgentRun

    def summary(self) -> str:
        """One line: the agents, their gh commands and requests, the ledger's points."""
        run, spec = self.run, self.run.spec
        return (
            f"agents: {spec.agents} x {spec.profile}, {run.summary.commands} gh commands,"
            f" {run.summary.requests} requests; ledger in window: {run.ledger.spent}"
            f" (graphql {run.points_per_hour('graphql'):.0f}/h)"
        )


def write_agent_artifacts(run: AgentRun, *, seed: int, out_dir: Path) -> AgentsResult:
    """The trace and the scorecard artifact under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"gh-trace-sim-{run.spec.slug}-seed{seed}-{int(run.window_end)}"
    trace_path = write_rows(unique_path(out_dir, stem, ".jsonl"), run.rows)
    artifact = agent_scorecard(run, trace_path=str(trace_path))
    return AgentsResult(trace_path, write_scorecard(artifact, out_dir), artifact, run)


def simulate_agents(spec: RunSpec) -> AgentsResult:
    """``spec``'s sessions' agents alone in virtual time (``AgentRunSpec.of``), written
    under its ``out_dir``."""
    run = run_agents(AgentRunSpec.of(spec), seed=spec.seed)
    return write_agent_artifacts(run, seed=spec.seed, out_dir=spec.out_dir)
