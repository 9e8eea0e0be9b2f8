"""The capacity search against synthetic probes, where the right answer is known."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.analysis.capacity import (
    BUDGETS,
    BudgetUse,
    Probe,
    Refusal,
    find_capacity,
    longest_poll_cycle,
)

Cost = Callable[[int], dict[str, float]]
LIMITS = {
    "graphqlPointsPerHr": 5000.0,
    "coreRequestsPerHr": 5000.0,
    "restPointsPerMinute": 900.0,
    "graphqlPointsPerMinute": 2000.0,
    "concurrency": 100.0,
    "pollCycle": 60.0,
}


def probe_of(cost: Cost, calls: list[int]) -> Callable[[int], Probe]:
    def probe(n: int) -> Probe:
        calls.append(n)
        used = cost(n)
        return Probe(n, tuple(BudgetUse(b, used.get(b, 0.0), LIMITS[b]) for b in BUDGETS))

    return probe


def brute_force(cost: Cost, fraction: float, start: int, maximum: int) -> int:
    best = 0
    for n in range(start, maximum + 1):
        if all(cost(n).get(b, 0.0) <= fraction * LIMITS[b] for b in BUDGETS):
            best = n
        else:
            break
    return best


def test_linear_graphql_cost_binds_where_it_crosses() -> None:
    calls: list[int] = []
    r = find_capacity(probe_of(lambda n: {"graphqlPointsPerHr": 40.0 * n + 30}, calls))
    assert r.sessions == 99  # 40·99+30 = 3,990 ≤ 4,000 < 4,030
    assert r.limiting == "graphqlPointsPerHr"
    assert r.at is not None and r.next is not None and r.next.sessions == 100
    assert r.at.uses[0].margin(0.8) == pytest.approx(10.0)
    assert r.next.uses[0].margin(0.8) == pytest.approx(-30.0)
    assert not r.capped and len(calls) <= 5 and len(set(calls)) == len(calls)


def test_the_first_budget_to_bind_is_named_not_the_largest_share_at_small_counts() -> None:
    def cost(n: int) -> dict[str, float]:
        return {"pollCycle": 20.0 + 0.1 * n, "concurrency": 1.0 + n}

    r = find_capacity(probe_of(cost, []), fraction=0.8)
    assert (r.sessions, r.limiting) == (79, "concurrency")


def test_nothing_fits() -> None:
    r = find_capacity(probe_of(lambda n: {"pollCycle": 70.0}, []), start=2)
    assert r.sessions == 0 and r.at is None
    assert r.next is not None and r.next.sessions == 2 and r.limiting == "pollCycle"


def test_everything_fits_up_to_the_maximum() -> None:
    calls: list[int] = []
    r = find_capacity(probe_of(lambda n: {"concurrency": 1.0}, calls), maximum=300)
    assert r.capped and r.sessions == 300 and r.next is None
    assert r.limiting == "concurrency" and max(calls) == 300


@settings(max_examples=60, deadline=None)
@given(
    slope=st.floats(min_value=0.01, max_value=50.0),
    intercept=st.floats(min_value=0.0, max_value=30.0),
    curve=st.floats(min_value=0.0, max_value=0.05),
    step=st.integers(min_value=0, max_value=10),
    fraction=st.floats(min_value=0.1, max_value=1.0),
    start=st.integers(min_value=1, max_value=2),
)
def test_monotone_costs_give_the_brute_force_answer(  # noqa: PLR0917 - one per strategy
    slope: float, intercept: float, curve: float, step: int, fraction: float, start: int
) -> None:
    def cost(n: int) -> dict[str, float]:
        # convex growth plus a staircase (T2 adds a repo every five sessions)
        return {
            "graphqlPointsPerHr": slope * n + curve * n * n + 10.0 * step * (n // 5),
            "pollCycle": intercept + 0.2 * n,
        }

    calls: list[int] = []
    r = find_capacity(probe_of(cost, calls), fraction=fraction, start=start, maximum=2000)
    expected = brute_force(cost, fraction, start, 2000)
    assert r.sessions == expected
    if r.next is not None:
        assert r.next.sessions == expected + 1 or (expected == 0 and r.next.sessions == start)
    assert len(calls) <= 24  # far fewer than a scan
    assert [p.sessions for p in r.probes] == sorted(set(calls))


def _cycle(calls: list[tuple[int, float, bool]], window: tuple[int, int], poll: float) -> float:
    ends = np.array([e for e, _, _ in calls], dtype=np.int64)
    durations = np.array([d for _, d, _ in calls], dtype=np.float64)
    marks = np.array([m for _, _, m in calls], dtype=np.bool_)
    return longest_poll_cycle(ends, durations, marks, window=window, poll_s=poll)


GUARD, CALL = True, False


def test_a_cycle_runs_from_its_guards_to_the_last_call_before_the_next_tick() -> None:
    calls = [
        (1000, 1000.0, GUARD),  # tick 1 starts at 0: two repos' guards in parallel
        (900, 900.0, GUARD),
        (2500, 1000.0, CALL),
        (4000, 1000.0, CALL),  # tick 1 ends at 4 s
        (31000, 1000.0, GUARD),  # tick 2 at 30 s: 1 s
        (61000, 1000.0, GUARD),  # tick 3 at 60 s, whose calls run 9 s
        (70000, 2000.0, CALL),
    ]
    assert _cycle(calls, (0, 100_000), 30.0) == pytest.approx(10.0)
    assert _cycle(calls, (0, 40_000), 30.0) == pytest.approx(4.0)
    assert _cycle(calls, (5_000, 40_000), 30.0) == pytest.approx(1.0)  # tick 1 ended before


def test_a_cycle_longer_than_the_poll_interval_is_one_cycle() -> None:
    # ticks every 1 s, but one takes 3.5 s: the poller skips the ticks due meanwhile
    calls = [(500, 500.0, GUARD), (2000, 1500.0, CALL), (3500, 1500.0, CALL), (4500, 500.0, GUARD)]
    assert _cycle(calls, (0, 10_000), 1.0) == pytest.approx(3.5)


def test_no_tick_marks_no_cycle() -> None:
    assert _cycle([(1000, 1000.0, CALL)], (0, 10_000), 30.0) == 0.0
    assert _cycle([(1000, float("nan"), GUARD)], (0, 10_000), 30.0) == 0.0


def test_a_count_a_rate_limit_answered_at_does_not_fit_whatever_its_figures() -> None:
    """A secondary limit that refused calls binds even with every figure under F: the
    count that fits is the one before the first refusal."""

    def probe(n: int) -> Probe:
        uses = tuple(BudgetUse(b, 1.0, LIMITS[b]) for b in BUDGETS)
        refused = (Refusal("concurrency", 3, None, "refused"),) if n >= 7 else ()
        return Probe(n, uses, refusals=refused)

    r = find_capacity(probe)
    assert (r.sessions, r.limiting) == (6, "concurrency")
    assert r.next is not None and not r.next.fits(0.8) and r.next.binding == "concurrency"


def test_a_cycle_at_more_sessions_scales_their_own_calls_by_their_average() -> None:
    """Two ticks: a repository guard (1 s) and then two sessions' calls one after the
    other (2 s, then 4 s: 3 s on average). At three times the sessions each tick is its
    guard plus three times the average: 1 + 3 x 3 = 10 s."""
    ends = np.array([1000, 2000, 3000, 31000, 33000, 35000], dtype=np.int64)
    durations = np.array([1000.0, 1000.0, 1000.0, 1000.0, 2000.0, 2000.0])
    marks = np.array([True, False, False, True, False, False])
    own = ~marks
    cycle = longest_poll_cycle(
        ends, durations, marks, window=(0, 60_000), poll_s=30.0, scaled=own, factor=3.0
    )
    assert cycle == pytest.approx(10.0)
    # at the recorded count, the recording's own longest cycle
    same = longest_poll_cycle(
        ends, durations, marks, window=(0, 60_000), poll_s=30.0, scaled=own, factor=1.0
    )
    assert same == pytest.approx(5.0)
