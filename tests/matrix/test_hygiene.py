from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from ghbench.matrix.cells import Cell
from ghbench.matrix.hygiene import MARGIN_S, Go, Refuse, Wait, decide, estimate_cost

NOW = 1_776_400_000.0
RUN = 17 * 60.0
NEED = {"core": 100, "graphql": 100}


@dataclass(frozen=True)
class B:
    limit: int = 5000
    remaining: int = 4000
    used: int = 1000
    reset: int = int(NOW) + 1800


def test_go_in_the_middle_of_a_window() -> None:
    assert isinstance(decide({"core": B(), "graphql": B()}, NOW, RUN, NEED), Go)


def test_fresh_bucket_starts_its_own_window() -> None:
    fresh = B(remaining=5000, used=0, reset=int(NOW) + 3600)
    assert isinstance(decide({"core": fresh, "graphql": fresh}, NOW, RUN, NEED), Go)


def test_waits_past_a_reset_it_would_straddle() -> None:
    soon = B(reset=int(NOW) + 600)
    d = decide({"core": soon, "graphql": B()}, NOW, RUN, NEED)
    assert isinstance(d, Wait)
    assert d.until == soon.reset + MARGIN_S
    assert "core resets" in d.reason


def test_waits_until_five_minutes_into_a_new_window() -> None:
    just_started = B(reset=int(NOW) + 3600 - 60)
    d = decide({"core": just_started}, NOW, RUN, NEED)
    assert isinstance(d, Wait) and d.until == NOW - 60 + MARGIN_S


def test_refuses_when_budget_too_low_in_this_window() -> None:
    d = decide({"graphql": B(remaining=50)}, NOW, RUN, NEED)
    assert isinstance(d, Refuse) and "graphql: 50 of 5,000 remaining" in d.reason


def test_low_budget_is_fine_when_the_wait_crosses_the_reset() -> None:
    d = decide({"graphql": B(remaining=50, reset=int(NOW) + 600)}, NOW, RUN, NEED)
    assert isinstance(d, Wait)


def test_refuses_runs_longer_than_a_window_allows() -> None:
    assert isinstance(decide({}, NOW, 55 * 60.0, NEED), Refuse)
    assert isinstance(decide({"core": B()}, NOW, RUN, {"core": 6000}), Refuse)


def test_estimate_grows_with_scale() -> None:
    small, big = estimate_cost(Cell("S2", "T1", 5)), estimate_cost(Cell("S2", "T1", 50))
    assert big["graphql"] > small["graphql"] and big["core"] > small["core"]


@given(
    reset_in=st.integers(min_value=-100, max_value=3700),
    used=st.integers(min_value=0, max_value=5000),
    run=st.floats(min_value=60, max_value=3000),
)
def test_go_never_straddles_or_hugs_a_reset(reset_in: int, used: int, run: float) -> None:
    b = B(remaining=5000 - used, used=used, reset=int(NOW) + reset_in)
    d = decide({"core": b}, NOW, run, {"core": 1})
    if isinstance(d, Go) and used > 0 and b.reset > NOW:
        assert NOW + run <= b.reset - MARGIN_S
        assert b.reset - 3600 + MARGIN_S <= NOW
    if isinstance(d, Wait):
        assert d.until > NOW
