"""The window filter and report mode's choice of window."""

from __future__ import annotations

import numpy as np
import pytest

from ghbench.scorecard.window import (
    MeasureWindow,
    resolve_report_window,
    select_rows,
    window_rows,
)

from .helpers import T0_MS, frame, opaque, row


def test_window_keeps_both_ends_and_drops_warmup_late_and_control_rows() -> None:
    f = frame(
        opaque(9.999),  # warmup
        opaque(10.0),  # first instant of the window
        row(15.0, component="benchmark-control", operation="gh.api.rate_limit"),
        opaque(20.0),  # last instant of the window
        opaque(20.001),  # after the window
    )
    sel = select_rows(f, MeasureWindow(T0_MS + 10_000, T0_MS + 20_000))
    assert sel.mask.tolist() == [False, True, False, True, False]
    assert (sel.before_window, sel.after_window, sel.benchmark_control) == (1, 1, 1)


@pytest.mark.parametrize("control", [False, True])
def test_window_rows_slice_and_copy_paths_agree(control: bool) -> None:
    rows = [opaque(float(i)) for i in range(10)]
    if control:
        rows.insert(5, row(4.5, component="benchmark-control"))
    f = frame(*rows)
    window = MeasureWindow(T0_MS + 2_000, T0_MS + 6_000)
    got, sel = window_rows(f, window)
    assert got.ts_ms.tolist() == f.ts_ms[sel.mask].tolist()
    assert len(got) == 5


def test_window_rows_handles_out_of_order_rows() -> None:
    f = frame(opaque(5.0), opaque(1.0), opaque(3.0), opaque(9.0))
    got, _ = window_rows(f, MeasureWindow(T0_MS + 2_000, T0_MS + 6_000))
    assert sorted(got.ts_ms.tolist()) == [T0_MS + 3_000, T0_MS + 5_000]


def test_report_window_defaults_to_first_and_last_non_control_rows() -> None:
    f = frame(
        row(1.0, component="benchmark-control"),
        opaque(5.0),
        opaque(3.0),
        opaque(8.0),
        row(9.0, component="benchmark-control"),
    )
    w = resolve_report_window(f, warmup_end_ms=None, window_end_ms=None)
    assert w == MeasureWindow(T0_MS + 3_000, T0_MS + 8_000)
    w = resolve_report_window(f, warmup_end_ms=T0_MS + 4_000, window_end_ms=None)
    assert w == MeasureWindow(T0_MS + 4_000, T0_MS + 8_000)
    w = resolve_report_window(f, warmup_end_ms=None, window_end_ms=T0_MS + 6_000)
    assert w == MeasureWindow(T0_MS + 3_000, T0_MS + 6_000)


def test_report_window_with_one_row_is_zero_length() -> None:
    w = resolve_report_window(frame(opaque(5.0)), warmup_end_ms=None, window_end_ms=None)
    assert w is not None and w.duration_ms == 0
    assert w.per_hour(10) is None and w.per_minute(10) is None


def test_report_window_without_rows_or_bounds_is_none() -> None:
    empty = frame()
    assert resolve_report_window(empty, warmup_end_ms=None, window_end_ms=None) is None
    w = resolve_report_window(empty, warmup_end_ms=T0_MS, window_end_ms=T0_MS + 60_000)
    assert w == MeasureWindow(T0_MS, T0_MS + 60_000)


def test_report_window_that_runs_backwards_is_refused() -> None:
    with pytest.raises(ValueError, match="before it starts"):
        resolve_report_window(frame(opaque(5.0)), warmup_end_ms=T0_MS + 9_000, window_end_ms=None)
    with pytest.raises(ValueError):
        MeasureWindow(2, 1)


def test_rates_scale_to_the_window() -> None:
    w = MeasureWindow(0, 15 * 60_000)
    assert w.per_hour(750) == pytest.approx(3000.0)
    assert w.per_minute(1200) == pytest.approx(80.0)
    assert np.isclose(MeasureWindow(0, 1).per_hour(1) or 0, 3_600_000)
