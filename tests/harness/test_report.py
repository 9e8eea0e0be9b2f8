"""``report``'s window from its flags (``time_bounds``): each bound as typed and in epoch
ms, and a window that would run backwards refused before any trace is read."""

from __future__ import annotations

import pytest

from ghbench.errors import UsageError
from ghbench.harness.report import TimeBound, time_bounds


def test_no_bounds_leave_the_trace_its_own() -> None:
    assert time_bounds(None, None) == (None, None)


def test_each_bound_keeps_its_flag_and_text() -> None:
    start, end = time_bounds("2026-01-01T00:00:00Z", "2026-01-01T00:15:00Z")
    assert start == TimeBound("--warmup-end", "2026-01-01T00:00:00Z", 1_767_225_600_000)
    assert end is not None and end.flag == "--window-end"
    assert end.ms - start.ms == 15 * 60 * 1000


def test_a_window_that_runs_backwards_is_refused() -> None:
    with pytest.raises(UsageError, match="--window-end is before --warmup-end"):
        time_bounds("2026-01-01T00:15:00Z", "2026-01-01T00:00:00Z")


def test_a_bound_that_is_no_instant_names_its_flag() -> None:
    with pytest.raises(UsageError, match="--window-end"):
        time_bounds(None, "yesterday")
