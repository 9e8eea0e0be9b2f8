from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghbench.matrix.hygiene import (
    MARGIN_S,
    CellTiming,
    Go,
    Refuse,
    Wait,
    cell_timing,
    decide,
    estimate_cost,
)
from ghbench.runspec.cells import Cell

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


def test_timing_scales_warmup_and_window_and_the_models_poll() -> None:
    s2 = Cell("S2", "T1", 5)
    assert cell_timing(s2) == CellTiming(120.0, 900.0, 30.0)
    scaled = cell_timing(s2, duration_scale=0.1)
    assert scaled.runtime_s == pytest.approx(102.0) and scaled.poll_s == 30.0  # AO's own
    assert cell_timing(s2, duration_scale=0.1, scaled_poll=True).poll_s == 3.0
    assert cell_timing(s2, duration_scale=0.001, scaled_poll=True).poll_s == 1.0
    assert cell_timing(s2, duration_scale=0.1, tick_s=7.0, scaled_poll=True).poll_s == 7.0
    s3 = cell_timing(Cell("S3", "T1", 5), duration_scale=0.001)
    assert (s3.warmup_s, s3.window_s) == (0.0, 1.0)  # a window is at least a second
    # what the orchestrator is told: a tick given or scaled; nothing at its own 30 s
    assert cell_timing(s2, duration_scale=0.1, scaled_poll=True).tick_s == 3.0
    assert cell_timing(s2, tick_s=7.0).tick_s == 7.0
    assert cell_timing(s2, scaled_poll=True).tick_s is None
    assert cell_timing(s2, duration_scale=0.1).tick_s is None


def test_estimate_follows_the_cycles_the_scaled_run_really_has() -> None:
    cell = Cell("S2", "T1", 50)
    full = estimate_cost(cell)
    assert estimate_cost(cell, cell_timing(cell)) == full
    # AO keeps polling every 30 s: a tenth of the run is about a tenth of the polling
    ao = estimate_cost(cell, cell_timing(cell, duration_scale=0.1))
    colds = estimate_cost(cell, CellTiming(0.0, 0.0))  # what a start costs, however short
    assert ao["graphql"] - colds["graphql"] == pytest.approx(
        (full["graphql"] - colds["graphql"]) / 10, abs=1
    )
    # the model's interval shrinks with the run: as many cycles, the same polling
    model = estimate_cost(cell, cell_timing(cell, duration_scale=0.1, scaled_poll=True))
    assert model["graphql"] == pytest.approx(full["graphql"], abs=1)


def test_a_scaled_run_fits_where_the_runbooks_would_straddle() -> None:
    cell = Cell("S2", "T1", 5)
    soon = B(reset=int(NOW) + 600)  # 10 minutes to the reset
    full, scaled = cell_timing(cell), cell_timing(cell, duration_scale=0.1)
    assert isinstance(decide({"core": soon}, NOW, full.runtime_s, NEED), Wait)
    assert isinstance(decide({"core": soon}, NOW, scaled.runtime_s, NEED), Go)
