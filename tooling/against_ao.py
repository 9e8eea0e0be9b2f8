"""The model beside the real AO builds: one reduction of a window for both sides.

A real-AO run (``ghbench setup`` + ``measure``, recorded by
``bench/bench_calibration_ao.py`` as a ``RealRun``) and a model run (``run_cell``) each
end in a scorecard artifact and the trace rows of the window. ``window_digest`` keeps
what the comparison needs from the rows (calls per operation and HTTP status, the
start of every poll tick), ``figures_of`` reduces a scorecard and its digest to the
figures of docs/calibration.md, ``relative_errors`` holds a profile's figures to the
build it reproduces, and ``calibration_section`` renders it all. Nothing here reads
files or the clock.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.simulation.cell import CellRun, ScenarioPlay, run_cell
from ghbench.simulation.simulate import cell_scorecard
from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow
from ghbench.workload.profiles import canonical_profile

__all__ = [
    "COMPARED",
    "RESULTS_VERSION",
    "CalibrationResults",
    "Figures",
    "RealRun",
    "WindowDigest",
    "figures_of",
    "measured_latency",
    "model_run",
    "refused",
    "relative_errors",
    "spent_before",
    "window_digest",
]

# The poller's first call of every tick: one per repo a tick (S2 is one repo), so the
# gaps between its rows are the poll cycle.
TICK_MARKER = "gh.api.guard-pr-list"


class WindowDigest(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """What a window's rows say beyond the scorecard: calls per operation and status
    (``"opaque"`` for a call without one) and the poll ticks' start times; and, when a
    budget ran out, the calls from its first refusal on (``exhausted_at``: seconds after
    the window's start; ``after_exhaustion``: per operation and status; ``refused``: the
    calls a budget refused, per operation)."""

    operations: dict[str, dict[str, int]]
    tick_starts: list[float]
    exhausted_at: float | None = None
    after_exhaustion: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    refused: dict[str, int] = msgspec.field(default_factory=dict)


def refused(row: TraceRow) -> bool:
    """A call its budget refused: the row says so (``rateLimited``: the front and the
    model classify every answer alike, ``ghbench.trace.limits``); a row written before
    they did (the real runs kept in docs/calibration-ao.json) is judged from what it
    holds: a 403 or 429 with none of the budget left, or a GraphQL answer with none left
    that the budget's rise does not price (GitHub's 200 with a ``RATE_LIMITED`` error
    raises nothing, so the front then fell back on the formula and marked the cost
    estimated)."""
    if row.rateLimited is not None:
        return row.rateLimited == "primary"
    if row.rateLimitRemaining != 0:
        return False
    if row.httpStatus in (403, 429):
        return True
    unpriced = row.graphqlCost == 0 or bool(row.graphqlCostEstimated)
    return row.httpStatus == 200 and row.rateLimitResource == "graphql" and unpriced


def _by_status(rows: Iterable[TraceRow]) -> dict[str, dict[str, int]]:
    counts: dict[str, Counter[str]] = {}
    for row in rows:
        status = str(row.httpStatus) if row.httpStatus is not None else "opaque"
        counts.setdefault(row.operation or "(none)", Counter())[status] += 1
    return {op: dict(sorted(c.items())) for op, c in sorted(counts.items())}


def window_digest(rows: Iterable[TraceRow], window_start: float, window_end: float) -> WindowDigest:
    inside = [
        (end, row)
        for row in rows
        if window_start <= (end := parse_iso(row.timestamp)) <= window_end
    ]
    # the timestamp is the call's end: a tick's first call's start is the tick's
    ticks = [
        end - (r.durationMs or 0.0) / 1000.0 for end, r in inside if r.operation == TICK_MARKER
    ]
    first = min((end for end, row in inside if refused(row)), default=None)
    after = [row for end, row in inside if first is not None and end >= first]
    return WindowDigest(
        operations=_by_status(row for _, row in inside),
        tick_starts=sorted(ticks),
        exhausted_at=None if first is None else first - window_start,
        after_exhaustion=_by_status(after),
        refused=dict(sorted(Counter(r.operation or "(none)" for r in after if refused(r)).items())),
    )


@dataclass(frozen=True)
class Figures:
    """One window's figures (exact, not AO's rounding)."""

    calls_per_min: float
    graphql_points_per_hr: float
    core_requests_per_hr: float  # the per-row burn (the spec's restCoreRequestsPerHr)
    core_consumed_per_hr: float  # insights.consumption.core: the burn plus first calls
    graphql_consumed_per_hr: float
    guard_pr_list_304_rate: float  # NaN: no guard row in the window
    batch_count: float  # a model side's is a mean over seeds
    poll_cycle_s: float  # mean gap between tick starts; NaN with fewer than two ticks


# the figures compared between a profile and its build, with their table headings
COMPARED: tuple[tuple[str, str], ...] = (
    ("calls_per_min", "calls/min"),
    ("graphql_points_per_hr", "GraphQL pts/hr"),
    ("core_requests_per_hr", "core req/hr"),
    ("guard_pr_list_304_rate", "pr-list 304 rate"),
    ("batch_count", "batches"),
    ("poll_cycle_s", "cycle s"),
)


def figures_of(card: Mapping[str, Any], digest: WindowDigest) -> Figures:
    """The figures of a scorecard artifact (as JSON) and its window's digest."""
    insights = card["insights"]
    exact = insights["exact"]
    consumption = insights["consumption"]
    ticks = digest.tick_starts
    cycle = (ticks[-1] - ticks[0]) / (len(ticks) - 1) if len(ticks) > 1 else math.nan
    rate = exact.get("guardPrList304Rate")
    return Figures(
        calls_per_min=float(exact["callsPerMin"]),
        graphql_points_per_hr=float(exact["graphqlPointsPerHr"]),
        core_requests_per_hr=float(exact["restCoreRequestsPerHr"]),
        core_consumed_per_hr=_per_hr(consumption.get("core")),
        graphql_consumed_per_hr=_per_hr(consumption.get("graphql")),
        guard_pr_list_304_rate=math.nan if rate is None else float(rate),
        batch_count=float(card["scorecard"]["graphqlBatchCount"]),
        poll_cycle_s=cycle,
    )


def _per_hr(entry: Mapping[str, Any] | None) -> float:
    if not entry or entry.get("perHr") is None:
        return math.nan
    return float(entry["perHr"])


def relative_errors(model: Figures, real: Figures) -> dict[str, float]:
    """(model - real) / real per compared figure; 0 when both are 0, inf when only the
    real one is 0, NaN when either is undefined."""
    out = {}
    for name, _ in COMPARED:
        m, r = float(getattr(model, name)), float(getattr(real, name))
        if math.isnan(m) or math.isnan(r):
            out[name] = math.nan
        elif r == 0:
            out[name] = 0.0 if m == 0 else math.inf
        else:
            out[name] = (m - r) / r
    return out


# z of the 99th percentile of a normal distribution: a lognormal's p99 / p50 = exp(z σ)
_Z99 = 2.3263


def measured_latency(card: Mapping[str, Any]) -> tuple[float, float]:
    """(median ms, sigma) of a lognormal with a scorecard's p50 and p99 call durations:
    the latency a model run uses to stand where its real run stood."""
    spec = card["scorecard"]
    p50 = max(float(spec["p50DurationMs"]), 1.0)
    p99 = max(float(spec["p99DurationMs"]), p50)
    return p50, min(math.log(p99 / p50) / _Z99, 3.0)


def model_run(
    profile: str,
    sessions: int,
    *,
    warmup_s: float,
    duration_s: float,
    seed: int = 0,
    latency: tuple[float, float] | None = None,
    limits: Mapping[str, int] | None = None,
    limit_windows: Mapping[str, int] | None = None,
    spent: Mapping[str, int] | None = None,
) -> tuple[dict[str, Any], WindowDigest, CellRun]:
    """The model's S2-T1 cell with the real run's sessions, warmup, window and (with
    ``latency``) call latency, and the budgets its emulator had (``limits``: points a
    window; ``limit_windows``: a resource's window in seconds, else an hour; ``spent``:
    what of them was gone when its window opened): its scorecard (as JSON) and window
    digest, reduced exactly as a real run's are."""
    spec = RunSpec(
        backend="simulated",
        cell=Cell("S2", "T1", sessions),
        warmup=Duration.of(warmup_s),
        duration=Duration.of(duration_s),
        profile=canonical_profile(profile),
        seed=seed,
    )
    play = ScenarioPlay(
        latency=latency,
        limits=tuple(sorted((limits or {}).items())),
        limit_windows=tuple(sorted((limit_windows or {}).items())),
        spent=tuple(sorted((spent or {}).items())),
    )
    run = run_cell(spec, play)
    card = msgspec.to_builtins(cell_scorecard(run))
    return card, window_digest(run.rows, run.window_start, run.window_end), run


def spent_before(run: RealRun) -> dict[str, int]:
    """What of each budget a run limited was gone when its window opened (its harness
    reads the open PRs first, on the same user's budget): its first snapshot's ``used``."""
    before = (run.scorecard.get("rateLimitSnapshots") or {}).get("before") or {}
    return {r: int(before[r]["used"]) for r in run.limits if (before.get(r) or {}).get("used")}


RESULTS_VERSION = 1


class RealRun(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One real-AO run of the calibration: what was run, how long it took, the machine's
    load (1, 5 and 15 min averages) around it, its scorecard artifact and window digest."""

    build: str  # main, bench (../shared/ao's build-ao)
    ao_commit: str
    sessions: int
    warmup: str
    duration: str
    warmup_seconds: float
    duration_seconds: float
    setup_seconds: float
    measure_seconds: float
    load_before_setup: str
    load_before_measure: str
    load_after: str
    scorecard: dict[str, Any]
    digest: WindowDigest
    # budgets the run's emulator had in its window instead of GitHub's (resource ->
    # points a window): a run in which one runs out; empty for GitHub's
    limits: dict[str, int] = msgspec.field(default_factory=dict)
    # a limited resource's window in seconds, when it is not GitHub's hour (a window
    # that resets within the run)
    limit_windows: dict[str, int] = msgspec.field(default_factory=dict)


class CalibrationResults(msgspec.Struct, frozen=True, kw_only=True):
    """docs/calibration-ao.json: the real runs, one per build and size. Unknown fields
    are ignored; a newer ``version`` is refused by the reader."""

    version: int = RESULTS_VERSION
    runs: list[RealRun] = msgspec.field(default_factory=list)
