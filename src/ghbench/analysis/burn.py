"""Burn per rate-limit reset window, as ``summarize`` and ``baseline.md`` show it.

A window is the set of rows that carry ``x-ratelimit-*`` headers for one resource and
one ``rateLimitReset`` value. Its burn is ``max(0, first remaining - last remaining)``
in completion order (file order breaking ties), the benchmark spec's per-window delta;
the grouping is the scorecard's own (``ghbench.scorecard.burn.reset_windows``), which
sums these deltas over the measurement window.
A resource seen in more than one window *straddled* a reset: a ``/rate_limit``
bracket delta then under-reports, because the bucket refilled mid-run.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghbench.scorecard.burn import reset_windows
from ghbench.trace.frame import TraceFrame

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
    return [
        BurnWindow(
            resource=resource,
            reset=w.reset,
            rows=w.rows,
            remaining_start=w.remaining_start,
            remaining_end=w.remaining_end,
            first_ms=w.first_ms,
            last_ms=w.last_ms,
        )
        for resource in sorted(frame.resource.labels)
        for w in reset_windows(frame, resource)
    ]


def straddled_resources(windows: list[BurnWindow]) -> list[str]:
    """Resources seen in more than one reset window, sorted."""
    seen: dict[str, int] = {}
    for w in windows:
        seen[w.resource] = seen.get(w.resource, 0) + 1
    return sorted(r for r, n in seen.items() if n > 1)
