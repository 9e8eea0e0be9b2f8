"""The spec's ``scorecard`` object with AO's values, and ghbench's exact figures beside it.

Every function here takes the rows already filtered to the window (see ``window.py``).

``compute_scorecard`` gives each spec field the value AO's own harness
(``experiments/benchmark.mjs``) writes for the same rows, so a ghbench scorecard
compares with the scorecards users already have: AO's rounding (``jsround``: calls/min
to 0.1, per-hour figures and percentiles to integers, the 304 rate to 0.001, the opaque
share to 0.01), AO's order of operations, AO's defaults (0 where there is no data) and
AO's fallback (per-row burn needs two header rows; else a positive bracket delta).
``compute_exact`` keeps the same figures unrounded, None where nothing was measured,
for ``insights.exact``.
"""

from __future__ import annotations

import numpy as np

from ghbench.artifacts.models import (
    BracketDelta,
    ExactFigures,
    RateLimitSnapshots,
    ResourceWindow,
    ResourceWindows,
    Scorecard,
    SnapshotBucket,
)
from ghbench.scorecard.burn import ResourceBurn
from ghbench.scorecard.jsround import math_round, to_fixed
from ghbench.scorecard.percentile import percentiles
from ghbench.scorecard.window import MeasureWindow
from ghbench.timefmt import iso_ms, iso_s
from ghbench.trace.frame import NA, TraceFrame

__all__ = [
    "GRAPHQL_BATCH",
    "GUARD_PR_LIST",
    "ao_resource_window",
    "bracket_delta",
    "compute_exact",
    "compute_scorecard",
    "rate_per_hour",
    "resource_window",
    "round_or_none",
]

GRAPHQL_BATCH = "gh.api.graphql-batch"
GUARD_PR_LIST = "gh.api.guard-pr-list"
NOT_MODIFIED = 304
DURATION_PERCENTILES = (50.0, 95.0, 99.0)
MIN_BURN_ROWS = 2  # AO computes a per-row burn from two header rows up; else the bracket
HOUR_MS = 3_600_000
MINUTE_MS = 60_000

# figure kind -> decimal places kept in ghbench's own figures (insights)
DECIMALS: dict[str, int] = {"per_hr": 1, "per_min": 2, "ratio": 4, "ms": 1}


def round_or_none(value: float | None, kind: str) -> float | None:
    return None if value is None else round(value, DECIMALS[kind])


def _bucket(
    snapshots: RateLimitSnapshots | None, when: str, resource: str
) -> SnapshotBucket | None:
    if snapshots is None:
        return None
    snap = snapshots.before if when == "before" else snapshots.after
    if snap is None:
        return None
    bucket: SnapshotBucket | None = getattr(snap, resource)
    return bucket


def bracket_delta(snapshots: RateLimitSnapshots | None, resource: str) -> int | None:
    """``before.remaining − after.remaining``; None unless both snapshots have the resource.

    Kept literal, as the spec defines it: across a reset it under-reports and can
    even be negative (the bucket refilled); ``resourceWindows`` says when.
    """
    before = _bucket(snapshots, "before", resource)
    after = _bucket(snapshots, "after", resource)
    if before is None or after is None:
        return None
    return before.remaining - after.remaining


def rate_per_hour(
    burn: ResourceBurn, bracket: int | None, window: MeasureWindow
) -> tuple[float | None, str | None]:
    """ghbench's per-hour burn (unrounded) and its source: per-row headers when any row
    has them, else the bracket delta (a negative one, possible only across a reset,
    counts 0); never a mix. (None, None) without either."""
    if burn.rows > 0:
        return window.per_hour(burn.delta), "rows"
    if bracket is None:
        return None, None
    return window.per_hour(max(0, bracket)), "bracket"


def _ao_rate_per_hour(
    burn: ResourceBurn, bracket: int | None, window: MeasureWindow
) -> tuple[int, bool]:
    """AO's per-hour figure and ``*Estimated`` flag, computed as benchmark.mjs does."""
    duration = window.duration_ms
    if burn.rows >= MIN_BURN_ROWS:
        return (math_round((burn.delta / duration) * HOUR_MS) if duration > 0 else 0), False
    if bracket is not None and bracket > 0:
        hours = duration / HOUR_MS
        return (math_round(bracket / hours) if hours > 0 else 0), True
    return 0, False


def resource_window(
    burn: ResourceBurn, snapshots: RateLimitSnapshots | None, resource: str
) -> ResourceWindow | None:
    """ghbench's view: ``resetAt`` (the newest reset seen) and whether the window
    straddled a reset.

    From the rows' headers when there are any; otherwise from the snapshots: the
    window straddled when the bucket was in use at the first snapshot and its reset
    moved by the second. None when neither source exists.
    """
    if burn.latest_reset_s is not None:
        return ResourceWindow(reset_at=iso_s(burn.latest_reset_s), straddled=burn.straddled)
    before = _bucket(snapshots, "before", resource)
    after = _bucket(snapshots, "after", resource)
    if after is None or after.reset is None:
        return None
    straddled = (
        before is not None
        and before.reset is not None
        and before.used > 0
        and after.reset > before.reset
    )
    return ResourceWindow(reset_at=iso_s(after.reset), straddled=straddled)


def ao_resource_window(burn: ResourceBurn) -> ResourceWindow:
    """AO's ``resourceWindows`` entry: the first reset window seen (toISOString) and
    whether there were several, from two header rows up; else null and false."""
    if burn.rows < MIN_BURN_ROWS or burn.first_seen_reset_s is None:
        return ResourceWindow(reset_at=None, straddled=False)
    return ResourceWindow(reset_at=iso_ms(burn.first_seen_reset_s), straddled=burn.straddled)


def _guard_counts(rows: TraceFrame) -> tuple[int, int, int]:
    """guard-pr-list rows: (304s, other successes, other failures)."""
    status = rows.http_status
    guard = rows.operation.mask(GUARD_PR_LIST)
    other = guard & (status != NOT_MODIFIED)
    return (
        int(np.count_nonzero(guard & (status == NOT_MODIFIED))),
        int(np.count_nonzero(other & (rows.ok == 1))),
        int(np.count_nonzero(other & (rows.ok == 0))),
    )


def compute_scorecard(
    rows: TraceFrame,
    window: MeasureWindow,
    burns: dict[str, ResourceBurn],
    snapshots: RateLimitSnapshots | None,
    control_calls: int | None,
) -> Scorecard:
    """The spec's scorecard over ``rows`` (already the window's non-control rows), with
    the values AO's benchmark.mjs computes for them."""
    total = len(rows)
    duration = window.duration_ms
    guard_304, guard_ok, guard_err = _guard_counts(rows)
    guard_den = guard_304 + guard_ok + guard_err
    opaque = int(np.count_nonzero(rows.http_status == NA))
    deltas = {r: bracket_delta(snapshots, r) for r in ("core", "graphql")}
    gql_rate, gql_est = _ao_rate_per_hour(burns["graphql"], deltas["graphql"], window)
    core_rate, core_est = _ao_rate_per_hour(burns["core"], deltas["core"], window)
    p50, p95, p99 = (
        math_round(p or 0.0) for p in percentiles(rows.duration_ms, DURATION_PERCENTILES)
    )
    return Scorecard(
        total_calls=total,
        calls_per_min=to_fixed(total / (duration / MINUTE_MS), 1) if duration > 0 else 0,
        graphql_points_per_hr=gql_rate,
        graphql_points_per_hr_estimated=gql_est,
        rest_core_requests_per_hr=core_rate,
        rest_core_requests_per_hr_estimated=core_est,
        graphql_batch_count=int(np.count_nonzero(rows.operation.mask(GRAPHQL_BATCH))),
        guard_pr_list_304_count=guard_304,
        guard_pr_list_error_count=guard_err,
        guard_pr_list_304_rate=to_fixed(guard_304 / guard_den, 3) if guard_den else 0,
        opaque_call_count=opaque,
        opaque_call_pct=to_fixed(opaque / total, 2) if total else 0,
        bracket_delta=BracketDelta(core=deltas["core"], graphql=deltas["graphql"]),
        p50_duration_ms=p50,
        p95_duration_ms=p95,
        p99_duration_ms=p99,
        benchmark_control_calls=control_calls,
    )


def compute_exact(
    rows: TraceFrame,
    window: MeasureWindow,
    burns: dict[str, ResourceBurn],
    snapshots: RateLimitSnapshots | None,
) -> ExactFigures:
    """The spec's figures as ghbench computes them: unrounded, None without data."""
    total = len(rows)
    guard_304, guard_ok, guard_err = _guard_counts(rows)
    guard_den = guard_304 + guard_ok + guard_err
    opaque = int(np.count_nonzero(rows.http_status == NA))
    gql_rate, gql_source = rate_per_hour(
        burns["graphql"], bracket_delta(snapshots, "graphql"), window
    )
    core_rate, core_source = rate_per_hour(burns["core"], bracket_delta(snapshots, "core"), window)
    p50, p95, p99 = percentiles(rows.duration_ms, DURATION_PERCENTILES)
    return ExactFigures(
        calls_per_min=window.per_minute(total),
        graphql_points_per_hr=gql_rate,
        graphql_points_per_hr_source=gql_source,
        rest_core_requests_per_hr=core_rate,
        rest_core_requests_per_hr_source=core_source,
        guard_pr_list_304_rate=guard_304 / guard_den if guard_den else None,
        opaque_call_pct=opaque / total if total else None,
        p50_duration_ms=p50,
        p95_duration_ms=p95,
        p99_duration_ms=p99,
        resource_windows=ResourceWindows(
            graphql=resource_window(burns["graphql"], snapshots, "graphql"),
            core=resource_window(burns["core"], snapshots, "core"),
        ),
    )
