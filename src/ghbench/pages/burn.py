"""The burn curve's points: rate-limit ``remaining`` over time, per budget, with its limit.

Points come from the traces (``rateLimitRemaining`` with its ``rateLimitResource``, and a
GraphQL body's ``graphqlRemaining`` on rows without the headers) and from the two
``/rate_limit`` snapshots. The orchestrator's and the agents' traces are read together:
their calls drain the same user's buckets, so both show the same bucket falling. The
limit is the largest ``rateLimitLimit`` a row reported, else the snapshots'. Pure: the
traces are passed in (``TraceFrame``); the PNG (``ghbench.harness.plot``) and the HTML
page (``ghbench.pages.scorecard_page``) both draw these points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ghbench.ratelimit import RateLimitSnapshot
from ghbench.trace.frame import NA, TraceFrame

__all__ = ["BURN_COLUMNS", "BurnSeries", "burn_points"]

# the trace columns the points are read from (a projected read asks for these)
BURN_COLUMNS: tuple[str, ...] = (
    "ts_ms",
    "rate_limit_remaining",
    "rate_limit_limit",
    "graphql_remaining",
    "resource",
)


@dataclass(frozen=True)
class BurnSeries:
    """``remaining`` of one budget: times (epoch s) and values in time order, and the
    bucket's limit when a row or a snapshot said it."""

    resource: str
    times: tuple[float, ...]
    remaining: tuple[int, ...]
    limit: int | None = None


def _frame_points(
    frame: TraceFrame, points: dict[str, list[tuple[float, int]]], limits: dict[str, int]
) -> None:
    frame.require(BURN_COLUMNS)
    has_rem = frame.rate_limit_remaining != NA
    for code, label in enumerate(frame.resource.labels):
        mask = has_rem & (frame.resource.codes == code)
        ts = frame.ts_ms[mask] / 1000.0
        points[label].extend(
            zip(ts.tolist(), frame.rate_limit_remaining[mask].tolist(), strict=True)
        )
        given = frame.rate_limit_limit[mask & (frame.rate_limit_limit != NA)]
        if given.size:
            limits[label] = max(limits.get(label, 0), int(given.max()))
    # a GraphQL body's own rateLimit, for rows without the headers
    gmask = (frame.graphql_remaining != NA) & ~(has_rem & frame.resource.mask("graphql"))
    points["graphql"].extend(
        zip(
            (frame.ts_ms[gmask] / 1000.0).tolist(),
            frame.graphql_remaining[gmask].tolist(),
            strict=True,
        )
    )


def burn_points(
    frame: TraceFrame,
    snapshots: Sequence[RateLimitSnapshot | None] = (),
    *,
    also: Sequence[TraceFrame] = (),
) -> list[BurnSeries]:
    """One series per budget seen, by name; ``also``: more traces of the same token
    (the agents')."""
    points: dict[str, list[tuple[float, int]]] = defaultdict(list)
    limits: dict[str, int] = {}
    for f in (frame, *also):
        _frame_points(f, points, limits)
    for snap in snapshots:
        if snap is None:
            continue
        for name in ("core", "graphql"):
            bucket = snap.get(name)
            if bucket is not None:
                points[name].append((snap.captured_at, bucket.remaining))
                limits.setdefault(name, bucket.limit)
    out = []
    for resource in sorted(points):
        pts = sorted(points[resource])
        if pts:
            out.append(
                BurnSeries(
                    resource,
                    tuple(p[0] for p in pts),
                    tuple(int(p[1]) for p in pts),
                    limits.get(resource),
                )
            )
    return out
