"""``simulate_cell``: run a cell and write its trace and scorecard artifact, as ``measure`` does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.scorecard import Snapshots, build_scorecard_artifact, write_scorecard
from ghbench.simulation.cell import CellRun, run_cell
from ghbench.timefmt import format_duration
from ghbench.trace.frame import TraceFrame
from ghbench.workload.scenarios import CellSpec

__all__ = ["SimulationResult", "cell_scorecard", "simulate_cell", "write_cell_artifacts"]


@dataclass(frozen=True)
class SimulationResult:
    """What ``simulate_cell`` wrote and computed."""

    trace_path: Path
    scorecard_artifact_path: Path
    scorecard: ScorecardArtifact
    ledger: dict[str, Any]
    ticks: int
    skipped_ticks: int
    longest_poll_cycle: float = 0.0


def cell_scorecard(run: CellRun, *, trace_path: str | None = None) -> ScorecardArtifact:
    """The scorecard of a cell run in memory, as ``write_cell_artifacts`` writes it."""
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
        control_calls=run.control_calls,
        session_count=spec.sessions,
        trace_path=trace_path,
    )


def write_cell_artifacts(run: CellRun, *, seed: int, out_dir: Path) -> SimulationResult:
    spec = run.spec
    stamp = int(run.window_end)
    out_dir.mkdir(parents=True, exist_ok=True)
    trace_path = unique_path(out_dir, f"gh-trace-sim-{spec.slug}-seed{seed}-{stamp}", ".jsonl")
    encoder = msgspec.json.Encoder()
    write_new(trace_path, b"".join(encoder.encode(r) + b"\n" for r in run.rows))
    artifact = cell_scorecard(run, trace_path=str(trace_path))
    path = write_scorecard(artifact, out_dir)
    return SimulationResult(
        trace_path=trace_path,
        scorecard_artifact_path=path,
        scorecard=artifact,
        ledger=run.ledger,
        ticks=run.ticks,
        skipped_ticks=run.skipped_ticks,
        longest_poll_cycle=run.longest_poll_cycle,
    )


def simulate_cell(spec: CellSpec, *, seed: int, out_dir: Path) -> SimulationResult:
    """Run a cell and write its trace and scorecard artifact under ``out_dir``."""
    run = run_cell(spec, seed=seed)
    return write_cell_artifacts(run, seed=seed, out_dir=Path(out_dir))
