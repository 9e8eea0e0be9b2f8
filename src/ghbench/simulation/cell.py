"""``run_cell``: one runbook cell of the model against the in-process emulator, in memory.

Virtual time throughout: the model's ticks, the scenario's triggers and the
dashboard readers are events on one queue; a call lasts the latency the
emulator's model gives it. With ``--agents`` (S3, S4) the sessions' coding agents
run beside the model (``CellAgents``), on the same token: S3's spawned agents push and
open their PRs themselves, S4's burst PRs' agents answer their reviews; their rows
are kept apart (``CellRun.agent_rows``), as a real run's agents' trace is. The run
writes a fresh AO-schema trace and the scorecard artifact (with ``/rate_limit``
snapshots read in-process at the window's edges, counted as benchmark-control calls)
like ``measure`` does.
Deterministic for a seed: the emulator, the latencies and the scenario draws
all come from ``random.Random(seed)``.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.agents import SPAWN_STAGGER_S, CellAgents
from ghbench.simulation.world import SIM_START, Ledger, SimWorld
from ghbench.trace.schema import TraceRow
from ghbench.workload import calls as ao
from ghbench.workload.agents.profiles import AGENT_PROFILES
from ghbench.workload.config import SessionSpec
from ghbench.workload.pollers import PollerModel, make_poller
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, LaneClock
from ghbench.workload.schedule import Schedule, make_schedule
from ghbench.workload.transport.inprocess import InProcessTransport

__all__ = ["CellRun", "ScenarioPlay", "repos_for", "run_cell"]


@dataclass(frozen=True)
class ScenarioPlay:
    """How the model plays a scenario's events in virtual time: the runbook leaves these
    open, so a comparison with a real run can match them to what that run did."""

    burst_prs: int | None = None  # S4: PRs that get comments (default min(N, 10))
    spawn_spread: float = 300.0  # S3: PRs open over this many seconds
    restart_gap: float = 5.0  # S5: seconds the model is down
    dashboard_refresh: float = 30.0  # S6
    dashboard_click: float = 10.0  # S6
    # S4 with agents: an agent starts on its review within this many seconds of the
    # burst (AO's next poll sees the comments and sends them on; its tick is 30 s)
    agent_reaction: float = 30.0
    # (median ms, sigma) of the calls' lognormal latency; None: the simulation's default
    # (ghbench.simulation.world.SIM_LATENCY, AO's against github.com)
    latency: tuple[float, float] | None = None
    # primary limits other than GitHub's (resource -> points a window), from the start:
    # a budget that runs out, as a real run's emulator was given; each resource's
    # window is GitHub's hour unless ``limit_windows`` gives it another (seconds)
    limits: tuple[tuple[str, int], ...] = ()
    limit_windows: tuple[tuple[str, int], ...] = ()
    # points of a budget already spent when the model starts (resource -> points): a
    # real run's harness reads the open PRs before its window, on the same user's budget
    spent: tuple[tuple[str, int], ...] = ()


def repos_for(topology: str, sessions: int, owner: str = "acme") -> list[str]:
    """The simulation's repos: T1 one, T2 max(2, N/5)."""
    if topology == "T1":
        return [f"{owner}/todo"]
    count = max(2, math.ceil(sessions / 5))
    return [f"{owner}/todo-{i + 1}" for i in range(count)]


@dataclass
class CellRun:
    """The in-memory outcome of one cell, before anything is written."""

    spec: RunSpec
    repos: list[str]
    rows: list[TraceRow]
    window_start: float
    window_end: float
    warmup_start: float
    snapshots: dict[str, RateLimitSnapshot]  # before, after
    ledger: Ledger
    control_calls: int
    ticks: int = 0
    skipped_ticks: int = 0
    tick_durations: list[float] = field(default_factory=list)
    tick_starts: list[float] = field(default_factory=list)
    # the sessions' coding agents' rows (``--agents``); None when no agent ran
    agent_rows: list[TraceRow] | None = None

    @property
    def longest_poll_cycle(self) -> float:
        """Seconds of the longest tick that ran during the window (0.0 with none):
        what AO's limit-finder holds against its 60 s ceiling."""
        ticks = zip(self.tick_starts, self.tick_durations, strict=True)
        return max(
            (d for s, d in ticks if s <= self.window_end and s + d >= self.window_start),
            default=0.0,
        )


class _Events:
    """A time-ordered queue of callables; ties run in the order they were added."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = itertools.count()

    def at(self, when: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._heap, (when, next(self._seq), action))

    def next_time(self) -> float | None:
        return self._heap[0][0] if self._heap else None

    def pop(self) -> tuple[float, Callable[[], None]]:
        when, _, action = heapq.heappop(self._heap)
        return when, action


class _Cell:
    """One cell's world, model, event queue and outcome."""

    def __init__(self, spec: RunSpec, play: ScenarioPlay) -> None:
        self.spec, self.play = spec, play
        self.rng = random.Random(spec.seed)
        self.scenario = spec.cell.info
        self.policy = spec.model_policy()
        self.clock = LaneClock(SIM_START)
        self.world = SimWorld(
            self.clock, seed=self.rng.randrange(2**31), latency=play.latency, budget=spec.budget
        )
        windows = dict(play.limit_windows)
        for resource, limit in play.limits:
            self.world.set_limit(resource, limit, windows.get(resource, 3600))
        for resource, points in play.spent:
            self.world.spend(resource, points)
        sessions = spec.cell.sessions
        self.repos = repos_for(spec.cell.topology, sessions)
        self.sessions = self.world.seed(self.repos, sessions, open_prs=self.scenario.prs_at_start)
        t0 = self.clock.now()
        window_start = t0 + spec.warmup.seconds
        self.rows: list[TraceRow] = []
        self.row_settings = RowSettings(
            session_ids=spec.session_ids, project_id="todo-app", origin="workload"
        )
        self.transport = InProcessTransport(
            self.world.handle, token=self.world.token, rng=random.Random(self.rng.randrange(2**31))
        )
        self.runner = CallRunner(self.transport, self.clock, self.rows.append, self.row_settings)
        initial = () if self.scenario.spawn_at_window_start else tuple(self.sessions)
        self.poller = make_poller(
            self.policy, self.runner, repos=tuple(self.repos), sessions=initial
        )
        self.timer = self._new_schedule()
        self.events = _Events()
        window_end = window_start + spec.duration.seconds
        nothing = Ledger(0, {}, window_start, window_end)  # until the run's is read
        self.run = CellRun(
            spec, self.repos, self.rows, window_start, window_end, t0, {}, nothing, 0
        )
        self.down_until = t0
        self.agents: CellAgents | None = None
        if spec.agent_model is not None:
            # their own random source: a run without agents draws as it always did
            agents_rng = random.Random(self.rng.randrange(2**31))
            params = AGENT_PROFILES[spec.agent_model]
            self.agents = CellAgents(
                self.world, self.transport, params, agents_rng, seen=self._agent_answer
            )
            self.run.agent_rows = self.agents.rows

    def _agent_answer(self, row: TraceRow) -> None:
        """An agent's GraphQL answer, on the orchestrator's budget: a model that prices its
        own GraphQL by the budget's rise (AO 0.10's, as the front meters it) reads it
        too, so the agent's spend is not counted as the orchestrator's."""
        limit, left = row.rateLimitLimit, row.rateLimitRemaining
        if row.rateLimitResource == "graphql" and limit is not None and left is not None:
            self.runner.rows.saw_graphql(limit, row.rateLimitReset, limit - left)

    def _new_schedule(self) -> Schedule:
        p = self.policy
        return make_schedule(p.ticker, p.tick, skip=p.skip_overlapping_ticks)

    # -- triggers --------------------------------------------------------------------

    def schedule(self) -> None:
        sc, run = self.scenario, self.run
        if sc.restart_at_window_start:
            self.events.at(run.window_start, functools.partial(self._restart, 0.0))
        if sc.restart_mid_window:
            mid = run.window_start + self.spec.duration.seconds / 2
            self.events.at(mid, functools.partial(self._restart, self.play.restart_gap))
        if sc.spawn_at_window_start:
            self._schedule_spawn()
        if sc.review_burst:
            self._schedule_burst()
        if sc.dashboard and self.policy.dashboard_reads_github:
            self._schedule_dashboard()
        self.events.at(run.window_start, functools.partial(self._snapshot, "before"))
        self.events.at(run.window_end, functools.partial(self._snapshot, "after"))

    def _restart(self, gap: float) -> None:
        """S1/S5: the process dies and starts again; every cache and ETag is gone."""
        self.poller.restart()
        self.timer = self._new_schedule()  # a new process, a new timer
        self.down_until = self.runner.now() + gap

    def _snapshot(self, name: str) -> None:
        self.run.snapshots[name] = self.world.rate_limit_snapshot()
        self.run.control_calls += 1

    def _schedule_spawn(self) -> None:
        """S3: every session appears at the window start; PRs open over ``spawn_spread``."""
        start = self.run.window_start

        def spawn() -> None:
            for s in self.sessions:
                self.poller.add_session(msgspec.structs.replace(s, pr=None))

        self.events.at(start, spawn)
        idle = self.sessions
        if self.agents is not None:  # each agent works, pushes and opens its PR
            working = self.spec.agent_sessions
            self.agents.spawn(self.sessions[:working], start=start, stagger=SPAWN_STAGGER_S)
            idle = self.sessions[working:]
        for s in idle:
            delay = self.rng.uniform(60.0, 60.0 + self.play.spawn_spread)
            self.events.at(start + delay, functools.partial(self._open_pr, s))

    def _open_pr(self, spec: SessionSpec) -> None:
        self.world.open_pr(spec)

    def _schedule_burst(self) -> None:
        """S4: 5–10 review comments on each of M PRs, all at once."""
        prs = self.play.burst_prs
        count = min(self.spec.cell.sessions, prs if prs is not None else 10)
        plan = [(s, self.rng.randint(5, 10)) for s in self.rng.sample(self.sessions, count)]

        agents = self.agents
        start = self.run.window_start

        working = self.sessions[: self.spec.agent_sessions]
        answered = {id(s) for s in working}

        def burst() -> None:
            for s, n in plan:
                self.world.add_review_comments(s, n)
                if agents is not None and id(s) in answered:
                    at = start + agents.rng.uniform(0.0, self.play.agent_reaction)
                    agents.answer_review(s, n, at)

        if agents is not None:  # each working session's agent is there; a badge polls from t0
            agents.badges(working, self.run.warmup_start)
        self.events.at(start, burst)

    def _schedule_dashboard(self) -> None:
        """S6: a dashboard tab: titles each refresh (5-min issue cache), one PR view per click."""
        reader = CallRunner(self.transport, self.clock, self.rows.append, self.row_settings)
        clicks = itertools.count()
        play, end = self.play, self.run.window_end

        def refresh(when: float) -> None:
            reader.start_at(when)
            for s in list(self.poller.sessions.values()):
                if s.spec.issue is not None:
                    _reader_issue(self.poller, reader, s.repo, s.spec.issue)
            nxt = when + play.dashboard_refresh
            if nxt < end:
                self.events.at(nxt, functools.partial(refresh, nxt))

        def click(when: float) -> None:
            reader.start_at(when)
            live = [s for s in self.poller.sessions.values() if s.pr is not None]
            if live:
                s = live[next(clicks) % len(live)]
                reader.call(ao.dashboard_pr_view(s.repo, s.pr or 0, s.id))
            nxt = when + play.dashboard_click
            if nxt < end:
                self.events.at(nxt, functools.partial(click, nxt))

        start = self.run.window_start
        self.events.at(start, functools.partial(refresh, start))
        self.events.at(start, functools.partial(click, start))

    # -- the loop ----------------------------------------------------------------------

    def execute(self) -> CellRun:
        run, runner, events = self.run, self.runner, self.events
        due = run.warmup_start
        agents = self.agents
        while True:
            ev_time = events.next_time()
            if ev_time is not None and ev_time <= due and ev_time <= run.window_end:
                if agents is not None:
                    agents.run(ev_time)
                when, action = events.pop()
                runner.start_at(when)
                action()
                continue
            if due >= run.window_end:
                break
            if due < self.down_until:  # down: ticks resume on a new schedule
                due = self.down_until
                continue
            if agents is not None:
                agents.run(due)
            runner.start_at(due)
            report = self.poller.tick()
            run.ticks += 1
            run.tick_durations.append(report.duration)
            run.tick_starts.append(report.started_at)
            due, missed = self.timer.after(due, runner.now())
            run.skipped_ticks += missed
        self.rows.sort(key=lambda r: r.timestamp)
        if run.agent_rows is not None:
            run.agent_rows.sort(key=lambda r: r.timestamp)
        run.ledger = self.world.ledger(run.window_start, run.window_end)
        return run


def run_cell(spec: RunSpec, play: ScenarioPlay | None = None) -> CellRun:
    """Run ``spec``'s cell (its seed, profile or policy, durations) in memory; nothing is
    written."""
    cell = _Cell(spec, play or ScenarioPlay())
    cell.schedule()
    return cell.execute()


def _reader_issue(poller: PollerModel, reader: CallRunner, repo: str, number: int) -> None:
    key = (repo, number)
    if poller.issues.get(key, reader.now()) is not None:
        return
    res = reader.call(ao.issue_view(repo, number, component=ao.DASHBOARD_COMPONENT))
    if res.exit_code == 0:
        poller.issues.put(key, True, reader.now())
