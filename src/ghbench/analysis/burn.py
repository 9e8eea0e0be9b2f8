"""Burn per rate-limit reset window, as ``summarize`` and ``baseline.md`` show it.

A window is the set of rows that carry ``x-ratelimit-*`` headers for one resource and
one ``rateLimitReset`` value. Its burn is ``max(0, first remaining - last remaining)``
in completion order (file order breaking ties), the benchmark spec's per-window delta;
the grouping is the scorecard's own (``ghbench.scorecard.burn.reset_windows``), which
sums these deltas over the measurement window.
A resource seen in more than one window *straddled* a reset: a ``/rate_limit``
bracket delta then under-reports, because the bucket refilled mid-run.

Its rate per hour is the delta over the part of the trace the reset window covers
(``span_ms``: from the window's opening, one bucket period before its reset, to the
reset, widened to its own rows where the headers say otherwise, cut at the next
window's opening and to the trace's first and last rows), the one way ghbench turns an
amount into an hourly rate (``scorecard.rates``); a span under 10 minutes is
extrapolated (``short``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ghbench.scorecard import rates
from ghbench.scorecard.burn import ResetWindow, reset_windows
from ghbench.trace.frame import TraceFrame

__all__ = ["BUCKET_PERIOD_S", "BurnWindow", "burn_windows", "straddled_resources"]


@dataclass(frozen=True)
class BurnWindow(ResetWindow):
    """One (resource, reset) group of header-carrying rows: a reset window of
    ``resource`` and the part of the trace it covers (``span_ms``, module doc)."""

    resource: str = field(kw_only=True)
    span_ms: int = field(kw_only=True)

    @property
    def elapsed_s(self) -> float:
        return (self.last_ms - self.first_ms) / 1000.0

    @property
    def span_s(self) -> float:
        return self.span_ms / 1000.0

    @property
    def per_hour(self) -> float | None:
        """The burn per hour over ``span_ms``; None without a span."""
        return rates.per_hour(self.delta, self.span_ms)

    @property
    def short(self) -> bool:
        return rates.short_span(self.span_s)


# how long a bucket's window lasts: an hour, but a minute for the search buckets
# (github-api-limits.md §1.2)
BUCKET_PERIOD_S: dict[str, int] = {"search": 60, "code_search": 60}
HOUR_S = 3600


def burn_windows(frame: TraceFrame) -> list[BurnWindow]:
    """Every (resource, reset) window in the frame, ordered by resource then reset."""
    if len(frame) == 0:
        return []
    trace_first, trace_last = int(frame.ts_ms.min()), int(frame.ts_ms.max())
    out = []
    for resource in sorted(frame.resource.labels):
        period_ms = BUCKET_PERIOD_S.get(resource, HOUR_S) * 1000
        windows = reset_windows(frame, resource)
        opening = [max(trace_first, min(w.reset * 1000 - period_ms, w.first_ms)) for w in windows]
        for i, w in enumerate(windows):
            opens = opening[i]
            closes = min(trace_last, max(w.reset * 1000, w.last_ms))
            if i + 1 < len(windows):
                closes = min(closes, opening[i + 1])
            out.append(BurnWindow(**vars(w), resource=resource, span_ms=max(0, closes - opens)))
    return out


def straddled_resources(windows: list[BurnWindow]) -> list[str]:
    """Resources seen in more than one reset window, sorted."""
    seen: dict[str, int] = {}
    for w in windows:
        seen[w.resource] = seen.get(w.resource, 0) + 1
    return sorted(r for r, n in seen.items() if n > 1)
