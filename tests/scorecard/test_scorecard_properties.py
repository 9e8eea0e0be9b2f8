"""Hypothesis: the burn maths keeps its invariants against a simulated rate-limit ledger."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.scorecard.burn import resource_burn
from ghbench.scorecard.insights import peak_concurrency
from ghbench.scorecard.percentile import percentiles
from ghbench.trace.frame import NA, TraceFrame
from ghbench.trace.schema import TraceRow

from .helpers import T0, gql, opaque, rest

HOUR_S = 3600

# one call: (milliseconds since the previous call, its cost in points)
calls = st.lists(
    st.tuples(st.integers(min_value=1, max_value=900_000), st.integers(min_value=0, max_value=40)),
    min_size=0,
    max_size=60,
)


def ledger(spec: list[tuple[int, int]], start_remaining: int) -> tuple[list[TraceRow], int, int]:
    """Rows as GitHub would report them: a fixed-window bucket that refills hourly.

    Returns the rows, the points truly charged, and the number of reset windows seen.
    """
    limit = 100_000  # big enough that the bucket never empties
    remaining = start_remaining
    reset = int(T0) + 1800
    t_ms = 0
    rows: list[TraceRow] = []
    charged = 0
    windows: set[int] = set()
    for gap, cost in spec:
        t_ms += gap
        while T0 + t_ms / 1000 >= reset:
            reset += HOUR_S
            remaining = limit
        remaining -= cost
        charged += cost
        windows.add(reset)
        rows.append(gql(t_ms / 1000, remaining, cost=cost, reset=reset))
    return rows, charged, len(windows)


def _known(f: TraceFrame) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    known = f.graphql_cost != NA
    return np.where(known, f.graphql_cost, 0), known


@settings(max_examples=150, deadline=None)
@given(calls, st.integers(min_value=50_000, max_value=100_000))
def test_consumption_equals_what_the_ledger_charged(
    spec: list[tuple[int, int]], start: int
) -> None:
    rows, charged, windows = ledger(spec, start)
    f = TraceFrame.from_rows(rows)
    b = resource_burn(f, "graphql", _known(f))
    assert b.groups == windows
    assert b.consumed == charged
    assert 0 <= b.delta <= charged
    assert b.straddled == (windows > 1)


@settings(max_examples=100, deadline=None)
@given(calls, st.integers(min_value=50_000, max_value=100_000), st.randoms(use_true_random=False))
def test_file_order_and_other_resources_do_not_change_the_burn(
    spec: list[tuple[int, int]], start: int, rnd: random.Random
) -> None:
    rows, _, _ = ledger(spec, start)
    f = TraceFrame.from_rows(rows)
    expected = resource_burn(f, "graphql", _known(f))
    noise = [rest(i * 7.5, 4000 - i) for i in range(5)] + [opaque(3.3)]
    shuffled = rows + noise
    rnd.shuffle(shuffled)
    g = TraceFrame.from_rows(shuffled)
    assert resource_burn(g, "graphql", _known(g)) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=600_000),  # completion time, ms
            st.integers(min_value=0, max_value=5000),  # any remaining, rising or not
            st.sampled_from([int(T0) + 1800, int(T0) + 5400]),
        ),
        max_size=40,
    )
)
def test_burn_is_never_negative_and_bounded_by_each_groups_range(
    observations: list[tuple[int, int, int]],
) -> None:
    rows = [gql(t / 1000, rem, reset=reset) for t, rem, reset in observations]
    b = resource_burn(TraceFrame.from_rows(rows), "graphql")
    assert b.delta >= 0
    bound = 0
    for reset in {r for _, _, r in observations}:
        group = [rem for _, rem, r in observations if r == reset]
        bound += max(group) - min(group)
    assert b.delta <= bound


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=5_000), st.integers(min_value=0, max_value=3_000)
        ),
        min_size=1,
        max_size=40,
    )
)
def test_peak_concurrency_matches_brute_force(calls_: list[tuple[int, int]]) -> None:
    ends = np.array([end for end, _ in calls_], dtype=np.int64)
    durations = np.array([float(d) for _, d in calls_])
    intervals = [(end - d, end) for end, d in calls_]
    brute = max(sum(1 for s, e in intervals if s <= t < e) for t, _ in intervals)
    assert peak_concurrency(ends, durations).peak == brute


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False), min_size=1, max_size=50))
@pytest.mark.slow
def test_percentiles_follow_the_linear_rank_formula(values: list[float]) -> None:
    xs = sorted(values)
    for q, got in zip((50, 95, 99), percentiles(np.array(values), (50, 95, 99)), strict=True):
        h = (len(xs) - 1) * q / 100
        lo = int(h)
        hi = min(lo + 1, len(xs) - 1)
        want = xs[lo] + (h - lo) * (xs[hi] - xs[lo])
        assert got is not None
        assert abs(got - want) <= 1e-6 * max(1.0, abs(want))
