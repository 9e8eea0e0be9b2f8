"""``ghbench capacity``'s flow: the workload model in virtual time as the capacity search's
probe, and ``--verify``: the answer and the next count in real time on the emulator.

Each count tried is one ``simulate`` run of the cell (same spec, same seed), reduced to
its budgets (``ghbench.analysis.capacity``): the scorecard in memory plus the longest
poll cycle of the window. So ``ghbench simulate``, run as the ``reproduce`` lines say,
prints the same scorecard figures and poll cycle for any count tried.

``verify_capacity`` runs each of the two counts as a real-time matrix cell (the harness's
setup and measure, the chosen driver, the scenario's trigger) on an emulator of its own
whose calls take the model's latency once setup is done, and the model again at that
run's timing, so the two are compared like for like; ``--verify-scale`` shortens both.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ghbench.analysis.capacity import (
    POLL_CEILING_S,
    CapacityResult,
    Probe,
    VerifiedCount,
    budget_uses,
    find_capacity,
    longest_poll_cycle,
)
from ghbench.analysis.load import load_trace
from ghbench.artifacts.models import ScorecardArtifact, load_scorecard
from ghbench.clock import Clock
from ghbench.harness.flags import RunFlags
from ghbench.matrix.cells import SCENARIOS, TOPOLOGIES, Cell
from ghbench.matrix.hygiene import CellTiming, cell_timing
from ghbench.matrix.realtime import RealtimeBackend
from ghbench.simulation.cell import run_cell
from ghbench.simulation.simulate import cell_scorecard
from ghbench.simulation.world import SIM_LATENCY
from ghbench.timefmt import format_duration, parse_iso
from ghbench.trace.frame import TraceFrame
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName
from ghbench.workload.scenarios import CellSpec

__all__ = ["CapacityCell", "VerifyOptions", "model_probe", "run_capacity", "verify_capacity"]


@dataclass(frozen=True)
class CapacityCell:
    """A scenario and topology at every session count, as the model runs it."""

    scenario: str  # S1..S6
    topology: str  # T1 | T2
    profile: ProfileName = DEFAULT_PROFILE
    seed: int = 0
    warmup_s: float | None = None  # None: the runbook's for the scenario
    duration_s: float | None = None
    ceiling_s: float = POLL_CEILING_S

    @property
    def warmup(self) -> float:
        return SCENARIOS[self.scenario].warmup_s if self.warmup_s is None else self.warmup_s

    @property
    def duration(self) -> float:
        return SCENARIOS[self.scenario].duration_s if self.duration_s is None else self.duration_s

    @property
    def smallest(self) -> int:
        return 2 if self.topology == "T2" else 1  # a spread needs two sessions

    def spec(self, sessions: int) -> CellSpec:
        return CellSpec(
            scenario=self.scenario,
            topology=self.topology,
            sessions=sessions,
            warmup_s=self.warmup,
            duration_s=self.duration,
            profile=self.profile,
        )

    @property
    def title(self) -> str:
        info = SCENARIOS[self.scenario]
        return (
            f"capacity: {self.scenario}-{self.topology} ({info.title.lower()},"
            f" {TOPOLOGIES[self.topology][0]}), profile {self.profile}, seed {self.seed};"
            f" warmup {format_duration(self.warmup)}, window {format_duration(self.duration)}"
        )

    def simulate_command(self, sessions: int) -> str:
        """The ``ghbench simulate`` run that is this cell's probe at ``sessions``."""
        return (
            f"ghbench simulate --scenario {self.scenario} --topology {self.topology}"
            f" --sessions {sessions} --warmup {self.warmup:g}s --duration {self.duration:g}s"
            f" --profile {self.profile} --seed {self.seed}"
        )


def model_probe(cell: CapacityCell) -> Callable[[int], Probe]:
    """``probe(n)``: the cell at n sessions in virtual time, reduced to its budgets."""

    def probe(sessions: int) -> Probe:
        run = run_cell(cell.spec(sessions), seed=cell.seed)
        uses = budget_uses(cell_scorecard(run), run.longest_poll_cycle, cell.ceiling_s)
        return Probe(sessions, uses)

    return probe


def run_capacity(cell: CapacityCell, *, fraction: float, maximum: int) -> CapacityResult:
    return find_capacity(model_probe(cell), fraction=fraction, start=cell.smallest, maximum=maximum)


@dataclass(frozen=True)
class VerifyOptions:
    """``--verify``: how the counts run in real time on the emulator."""

    out_dir: Path  # OUT/verify-{time}: per count, the emulator state, setup and cell
    driver: str = "workload"  # workload | ao
    ao: str | None = None  # --driver ao: the checkout or executable
    transport: str = "http"  # --driver workload
    scale: float = 1.0  # the runbook's warmup, window and (model) poll interval times this


def _timing(cell: CapacityCell, options: VerifyOptions) -> CellTiming:
    """What the real run does (``cell_timing``, as the matrix's real-time cells use it)."""
    return cell_timing(
        Cell(cell.scenario, cell.topology, cell.smallest),
        duration_scale=options.scale,
        scaled_poll=options.driver == "workload",
    )


TICK_MARK = "gh.api.guard-pr-list"  # Guard 1 opens each of AO's ticks (and the model's)


def _traced_probe(
    cell: CapacityCell, artifact: ScorecardArtifact, frame: TraceFrame, poll_s: float
) -> Probe:
    """A run's budgets, its poll cycle read from its trace over the scorecard's window."""
    start, end = artifact.window.start, artifact.window.end
    assert start is not None and end is not None and artifact.session_count is not None
    window = (round(parse_iso(start) * 1000), round(parse_iso(end) * 1000))
    marks = frame.operation.mask(TICK_MARK)
    cycle = longest_poll_cycle(frame.ts_ms, frame.duration_ms, marks, window=window, poll_s=poll_s)
    return Probe(artifact.session_count, budget_uses(artifact, cycle, cell.ceiling_s))


def _model_at(cell: CapacityCell, sessions: int, timing: CellTiming, scale: float) -> Probe:
    """The model at the real run's timing and triggers, its cycle read like the real one's."""
    spec = CellSpec(
        scenario=cell.scenario,
        topology=cell.topology,
        sessions=sessions,
        warmup_s=timing.warmup_s,
        duration_s=timing.window_s,
        profile=cell.profile,
        policy={"tick": timing.tick_s or timing.poll_s},
        burst_prs=math.ceil(sessions / 2),  # the real-time S4's M = ceil(N/2)
        dashboard_refresh=max(1.0, 30.0 * scale),  # the real-time S6 reader's, scaled
        dashboard_click=max(1.0, 10.0 * scale),
    )
    run = run_cell(spec, seed=cell.seed)
    frame = TraceFrame.from_rows(run.rows)
    return _traced_probe(cell, cell_scorecard(run), frame, timing.tick_s or timing.poll_s)


def _real_at(
    cell: CapacityCell,
    sessions: int,
    options: VerifyOptions,
    *,
    timing: CellTiming,
    clock: Clock,
    env: Mapping[str, str],
    log: Callable[[str], None],
) -> Probe:
    """The count as a real-time matrix cell on its own emulator (fresh buckets), whose
    latency is the model's (``SIM_LATENCY``), with the chosen driver."""
    root = options.out_dir / f"sessions-{sessions}"
    flags = RunFlags(
        driver=options.driver,
        github="emulator",
        ao_command=options.ao,
        transport=options.transport,
        profile=cell.profile,
        tick=None if timing.tick_s is None else f"{timing.tick_s:g}s",
    )
    backend = RealtimeBackend(
        name="emulator",
        driver=options.driver,
        state_dir=root / "state" / "emulator",
        clock=clock,
        env=env,
        work_dir=root / "realtime",
        flags=flags,
        duration_scale=options.scale,
        seed=cell.seed,
        log=log,
        window_faults=SIM_LATENCY,
    )
    try:
        arts = backend.run_cell(Cell(cell.scenario, cell.topology, sessions), root / "cell")
    finally:
        backend.close()
    assert arts.scorecard_path is not None
    frame = load_trace(arts.trace_path, ("ts_ms", "duration_ms", "operation"))
    return _traced_probe(
        cell, load_scorecard(arts.scorecard_path), frame, timing.tick_s or timing.poll_s
    )


def verify_capacity(
    cell: CapacityCell,
    result: CapacityResult,
    options: VerifyOptions,
    *,
    clock: Clock,
    env: Mapping[str, str],
    log: Callable[[str], None],
) -> tuple[CellTiming, list[VerifiedCount]]:
    """The answer and the next count, each run in real time and by the model at the
    same timing; both poll cycles are read from the trace (``longest_poll_cycle``: from
    each tick's Guard 1 on), since a real orchestrator records no ticks."""
    timing = _timing(cell, options)
    out = []
    for probe in (result.at, result.next):
        if probe is None:
            continue
        n = probe.sessions
        log(f"verify: {n} session(s) in real time on the emulator ({options.driver} driver)")
        real = _real_at(cell, n, options, timing=timing, clock=clock, env=env, log=log)
        out.append(VerifiedCount(_model_at(cell, n, timing, options.scale), real))
    return timing, out
