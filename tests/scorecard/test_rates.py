"""ghbench.scorecard.rates: one "per hour" for every output, and the caveat on a span
too short to extrapolate from."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.scorecard.rates import SHORT_SPAN_S, per_hour, per_minute, short_span, span_note


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.floats(0, 1e9), st.floats(1, 1e12))
def test_an_hour_is_sixty_minutes_of_the_same_rate(amount: float, span_ms: float) -> None:
    hourly, minutely = per_hour(amount, span_ms), per_minute(amount, span_ms)
    assert hourly is not None and minutely is not None
    assert math.isclose(hourly, minutely * 60, rel_tol=1e-12, abs_tol=1e-12)


def test_an_amount_over_exactly_an_hour_is_its_rate() -> None:
    assert per_hour(5000, 3_600_000) == 5000.0


def test_no_span_no_rate() -> None:
    assert per_hour(6, 0) is None and per_minute(6, -1) is None


def test_under_ten_minutes_is_extrapolated_and_says_so() -> None:
    assert short_span(1.0) and not short_span(SHORT_SPAN_S) and not short_span(0.0)
    assert span_note(900) == "per hour over the 15m 0s window"
    note = span_note(5, "trace")
    assert note.startswith("per hour over the 5s trace") and "extrapolated" in note
