"""The solvers' bisection on probes whose spend is known in closed form: the fastest
interval that fits and the most agents that fit, found in a handful of runs, and what
binds when nothing or everything fits."""

from __future__ import annotations

import math

import pytest

from ghbench.analysis.capacity import BudgetUse, Probe
from ghbench.analysis.capacity_solve import solve_agents, solve_tick


def _agents_probe(agents: int, *, per_agent: float) -> Probe:
    """A run whose GraphQL spend grows with its agents: 500 points an hour of the
    orchestrator's and ``per_agent`` per agent."""
    uses = (BudgetUse("graphqlPointsPerHr", 500 + per_agent * agents, 5_000.0),)
    return Probe(sessions=20, uses=uses)


@pytest.mark.parametrize("per_agent", [0.0, 100.0, 200.0, 450.0, 9_000.0])
def test_the_solver_finds_the_most_agents_that_fit(per_agent: float) -> None:
    result = solve_agents(
        lambda m: _agents_probe(m, per_agent=per_agent), sessions=20, fraction=0.8
    )
    best = int((4_000 - 500) // per_agent) if per_agent else 20
    if best >= 20:  # every session's agent fits
        assert result.value == 20 and result.beyond is None
        return
    assert result.value == best and result.beyond is not None
    assert result.beyond.value == best + 1 and result.limiting == "graphqlPointsPerHr"
    assert len(result.tried) <= 7  # a bisection, not a scan


def _probe(tick: int, *, spend_at_1s: float) -> Probe:
    """A run whose GraphQL spend falls as the interval grows (per hour: one tick's cost
    times ticks an hour)."""
    uses = (BudgetUse("graphqlPointsPerHr", spend_at_1s / tick, 5_000.0),)
    return Probe(10, uses)


@pytest.mark.parametrize("spend", [100.0, 4_000.0, 40_000.0, 400_000.0])
def test_the_solver_finds_the_least_interval_that_fits(spend: float) -> None:
    result = solve_tick(
        lambda t: _probe(t, spend_at_1s=spend), sessions=10, fraction=0.8, slowest=60
    )
    expected = math.ceil(spend / 4_000.0)
    if expected > 60:
        assert result.value is None and result.at is None
        assert result.beyond is not None and result.beyond.value == 60
    else:
        assert result.value == max(1, expected)
        assert result.beyond is None or result.beyond.value == expected - 1
    assert len(result.tried) <= 9  # bisection over 1..60


def test_when_even_no_agent_fits_the_answer_is_none_and_names_what_binds() -> None:
    result = solve_agents(lambda m: _agents_probe(m, per_agent=1.0), sessions=4, fraction=0.01)
    assert (result.value, result.at) == (None, None)
    assert result.beyond is not None and result.beyond.value == 0
    assert [a.value for a in result.tried] == [0, 4]  # every count, then none: two runs
    assert result.limiting == "graphqlPointsPerHr"


def test_when_the_fastest_interval_fits_it_is_the_answer_in_two_runs() -> None:
    result = solve_tick(lambda t: _probe(t, spend_at_1s=10.0), sessions=3, fraction=0.8)
    assert (result.value, result.beyond) == (1, None)
    assert [t.value for t in result.tried] == [1, 60]
    assert result.limiting == "graphqlPointsPerHr"


def test_each_interval_is_run_once() -> None:
    calls: list[int] = []

    def probe(tick: int) -> Probe:
        calls.append(tick)
        return _probe(tick, spend_at_1s=100_000.0)

    result = solve_tick(probe, sessions=3, fraction=0.8, fastest=5, slowest=40)
    assert result.value == 25 and result.beyond is not None and result.beyond.value == 24
    assert len(calls) == len(set(calls)) == len(result.tried)


@pytest.mark.parametrize(("fastest", "slowest"), [(0, 60), (10, 9)])
def test_bounds_out_of_order_are_refused(fastest: int, slowest: int) -> None:
    with pytest.raises(ValueError, match="interval bounds"):
        solve_tick(lambda t: _probe(t, spend_at_1s=1.0), sessions=1, fraction=0.8,
                   fastest=fastest, slowest=slowest)  # fmt: skip
    with pytest.raises(ValueError, match="sessions 0"):
        solve_agents(lambda m: _agents_probe(m, per_agent=1.0), sessions=0, fraction=0.8)
