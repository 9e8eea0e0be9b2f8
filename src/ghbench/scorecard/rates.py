"""One "per hour": how every output turns an amount over a span into an hourly rate.

An hourly figure is ``amount × 3,600 s / span``, the span being what the amount was
measured over: a scorecard's window, a trace's first to last row, the part of a trace
a bucket's reset window covers. Every output says which span and how long it was, and a
span under ``SHORT_SPAN_S`` (10 minutes) extrapolated to an hour is flagged: six calls
in one second are not 21,600 an hour. A zero-length span has no rate (None).
"""

from __future__ import annotations

from ghbench.timefmt import format_duration

__all__ = ["SHORT_SPAN_S", "per_hour", "per_minute", "short_span", "span_note"]

SHORT_SPAN_S = 600.0


def per_hour(amount: float, span_ms: float) -> float | None:
    """``amount`` over ``span_ms`` milliseconds, as a rate per hour; None without a span."""
    if span_ms <= 0:
        return None
    return amount * 3_600_000.0 / span_ms


def per_minute(amount: float, span_ms: float) -> float | None:
    if span_ms <= 0:
        return None
    return amount * 60_000.0 / span_ms


def short_span(span_s: float) -> bool:
    """A span an hourly figure is extrapolated from that is too short to trust it."""
    return 0 < span_s < SHORT_SPAN_S


def span_note(span_s: float, what: str = "window") -> str:
    """What an hourly figure was measured over: ``per hour over the 15m 0s window``, and
    the caveat when the span is under 10 minutes."""
    text = f"per hour over the {format_duration(span_s)} {what}"
    if short_span(span_s):
        text += f" (under {format_duration(SHORT_SPAN_S)}: extrapolated, read as rough)"
    return text
