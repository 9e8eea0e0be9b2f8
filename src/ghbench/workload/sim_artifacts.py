"""Write a simulated cell's trace and scorecard artifact, as ``measure`` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ghbench.artifacts.io import unique_path, write_new
from ghbench.timefmt import format_duration, iso_s
from ghbench.workload.simulate import CellRun, SimulationResult

__all__ = ["write_cell_artifacts"]


def _snapshot(snap: dict[str, Any] | None) -> dict[str, Any] | None:
    if not snap:
        return None
    out: dict[str, Any] = {"capturedAt": iso_s(snap["capturedAt"])}
    for resource in ("core", "graphql"):
        bucket = snap["resources"].get(resource)
        if bucket:
            out[resource] = {k: bucket[k] for k in ("limit", "remaining", "used")}
    return out


def write_cell_artifacts(run: CellRun, *, seed: int, out_dir: Path) -> SimulationResult:
    from ghbench.scorecard import build_scorecard_artifact, write_scorecard
    from ghbench.trace.frame import TraceFrame

    spec = run.spec
    stamp = int(run.window_end)
    trace_path = unique_path(out_dir, f"gh-trace-sim-{spec.slug}-seed{seed}-{stamp}", ".jsonl")
    encoder = msgspec.json.Encoder()
    write_new(trace_path, b"".join(encoder.encode(r) + b"\n" for r in run.rows))
    frame = TraceFrame.from_rows(run.rows)
    snapshots = {
        "before": _snapshot(run.snapshots.get("before")),
        "after": _snapshot(run.snapshots.get("after")),
    }
    artifact = build_scorecard_artifact(
        frame,
        window_start_ms=round(run.window_start * 1000),
        window_end_ms=round(run.window_end * 1000),
        scenario_id=spec.scenario_id,
        session_count=spec.sessions,
        warmup_requested=format_duration(spec.warmup_s),
        duration_requested=format_duration(spec.duration_s),
        rate_limit_snapshots=snapshots,
        benchmark_control_calls=run.control_calls,
        trace_path=str(trace_path),
    )
    path = write_scorecard(artifact, out_dir)
    return SimulationResult(
        trace_path=trace_path,
        scorecard_artifact_path=path,
        scorecard=artifact,
        ledger=run.ledger,
        ticks=run.ticks,
        skipped_ticks=run.skipped_ticks,
    )
