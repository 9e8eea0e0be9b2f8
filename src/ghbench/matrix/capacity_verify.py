"""``capacity --verify``: the answer and the next count in real time on the emulator,
each beside the model at the same timing.

``verify_capacity`` runs each of the two counts as a real-time matrix cell (the harness's
setup and measure, the chosen driver, the scenario's trigger) on an emulator of its own
whose calls take the model's latency once setup is done, and the model again at that
run's timing, so the two are compared like for like; ``--duration-scale`` shortens both.
A real orchestrator records no ticks, so both poll cycles are read from the trace (from
each tick's Guard 1 on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ghbench.analysis.capacity import CapacityResult, Probe, VerifiedCount, traced_probe
from ghbench.analysis.capacity_render import verify_json, verify_text
from ghbench.analysis.load import load_trace
from ghbench.clock import Clock
from ghbench.matrix.hygiene import CellTiming, cell_timing, run_timing
from ghbench.matrix.realtime import RealtimeCells
from ghbench.matrix.runner import cell_spec
from ghbench.runspec.cells import Cell
from ghbench.runspec.flags import takes
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.simulation.cell import ScenarioPlay, run_cell
from ghbench.simulation.simulate import cell_scorecard
from ghbench.simulation.world import SIM_LATENCY
from ghbench.timefmt import format_duration
from ghbench.trace.frame import TraceFrame

__all__ = [
    "Verification",
    "at_sessions",
    "smallest_sessions",
    "verify_capacity",
]

Log = Callable[[str], None]


def smallest_sessions(spec: RunSpec) -> int:
    """The fewest sessions the cell's topology holds (a spread needs two)."""
    return spec.cell.layout.min_sessions


def at_sessions(spec: RunSpec, sessions: int) -> RunSpec:
    """``spec`` with its cell at ``sessions``."""
    cell = spec.cell
    return msgspec.structs.replace(spec, cell=Cell(cell.scenario, cell.topology, sessions))


@dataclass(frozen=True)
class Verification:
    """What ``--verify`` ran and found: the timing both sides ran at, each count's model
    and real probes, and where the real runs' artifacts are."""

    spec: RunSpec
    fraction: float
    timing: CellTiming
    counts: list[VerifiedCount]
    artifacts: Path

    @property
    def poll_s(self) -> float:
        return self.timing.tick_s or self.timing.poll_s

    def json(self) -> dict[str, Any]:
        timing = self.timing
        return {
            **verify_json(self.counts, self.fraction),
            "scale": self.spec.duration_scale,
            "driver": self.spec.driver,
            "warmupSeconds": timing.warmup_s,
            "windowSeconds": timing.window_s,
            "pollSeconds": self.poll_s,
            "artifacts": str(self.artifacts),
        }

    def text(self) -> str:
        spec, timing, poll = self.spec, self.timing, self.poll_s
        over = f" over {spec.transport}" if takes("transport", spec.driver, spec.backend) else ""
        how = (
            f"real time on the emulator ({spec.driver} driver{over};"
            f" warmup {format_duration(timing.warmup_s)}, window"
            f" {format_duration(timing.window_s)}, poll {poll:g} s; the model's latency),"
            " against the model at the same timing; poll cycles read from each trace (each"
            " tick from its Guard 1 on)"
        )
        text = verify_text(self.counts, self.fraction, how=how)
        scale = spec.duration_scale
        if scale != 1.0 and timing.tick_s is not None:
            text += (
                f"  note: at ×{scale:g} the model polls every {poll:g} s, not every 30 s, so"
                " the per-hour figures are far above the full timing's: these verdicts test"
                " the\n  model's calls against real ones, not the count found;"
                " --duration-scale 1 (the default) runs the runbook's timing\n"
            )
        return text + f"  artifacts: {self.artifacts}\n"


def _timing(spec: RunSpec) -> CellTiming:
    """What the real run does (``cell_timing``, as the matrix's real-time cells use it)."""
    return cell_timing(
        at_sessions(spec, smallest_sessions(spec)).cell,
        duration_scale=spec.duration_scale,
        scaled_poll=takes("tick", spec.driver, "emulator"),
    )


def _model_at(spec: RunSpec, sessions: int, timing: CellTiming, ceiling_s: float) -> Probe:
    """The model at the real run's timing and triggers, its cycle read like the real one's."""
    poll = timing.tick_s or timing.poll_s
    scale = spec.duration_scale
    model = msgspec.structs.replace(
        at_sessions(spec, sessions),
        backend="simulated",
        warmup=Duration.of(timing.warmup_s),
        duration=Duration.of(timing.window_s),
        tick=Duration(poll, f"{poll:g}s"),
    )
    play = ScenarioPlay(
        burst_prs=math.ceil(sessions / 2),  # the real-time S4's M = ceil(N/2)
        dashboard_refresh=max(1.0, 30.0 * scale),  # the real-time S6 reader's, scaled
        dashboard_click=max(1.0, 10.0 * scale),
    )
    run = run_cell(model, play)
    frame = TraceFrame.from_rows(run.rows)
    return traced_probe(cell_scorecard(run), frame, poll, ceiling_s)


def _real_at(  # noqa: PLR0917 - private, called once
    spec: RunSpec,
    sessions: int,
    root: Path,
    timing: CellTiming,
    ceiling_s: float,
    clock: Clock,
    env: Mapping[str, str],
    log: Log,
) -> Probe:
    """The count as a real-time matrix cell on its own emulator (fresh buckets), whose
    latency is the model's (``SIM_LATENCY``), with the chosen driver."""
    real = msgspec.structs.replace(spec, backend="emulator", poll_interval=Duration(1.0, "1s"))
    cell = at_sessions(spec, sessions).cell
    runner = RealtimeCells(
        spec=real,
        state_dir=root / "state" / "emulator",
        work_dir=root / "realtime",
        clock=clock,
        env=env,
        log=log,
        window_faults=SIM_LATENCY,
    )
    try:
        result = runner.run_cell(cell_spec(real, cell, run_timing(real, cell), root / "cell"))
    finally:
        runner.close()
    frame = load_trace(result.trace_path, ("ts_ms", "duration_ms", "operation"))
    return traced_probe(result.scorecard, frame, timing.tick_s or timing.poll_s, ceiling_s)


def verify_capacity(
    spec: RunSpec,
    result: CapacityResult,
    where: Path,
    *,
    ceiling_s: float,
    clock: Clock,
    env: Mapping[str, str],
    log: Log,
) -> Verification:
    """The answer and the next count, each run in real time (``spec``'s driver, its
    ``duration_scale``) under ``where`` and by the model at the same timing."""
    timing = _timing(spec)
    counts = []
    for probe in (result.at, result.next):
        if probe is None:
            continue
        n = probe.sessions
        log(f"verify: {n} session(s) in real time on the emulator ({spec.driver} driver)")
        real = _real_at(spec, n, where / f"sessions-{n}", timing, ceiling_s, clock, env, log)
        counts.append(VerifiedCount(_model_at(spec, n, timing, ceiling_s), real))
    return Verification(spec, result.fraction, timing, counts, where)
