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

import numpy as np
import numpy.typing as npt

from ghbench.ratelimit import RateLimitSnapshot
from ghbench.trace.frame import NA, TraceFrame

__all__ = ["BURN_COLUMNS", "BurnSeries", "burn_points"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

# the trace columns the points are read from (a projected read asks for these)
BURN_COLUMNS: tuple[str, ...] = (
    "ts_ms",
    "rate_limit_remaining",
    "rate_limit_limit",
    "graphql_remaining",
    "resource",
)


@dataclass(frozen=True, eq=False)
class BurnSeries:
    """``remaining`` of one budget: times (epoch s, float64) and values (int64) in time
    order, and the bucket's limit when a row or a snapshot said it."""

    resource: str
    times: F64
    remaining: I64
    limit: int | None = None

    def thinned(self, columns: int) -> BurnSeries:
        """The same curve in at most four points per one of ``columns`` time slices: the
        first, highest, lowest and last value of each (a page draws no finer)."""
        n = len(self.times)
        if n <= 4 * columns:
            return self
        t, r = self.times, self.remaining
        span = float(t[-1] - t[0]) or 1.0
        col = np.minimum(((t - t[0]) / span * columns).astype(np.int64), columns - 1)
        starts = np.concatenate(([0], np.flatnonzero(np.diff(col)) + 1))
        ends = np.concatenate((starts[1:], [n])) - 1
        times = np.repeat(np.stack((t[starts], t[ends]), axis=1), 2, axis=1).ravel()
        values = np.stack(
            (r[starts], np.maximum.reduceat(r, starts), np.minimum.reduceat(r, starts), r[ends]),
            axis=1,
        ).ravel()
        return BurnSeries(self.resource, times, values, self.limit)


def _frame_points(
    frame: TraceFrame, points: dict[str, list[tuple[F64, I64]]], limits: dict[str, int]
) -> None:
    frame.require(BURN_COLUMNS)
    has_rem = frame.rate_limit_remaining != NA
    for code, label in enumerate(frame.resource.labels):
        mask = has_rem & (frame.resource.codes == code)
        if not mask.any():
            continue
        points[label].append((frame.ts_ms[mask] / 1000.0, frame.rate_limit_remaining[mask]))
        given = frame.rate_limit_limit[mask & (frame.rate_limit_limit != NA)]
        if given.size:
            limits[label] = max(limits.get(label, 0), int(given.max()))
    # a GraphQL body's own rateLimit, for rows without the headers
    gmask = (frame.graphql_remaining != NA) & ~(has_rem & frame.resource.mask("graphql"))
    if gmask.any():
        points["graphql"].append((frame.ts_ms[gmask] / 1000.0, frame.graphql_remaining[gmask]))


def burn_points(
    frame: TraceFrame,
    snapshots: Sequence[RateLimitSnapshot | None] = (),
    *,
    also: Sequence[TraceFrame] = (),
) -> list[BurnSeries]:
    """One series per budget seen, by name; ``also``: more traces of the same token
    (the agents')."""
    points: dict[str, list[tuple[F64, I64]]] = defaultdict(list)
    limits: dict[str, int] = {}
    for f in (frame, *also):
        _frame_points(f, points, limits)
    for snap in snapshots:
        if snap is None:
            continue
        for name in ("core", "graphql"):
            bucket = snap.get(name)
            if bucket is not None:
                at = np.array([snap.captured_at], dtype=np.float64)
                points[name].append((at, np.array([bucket.remaining], dtype=np.int64)))
                limits.setdefault(name, bucket.limit)
    out = []
    for resource in sorted(points):
        times = np.concatenate([p[0] for p in points[resource]])
        remaining = np.concatenate([p[1] for p in points[resource]]).astype(np.int64)
        order = np.argsort(times, kind="stable")  # rows at one time keep the traces' order
        out.append(BurnSeries(resource, times[order], remaining[order], limits.get(resource)))
    return out
