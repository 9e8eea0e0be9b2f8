"""Percentiles by linear interpolation, as numpy's default."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ghbench.scorecard.percentile import percentiles


def test_linear_interpolation_by_hand() -> None:
    values = np.array([4.0, 1.0, 3.0, 2.0])
    # rank h = (n-1)·q: p50 → 1.5 → 2.5; p95 → 2.85 → 3.85; p99 → 2.97 → 3.97
    assert percentiles(values, (50, 95, 99)) == pytest.approx([2.5, 3.85, 3.97])


def test_missing_durations_are_left_out() -> None:
    assert percentiles(np.array([math.nan, 10.0, math.nan]), (50, 99)) == [10.0, 10.0]


def test_no_durations_give_none() -> None:
    assert percentiles(np.array([math.nan]), (50,)) == [None]
    assert percentiles(np.array([], dtype=np.float64), (50, 95)) == [None, None]
