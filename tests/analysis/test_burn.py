"""``burn_windows``: each (resource, reset) window's burn and the part of the trace it
covers, edge cases by hand (the everyday trace is in test_summarize.py)."""

from __future__ import annotations

from ghbench.analysis.burn import burn_windows, straddled_resources
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow

from .conftest import T0, row

RESET = int(T0) + 600


def _rate(at: float, resource: str, remaining: int, reset: int = RESET) -> TraceRow:
    return row(
        at,
        operation="gh.api.x",
        rateLimitResource=resource,
        rateLimitRemaining=remaining,
        rateLimitLimit=5000,
        rateLimitReset=reset,
    )


def test_a_trace_with_no_rows_or_no_headers_has_no_windows() -> None:
    assert burn_windows(TraceFrame.from_rows([])) == []
    assert burn_windows(TraceFrame.from_rows([row(0, operation="gh.pr.view")])) == []


def test_a_search_window_opens_a_minute_before_its_reset() -> None:
    """The search bucket refills every minute: its window covers 60 s, not an hour."""
    rows = [_rate(0, "core", 10), _rate(550, "search", 30), _rate(590, "search", 26)]
    rows.append(_rate(900, "core", 4))
    core, search = burn_windows(TraceFrame.from_rows(rows))
    assert (search.resource, search.delta) == ("search", 4)
    assert search.span_s == 60.0  # from reset - 60 s to the reset
    assert (core.resource, core.delta, core.span_s) == ("core", 6, 900.0)
    assert not core.short and core.per_hour == 6 * 4  # 6 over a quarter of an hour


def test_a_burn_never_goes_negative_and_a_window_past_its_reset_is_widened() -> None:
    """Headers that say a window ran past its reset (a clock skew) widen its span to its
    own rows; remaining that rose (a refill seen late) is no burn."""
    rows = [_rate(500, "core", 100), _rate(700, "core", 120)]
    (window,) = burn_windows(TraceFrame.from_rows(rows))
    assert window.delta == 0 and window.per_hour == 0
    assert window.span_s == 200.0 and window.elapsed_s == 200.0


def test_windows_are_ordered_by_resource_then_reset_and_straddles_named() -> None:
    rows = [
        _rate(0, "graphql", 50, reset=RESET + 3600),
        _rate(1, "graphql", 40, reset=RESET),
        _rate(2, "core", 9),
    ]
    windows = burn_windows(TraceFrame.from_rows(rows))
    assert [(w.resource, w.reset) for w in windows] == [
        ("core", RESET),
        ("graphql", RESET),
        ("graphql", RESET + 3600),
    ]
    assert straddled_resources(windows) == ["graphql"]
    assert straddled_resources(windows[:2]) == []
