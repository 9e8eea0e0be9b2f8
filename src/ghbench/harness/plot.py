"""The burn curve: rate-limit ``remaining`` over time, one line per resource.

Points come from the trace (``rateLimitRemaining`` with its ``rateLimitResource``, and
a GraphQL body's ``graphqlRemaining``) and from the two ``/rate_limit`` snapshots; the
measurement window is shaded. ``burn_points`` is pure; ``render_burn_png`` draws it
(``analysis.plots``: the one matplotlib setup) and returns PNG bytes (the caller writes
them atomically).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ghbench.analysis.plots import new_figure, png_bytes
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.trace.frame import NA, TraceFrame

__all__ = ["BurnSeries", "burn_points", "render_burn_png"]


@dataclass(frozen=True)
class BurnSeries:
    """``remaining`` per resource: times (epoch s) and values, in time order."""

    resource: str
    times: tuple[float, ...]
    remaining: tuple[int, ...]


def burn_points(
    frame: TraceFrame, snapshots: Sequence[RateLimitSnapshot | None] = ()
) -> list[BurnSeries]:
    points: dict[str, list[tuple[float, int]]] = defaultdict(list)
    has_rem = frame.rate_limit_remaining != NA
    for code, label in enumerate(frame.resource.labels):
        mask = has_rem & (frame.resource.codes == code)
        ts = frame.ts_ms[mask] / 1000.0
        rem = frame.rate_limit_remaining[mask]
        points[label].extend(zip(ts.tolist(), rem.tolist(), strict=True))
    gmask = frame.graphql_remaining != NA
    # a GraphQL body's own rateLimit, for rows without the headers
    gmask &= ~(has_rem & frame.resource.mask("graphql"))
    points["graphql"].extend(
        zip(
            (frame.ts_ms[gmask] / 1000.0).tolist(),
            frame.graphql_remaining[gmask].tolist(),
            strict=True,
        )
    )
    for snap in snapshots:
        if snap is None:
            continue
        for name in ("core", "graphql"):
            bucket = snap.get(name)
            if bucket is not None:
                points[name].append((snap.captured_at, bucket.remaining))
    out = []
    for resource in sorted(points):
        pts = sorted(points[resource])
        if pts:
            out.append(
                BurnSeries(
                    resource,
                    tuple(p[0] for p in pts),
                    tuple(int(p[1]) for p in pts),
                )
            )
    return out


def render_burn_png(
    series: Sequence[BurnSeries], *, window: tuple[float, float] | None, title: str
) -> bytes:
    fig = new_figure(9, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    origin = min((s.times[0] for s in series), default=window[0] if window else 0.0)
    if window is not None:
        origin = min(origin, window[0])
    for s in series:
        t = (np.asarray(s.times) - origin) / 60.0
        ax.step(t, s.remaining, where="post", label=s.resource, marker=".", markersize=3)
    if window is not None:
        ax.axvspan(
            (window[0] - origin) / 60.0,
            (window[1] - origin) / 60.0,
            color="tab:green",
            alpha=0.12,
            label="measurement window",
        )
    ax.set_xlabel("minutes since start")
    ax.set_ylabel("rate-limit remaining")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if series or window is not None:
        ax.legend(loc="best")
    return png_bytes(fig)
