"""The model's quiet-steady figures next to AO's measured ones (reference §5 "Measured").

``calibrate`` runs S2-T1-N in virtual time and reduces each run to the figures
AO's notes report: calls a minute, GraphQL points an hour (from the emulator's
ledger, the ground truth), the guard 304 rate, the poll-cycle length and the
call-duration percentiles. ``markdown_table`` renders the comparison.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.simulation.cell import CellRun, run_cell
from ghbench.timefmt import parse_iso
from ghbench.workload.profiles import ProfileName

__all__ = ["AO_MEASURED", "CalibrationPoint", "calibrate", "markdown_table", "reduce_run"]

# DISCUSSION-NOTES post-B1 (bench-era code), reference §5: sessions -> (calls/min,
# GraphQL pts/hr, cycle s, p99 ms). "Placeholders" in the source, and they say so.
AO_MEASURED: dict[int, tuple[float, float, float, float]] = {
    5: (16.7, 260, 30, 1261),
    10: (31.3, 640, 30, 2509),
    20: (60.7, 680, 30, 3052),
    30: (57.1, 900, 53, 5437),
    40: (72.9, 1140, 58, 5147),
    50: (89.2, 1400, 66, 9684),
}


@dataclass(frozen=True)
class CalibrationPoint:
    sessions: int
    profile: ProfileName
    calls_per_min: float
    graphql_points_per_hr: float
    core_points_per_hr: float
    guard_304_rate: float
    cycle_s: float  # mean time between tick starts in the window
    tick_duration_s: float  # mean time a tick takes
    p50_ms: float
    p99_ms: float


def reduce_run(run: CellRun, profile: ProfileName) -> CalibrationPoint:
    lo, hi = run.window_start, run.window_end
    rows = [r for r in run.rows if lo <= parse_iso(r.timestamp) <= hi]
    minutes = (hi - lo) / 60.0
    guards = [r for r in rows if r.operation and r.operation.startswith("gh.api.guard-")]
    g304 = sum(1 for r in guards if r.httpStatus == 304)
    durations = np.array([r.durationMs or 0.0 for r in rows], dtype=np.float64)
    points = run.ledger.points
    hours = (hi - lo) / 3600.0
    starts = run.tick_starts
    in_window = [t for t in starts if lo <= t <= hi]
    cycle = float(np.mean(np.diff(in_window))) if len(in_window) > 1 else float("nan")
    return CalibrationPoint(
        sessions=run.spec.cell.sessions,
        profile=profile,
        calls_per_min=len(rows) / minutes,
        graphql_points_per_hr=points.get("graphql", 0) / hours,
        core_points_per_hr=points.get("core", 0) / hours,
        guard_304_rate=g304 / len(guards) if guards else float("nan"),
        cycle_s=cycle,
        tick_duration_s=float(np.mean(run.tick_durations)) if run.tick_durations else 0.0,
        p50_ms=float(np.percentile(durations, 50)) if len(durations) else float("nan"),
        p99_ms=float(np.percentile(durations, 99)) if len(durations) else float("nan"),
    )


def calibrate(
    sessions: Sequence[int] = (5, 10, 20, 30, 40, 50),
    *,
    profile: ProfileName = "bench-era",
    seed: int = 0,
    warmup_s: float = 120.0,
    duration_s: float = 900.0,
) -> list[CalibrationPoint]:
    out = []
    for n in sessions:
        spec = RunSpec(
            backend="simulated",
            cell=Cell("S2", "T1", n),
            warmup=Duration.of(warmup_s),
            duration=Duration.of(duration_s),
            profile=profile,
            seed=seed,
        )
        out.append(reduce_run(run_cell(spec), profile))
    return out


def markdown_table(points: Sequence[CalibrationPoint]) -> str:
    """One row per (profile, sessions); AO's figure beside the model's where AO has one."""
    head = (
        "| profile | N | calls/min (model / AO) | GraphQL pts/hr (model / AO) "
        "| core pts/hr | guard 304 rate | cycle s (model / AO) | tick s "
        "| p50 ms | p99 ms (model / AO) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for p in points:
        # AO's figures were taken on bench-era code; other profiles get no AO column
        ao = AO_MEASURED.get(p.sessions) if p.profile == "bench-era" else None
        a_calls, a_gql, a_cycle, a_p99 = ao if ao else (float("nan"),) * 4
        lines.append(
            f"| {p.profile} | {p.sessions} | {p.calls_per_min:.1f} / {_ao(a_calls)} "
            f"| {p.graphql_points_per_hr:.0f} / {_ao(a_gql)} | {p.core_points_per_hr:.0f} "
            f"| {p.guard_304_rate:.0%} | {p.cycle_s:.0f} / {_ao(a_cycle)} "
            f"| {p.tick_duration_s:.1f} | {p.p50_ms:.0f} | {p.p99_ms:.0f} / {_ao(a_p99)} |"
        )
    return head + "\n".join(lines) + "\n"


def _ao(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:g}"  # NaN: AO has no figure
