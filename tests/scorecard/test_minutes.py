"""ghbench.scorecard.minutes: rows grouped by minute, each row its minute's code among
the minutes that have rows, whether the minutes are packed or years apart."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.scorecard.minutes import MINUTE_MS, minute_codes

# packed traces (a dense pass) and sparse ones (a sort): both must agree with the model
timestamps = st.one_of(
    st.lists(st.integers(0, 30 * MINUTE_MS), max_size=50),
    st.lists(st.integers(-(10**14), 10**14), max_size=50),
)


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(timestamps, st.integers(-(10**6), 10**6))
def test_each_row_gets_the_rank_of_its_minute_among_the_minutes_present(
    ts: list[int], origin: int
) -> None:
    codes, minutes = minute_codes(np.array(ts, dtype=np.int64), origin)
    expected = sorted({(t - origin) // MINUTE_MS for t in ts})
    assert minutes.tolist() == expected
    assert codes.tolist() == [expected.index((t - origin) // MINUTE_MS) for t in ts]


def test_two_rows_years_apart_take_two_codes_not_a_slot_per_minute() -> None:
    year_ms = 365 * 24 * 60 * MINUTE_MS
    codes, minutes = minute_codes(np.array([0, 50 * year_ms, 1], dtype=np.int64))
    assert codes.tolist() == [0, 1, 0]
    assert minutes.tolist() == [0, 50 * year_ms // MINUTE_MS]


def test_no_rows_no_minutes() -> None:
    codes, minutes = minute_codes(np.array([], dtype=np.int64))
    assert codes.size == 0 and minutes.size == 0
