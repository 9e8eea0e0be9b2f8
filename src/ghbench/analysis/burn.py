"""Burn per rate-limit reset window, as ``summarize`` and ``baseline.md`` show it.

A window is the set of rows that carry ``x-ratelimit-*`` headers for one resource and
one ``rateLimitReset`` value. Its burn is ``max(0, first remaining - last remaining)``
in file order (AO appends rows as calls complete), which is the benchmark spec's
per-window delta; the scorecard sums these deltas over the measurement window.
A resource seen in more than one window *straddled* a reset: a ``/rate_limit``
bracket delta then under-reports, because the bucket refilled mid-run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ghbench.trace.frame import NA, TraceFrame

__all__ = ["BurnWindow", "burn_windows", "straddled_resources"]


@dataclass(frozen=True)
class BurnWindow:
    """One (resource, reset) group of header-carrying rows."""

    resource: str
    reset: int  # epoch seconds, from x-ratelimit-reset
    rows: int
    remaining_start: int
    remaining_end: int
    first_ms: int
    last_ms: int

    @property
    def delta(self) -> int:
        return max(0, self.remaining_start - self.remaining_end)

    @property
    def elapsed_s(self) -> float:
        return (self.last_ms - self.first_ms) / 1000.0

    @property
    def per_hour(self) -> float | None:
        """Burn scaled to an hour over the window's own elapsed time; None if instantaneous."""
        if self.elapsed_s <= 0:
            return None
        return self.delta * 3600.0 / self.elapsed_s


def burn_windows(frame: TraceFrame) -> list[BurnWindow]:
    """Every (resource, reset) window in the frame, ordered by resource then reset."""
    has = (
        (frame.rate_limit_remaining != NA)
        & (frame.rate_limit_reset != NA)
        & (frame.resource.codes >= 0)
    )
    idx = np.flatnonzero(has)
    if idx.shape[0] == 0:
        return []
    res_codes = frame.resource.codes[idx].astype(np.int64)
    resets = frame.rate_limit_reset[idx]
    base = int(resets.min())
    span = int(resets.max()) - base + 1
    key = res_codes * span + (resets - base)
    order = np.argsort(key, kind="stable")  # stable: file order inside each window
    sorted_key = key[order]
    starts = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
    ends = np.r_[starts[1:], sorted_key.shape[0]] - 1
    rows_sorted = idx[order]
    ts_sorted = frame.ts_ms[rows_sorted]
    first_ms = np.minimum.reduceat(ts_sorted, starts)
    last_ms = np.maximum.reduceat(ts_sorted, starts)
    remaining = frame.rate_limit_remaining
    labels = frame.resource.labels
    windows: list[BurnWindow] = []
    for g, (s, e) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
        k = int(sorted_key[s])
        windows.append(
            BurnWindow(
                resource=labels[k // span],
                reset=base + k % span,
                rows=e - s + 1,
                remaining_start=int(remaining[rows_sorted[s]]),
                remaining_end=int(remaining[rows_sorted[e]]),
                first_ms=int(first_ms[g]),
                last_ms=int(last_ms[g]),
            )
        )
    windows.sort(key=lambda w: (w.resource, w.reset))
    return windows


def straddled_resources(windows: list[BurnWindow]) -> list[str]:
    """Resources seen in more than one reset window, sorted."""
    seen: dict[str, int] = {}
    for w in windows:
        seen[w.resource] = seen.get(w.resource, 0) + 1
    return sorted(r for r, n in seen.items() if n > 1)
