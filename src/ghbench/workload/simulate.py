"""``simulate_cell``: one runbook cell of the model against the in-process emulator.

Virtual time throughout: the model's ticks, the scenario's triggers and the
dashboard readers are events on one queue; a call lasts the latency the
emulator's model gives it. The run writes a fresh AO-schema trace and the
scorecard artifact (with ``/rate_limit`` snapshots read in-process at the
window's edges, counted as benchmark-control calls) like ``measure`` does.
Deterministic for a seed: the emulator, the latencies and the scenario draws
all come from ``random.Random(seed)``.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ghbench.clock import VirtualClock
from ghbench.trace.schema import TraceRow
from ghbench.workload import calls as ao
from ghbench.workload.config import SessionSpec
from ghbench.workload.poller import Poller
from ghbench.workload.process import next_tick_after
from ghbench.workload.profiles import PROFILES, PolicyParams
from ghbench.workload.rows import RowOptions
from ghbench.workload.runner import CallRunner
from ghbench.workload.scenarios import CellSpec, repos_for
from ghbench.workload.sim_world import SimWorld
from ghbench.workload.transport.inprocess import InProcessTransport

__all__ = ["SimulationResult", "run_cell", "simulate_cell"]

# 2026-04-17T09:05:00Z: inside an hour, like the runbook's hygiene asks
SIM_START = 1_776_416_700.0


@dataclass
class CellRun:
    """The in-memory outcome of one cell, before anything is written."""

    spec: CellSpec
    rows: list[TraceRow]
    window_start: float
    window_end: float
    warmup_start: float
    snapshots: dict[str, Any]
    ledger: dict[str, Any]
    control_calls: int
    ticks: int = 0
    skipped_ticks: int = 0
    tick_durations: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class SimulationResult:
    """What ``simulate_cell`` wrote and computed."""

    trace_path: Path
    scorecard_artifact_path: Path
    scorecard: Any
    ledger: dict[str, Any]
    ticks: int
    skipped_ticks: int


def _policy(spec: CellSpec) -> PolicyParams:
    base = PROFILES[spec.profile]
    if not spec.policy:
        return base
    from ghbench.workload.config import _resolve_policy

    return _resolve_policy("cell policy", spec.profile, dict(spec.policy))


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


def run_cell(spec: CellSpec, *, seed: int) -> CellRun:
    """Run one cell in memory; nothing is written."""
    rng = random.Random(seed)
    scenario = spec.scenario_def
    policy = _policy(spec)
    clock = VirtualClock(SIM_START)
    world = SimWorld(clock, seed=rng.randrange(2**31))
    repos = repos_for(spec.topology, spec.sessions)
    sessions = world.seed(repos, spec.sessions, open_prs=scenario.prs_at_start)
    t0 = clock.now()
    window_start = t0 + spec.warmup_s
    window_end = window_start + spec.duration_s

    rows: list[TraceRow] = []
    options = RowOptions(session_ids=spec.session_ids, project_id="todo-app", origin="workload")
    transport = InProcessTransport(
        world.handle, token=world.token, rng=random.Random(rng.randrange(2**31))
    )
    runner = CallRunner(transport, clock, rows.append, options)
    initial = () if scenario.spawn_at_window_start else tuple(sessions)
    poller = Poller(policy, runner, repos=tuple(repos), sessions=initial)
    events = _Events()
    run = CellRun(spec, rows, window_start, window_end, t0, {}, {}, 0)
    down_until = [t0]

    def restart(gap: float) -> Callable[[], None]:
        def action() -> None:
            poller.restart()
            down_until[0] = runner.now() + gap

        return action

    if scenario.restart_at_window_start:
        events.at(window_start, restart(0.0))
    if scenario.restart_mid_window:
        events.at(window_start + spec.duration_s / 2, restart(spec.restart_gap))
    if scenario.spawn_at_window_start:
        _schedule_spawn(events, world, poller, sessions, window_start, spec, rng)
    if scenario.review_burst:
        _schedule_burst(events, world, sessions, window_start, spec, rng)
    if scenario.dashboard:
        _schedule_dashboard(events, world, poller, transport, clock, rows, options, spec, t0)

    def snapshot(name: str) -> Callable[[], None]:
        def action() -> None:
            run.snapshots[name] = world.rate_limit_snapshot()
            run.control_calls += 1

        return action

    events.at(window_start, snapshot("before"))
    events.at(window_end, snapshot("after"))

    due = t0
    while True:
        ev_time = events.next_time()
        if ev_time is not None and ev_time <= due and ev_time <= window_end:
            when, action = events.pop()
            runner.start_at(when)
            action()
            continue
        if due >= window_end:
            break
        if due < down_until[0]:  # the process is down: its ticks restart on the new schedule
            due = down_until[0]
            continue
        runner.start_at(due)
        report = poller.tick()
        run.ticks += 1
        run.tick_durations.append(report.duration)
        due, missed = next_tick_after(
            due, runner.now(), policy.tick, skip=policy.skip_overlapping_ticks
        )
        run.skipped_ticks += missed
    rows.sort(key=lambda r: r.timestamp)
    run.ledger = world.ledger_summary(window_start, window_end)
    return run


def _schedule_spawn(
    events: _Events,
    world: SimWorld,
    poller: Poller,
    sessions: list[SessionSpec],
    start: float,
    spec: CellSpec,
    rng: random.Random,
) -> None:
    """S3: every session appears at ``start``; PRs open over ``spawn_spread``."""

    def spawn() -> None:
        for s in sessions:
            poller.add_session(msgspec.structs.replace(s, pr=None))

    events.at(start, spawn)
    for s in sessions:
        delay = rng.uniform(60.0, 60.0 + spec.spawn_spread)
        events.at(start + delay, lambda s=s: world.open_pr(s))


def _schedule_burst(
    events: _Events,
    world: SimWorld,
    sessions: list[SessionSpec],
    start: float,
    spec: CellSpec,
    rng: random.Random,
) -> None:
    """S4: 5–10 review comments on each of M PRs, all at once."""
    count = min(spec.sessions, spec.burst_prs if spec.burst_prs is not None else 10)
    chosen = rng.sample(sessions, count)
    plan = [(s, rng.randint(5, 10)) for s in chosen]

    def burst() -> None:
        for s, n in plan:
            world.add_review_comments(s, n)

    events.at(start, burst)


def _schedule_dashboard(
    events: _Events,
    world: SimWorld,
    poller: Poller,
    transport: InProcessTransport,
    clock: VirtualClock,
    rows: list[TraceRow],
    options: RowOptions,
    spec: CellSpec,
    t0: float,
) -> None:
    """S6: a dashboard tab: titles each refresh (5-min issue cache), one PR view per click."""
    reader = CallRunner(transport, clock, rows.append, options)
    clicks = itertools.count()
    end = t0 + spec.warmup_s + spec.duration_s

    def refresh(when: float) -> Callable[[], None]:
        def action() -> None:
            reader.start_at(when)
            for s in list(poller.sessions.values()):
                if s.spec.issue is not None:
                    _reader_issue(poller, reader, s.repo, s.spec.issue)
            if when + spec.dashboard_refresh < end:
                events.at(when + spec.dashboard_refresh, refresh(when + spec.dashboard_refresh))

        return action

    def click(when: float) -> Callable[[], None]:
        def action() -> None:
            reader.start_at(when)
            live = [s for s in poller.sessions.values() if s.pr is not None]
            if live:
                s = live[next(clicks) % len(live)]
                assert s.pr is not None
                reader.call(
                    ao.GhCall(
                        (
                            "pr",
                            "view",
                            str(s.pr),
                            "--repo",
                            s.repo,
                            "--json",
                            "number,state,title,reviewDecision,mergeable",
                        ),
                        ao.DASHBOARD_COMPONENT,
                        session_id=s.id,
                    )
                )
            if when + spec.dashboard_click < end:
                events.at(when + spec.dashboard_click, click(when + spec.dashboard_click))

        return action

    start = t0 + spec.warmup_s
    events.at(start, refresh(start))
    events.at(start, click(start))


def _reader_issue(poller: Poller, reader: CallRunner, repo: str, number: int) -> None:
    key = (repo, number)
    if poller.issues.get(key, reader.now()) is not None:
        return
    res = reader.call(ao.issue_view(repo, number, component=ao.DASHBOARD_COMPONENT))
    if res.exit_code == 0:
        poller.issues.put(key, True, reader.now())


def simulate_cell(spec: CellSpec, *, seed: int, out_dir: Path) -> SimulationResult:
    """Run a cell and write its trace and scorecard artifact under ``out_dir``."""
    from ghbench.workload.sim_artifacts import write_cell_artifacts

    run = run_cell(spec, seed=seed)
    return write_cell_artifacts(run, seed=seed, out_dir=Path(out_dir))
