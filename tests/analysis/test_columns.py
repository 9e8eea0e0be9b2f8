"""The group-by helpers over a frame's columns, on plain arrays whose every count can be
checked by eye: missing labels and integers counted apart, ties ordered by label, the
bincount's fallback for values outside 0..9,999, and the harness's rows left out."""

from __future__ import annotations

import numpy as np
import pytest

from ghbench.analysis.columns import (
    MISSING,
    Counted,
    TraceSpan,
    count_categorical,
    count_ints,
    measured_rows,
    sum_by_code,
)
from ghbench.trace.frame import NA, Categorical, TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT

from .conftest import row

OPS = Categorical.encode(["b", None, "a", "b", "a", None, "c"])


def test_rows_per_label_most_frequent_first_ties_by_label() -> None:
    assert count_categorical(OPS) == [
        Counted(MISSING, 2, 2 / 7),  # "(none)" sorts before the letters
        Counted("a", 2, 2 / 7),
        Counted("b", 2, 2 / 7),
        Counted("c", 1, 1 / 7),
    ]


def test_a_mask_counts_only_its_rows_and_an_empty_one_shares_nothing() -> None:
    mask = np.array([True, False, False, True, False, False, True])
    assert count_categorical(OPS, mask) == [Counted("b", 2, 2 / 3), Counted("c", 1, 1 / 3)]
    assert count_categorical(OPS, np.zeros(7, dtype=np.bool_)) == []


def test_weights_are_summed_per_label_with_every_label_present() -> None:
    weights = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    assert sum_by_code(OPS, weights) == {MISSING: 8.0, "a": 8.0, "b": 5.0, "c": 7.0}
    odd = np.arange(7) % 2 == 1
    assert sum_by_code(OPS, weights, odd) == {MISSING: 8.0, "a": 0.0, "b": 4.0, "c": 0.0}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], []),
        ([304, 200, 304, NA], [(NA, 1), (200, 1), (304, 2)]),  # NA first, then ascending
        ([NA, NA], [(NA, 2)]),
        ([0, 9_999], [(0, 1), (9_999, 1)]),  # the bincount's whole range
        ([-1, 10_000, -1], [(-1, 2), (10_000, 1)]),  # outside it: np.unique
    ],
)
def test_rows_per_distinct_integer(values: list[int], expected: list[tuple[int, int]]) -> None:
    assert count_ints(np.array(values, dtype=np.int64)) == expected


def test_count_ints_under_a_mask() -> None:
    values = np.array([1, 2, 2, NA], dtype=np.int64)
    assert count_ints(values, np.array([False, True, True, True])) == [(NA, 1), (2, 2)]


def test_the_harness_control_rows_are_not_measured() -> None:
    frame = TraceFrame.from_rows(
        [row(0, component="scm"), row(1, component=CONTROL_COMPONENT), row(2)]
    )
    measured, dropped = measured_rows(frame)
    assert (len(measured), dropped) == (2, 1)
    assert CONTROL_COMPONENT not in {measured.component.value(i) for i in range(2)}
    plain = TraceFrame.from_rows([row(0, component="scm")])
    assert measured_rows(plain) == (plain, 0)  # nothing to drop: the same frame


class _Span(TraceSpan):
    def __init__(self, rows: int, first_ms: int | None, last_ms: int | None) -> None:
        self.rows, self.first_ms, self.last_ms = rows, first_ms, last_ms


def test_a_span_and_its_rate() -> None:
    assert _Span(30, 0, 60_000).span_s == 60.0
    assert _Span(30, 0, 60_000).calls_per_min == pytest.approx(30.0)
    assert _Span(0, None, None).span_s == 0.0 and _Span(0, None, None).calls_per_min is None
    assert _Span(1, 5, 5).calls_per_min is None  # no span: no rate
