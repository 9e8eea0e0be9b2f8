"""The spec's ``scorecard`` object, each field exactly as the spec's metric table defines it.

Every function here takes the rows already filtered to the window (see ``window.py``).
Rounding is for stable artifacts only and never changes a figure's unit:
per-hour rates to 0.1, per-minute rates to 0.01, ratios to 0.0001, durations to 0.1 ms.
"""

from __future__ import annotations

import numpy as np

from ghbench.artifacts.models import (
    BracketDelta,
    RateLimitSnapshots,
    ResourceWindow,
    Scorecard,
    SnapshotBucket,
)
from ghbench.scorecard.burn import ResourceBurn
from ghbench.scorecard.percentile import percentiles
from ghbench.scorecard.window import MeasureWindow
from ghbench.timefmt import iso_s
from ghbench.trace.frame import NA, TraceFrame

__all__ = [
    "GRAPHQL_BATCH",
    "GUARD_PR_LIST",
    "bracket_delta",
    "compute_scorecard",
    "rate_per_hour",
    "resource_window",
    "round_or_none",
]

GRAPHQL_BATCH = "gh.api.graphql-batch"
GUARD_PR_LIST = "gh.api.guard-pr-list"
NOT_MODIFIED = 304
DURATION_PERCENTILES = (50.0, 95.0, 99.0)

# figure kind -> decimal places kept in the artifact
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
) -> tuple[float | None, bool]:
    """The spec's per-hour burn and its ``*Estimated`` flag.

    Per-row headers when any row has them; otherwise the bracket delta (a negative one,
    possible only across a reset, counts 0) with ``estimated`` true; never a mix.
    """
    if burn.rows > 0:
        return round_or_none(window.per_hour(burn.delta), "per_hr"), False
    if bracket is None:
        return None, False
    rate = window.per_hour(max(0, bracket))
    return round_or_none(rate, "per_hr"), rate is not None


def resource_window(
    burn: ResourceBurn, snapshots: RateLimitSnapshots | None, resource: str
) -> ResourceWindow | None:
    """``resetAt`` (the newest reset seen) and whether the window straddled a reset.

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


def compute_scorecard(
    rows: TraceFrame,
    window: MeasureWindow,
    burns: dict[str, ResourceBurn],
    snapshots: RateLimitSnapshots | None,
    control_calls: int | None,
) -> Scorecard:
    """The spec's scorecard over ``rows`` (already the window's non-control rows)."""
    total = len(rows)
    status = rows.http_status
    guard = rows.operation.mask(GUARD_PR_LIST)
    guard_304 = guard & (status == NOT_MODIFIED)
    guard_other = guard & (status != NOT_MODIFIED)
    guard_304_count = int(np.count_nonzero(guard_304))
    guard_ok = int(np.count_nonzero(guard_other & (rows.ok == 1)))
    guard_err = int(np.count_nonzero(guard_other & (rows.ok == 0)))
    guard_den = guard_304_count + guard_ok + guard_err
    opaque = int(np.count_nonzero(status == NA))
    deltas = {r: bracket_delta(snapshots, r) for r in ("core", "graphql")}
    gql_rate, gql_est = rate_per_hour(burns["graphql"], deltas["graphql"], window)
    core_rate, core_est = rate_per_hour(burns["core"], deltas["core"], window)
    p50, p95, p99 = percentiles(rows.duration_ms, DURATION_PERCENTILES)
    return Scorecard(
        total_calls=total,
        calls_per_min=round_or_none(window.per_minute(total), "per_min"),
        graphql_points_per_hr=gql_rate,
        graphql_points_per_hr_estimated=gql_est,
        rest_core_requests_per_hr=core_rate,
        rest_core_requests_per_hr_estimated=core_est,
        graphql_batch_count=int(np.count_nonzero(rows.operation.mask(GRAPHQL_BATCH))),
        guard_pr_list_304_count=guard_304_count,
        guard_pr_list_error_count=guard_err,
        guard_pr_list_304_rate=round_or_none(
            guard_304_count / guard_den if guard_den else None, "ratio"
        ),
        opaque_call_count=opaque,
        opaque_call_pct=round_or_none(opaque / total if total else None, "ratio"),
        bracket_delta=BracketDelta(core=deltas["core"], graphql=deltas["graphql"]),
        p50_duration_ms=round_or_none(p50, "ms"),
        p95_duration_ms=round_or_none(p95, "ms"),
        p99_duration_ms=round_or_none(p99, "ms"),
        benchmark_control_calls=control_calls,
    )
