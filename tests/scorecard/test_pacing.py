"""Pacing: how each budget's spend is spread over its reset window. Hand-made rows for the
two shapes a fleet sees (front-loaded, the public 2026 report of craft-agents: ~4,500 of
5,000 points in the first minutes, then deferrals; and an even pace), and hypothesis
over a bucket that refills hourly and refuses what does not fit."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.artifacts.models import ScorecardArtifact
from ghbench.scorecard.pacing import FRONT_LOADED_SHARE
from ghbench.timefmt import iso_s
from ghbench.trace.schema import TraceRow

from .helpers import RESET_A, T0, gql, row, score

START = RESET_A - 3600  # T0: the reset window's first second


def _front_loaded(card: ScorecardArtifact) -> list[str | None]:
    return [w.budget for w in card.warnings if w.kind == "front-loaded"]


def test_a_budget_burnt_in_its_first_minutes_is_front_loaded() -> None:
    # craft-agents' shape: 4,500 of 5,000 points in the first 5 minutes, the rest by
    # minute 15, then refused until the window's end
    rows = [
        gql(60, 3500, cost=1500),
        gql(300, 500, cost=3000),
        gql(900, 0, cost=500),
        gql(1200, 0, cost=None, ok=False, rateLimited="primary"),
        gql(1800, 0, cost=None, ok=False, rateLimited="primary"),
    ]
    card = score(rows)
    assert card.insights.pacing is not None
    g = card.insights.pacing.graphql
    (w,) = g.windows
    assert (w.start, w.reset, w.limit) == (iso_s(START), iso_s(RESET_A), 5000)
    assert (w.spent_first_10_min, w.share_first_10_min) == (4500, 0.9)
    assert w.exhausted_after_seconds == 900.0
    assert w.refused_minutes == 40.0  # from 20 min, nothing answered after: the window's end
    assert (g.share_first_10_min, g.exhausted_after_seconds, g.refused_minutes) == (0.9, 900, 40)
    assert _front_loaded(card) == ["graphql"]
    (warning,) = [x for x in card.warnings if x.kind == "front-loaded"]
    assert warning.message.startswith(
        "GraphQL points were front-loaded: 4,500 of 5,000 (90%) spent in the first 10 minutes"
    )
    assert "ran out after 15m 0s, 40m 0s refused" in warning.message
    assert (warning.at, warning.seconds, warning.limit) == (iso_s(START), 900.0, "primary")
    # the refused minutes are the rate-limited warning's seconds: one rule, two views
    (limited,) = [x for x in card.warnings if x.kind == "rate-limited"]
    assert limited.seconds == w.refused_minutes * 60


def test_an_even_pace_spends_a_sixth_in_ten_minutes_and_is_not_front_loaded() -> None:
    # 4,800 points over the hour, 80 at the end of each minute (the 10th at 9m 59s)
    rows = [gql(60 * m - 1, 5000 - 80 * m, cost=80) for m in range(1, 61)]
    card = score(rows)
    assert card.insights.pacing is not None
    g = card.insights.pacing.graphql
    assert g.windows[0].spent_first_10_min == 800 and g.share_first_10_min == 0.16
    assert g.exhausted_after_seconds is None and g.refused_minutes == 0
    assert _front_loaded(card) == []


def test_a_window_whose_first_minutes_were_not_observed_has_no_share() -> None:
    # the measured window opens 20 minutes into the bucket's reset window
    card = score([gql(1500, 100, cost=1), gql(1600, 0, cost=1)], 1200, 3600)
    assert card.insights.pacing is not None
    (w,) = card.insights.pacing.graphql.windows
    assert w.share_first_10_min is None and w.spent_first_10_min is None
    assert w.exhausted_after_seconds == 1600.0
    assert _front_loaded(card) == []


def test_each_reset_window_is_paced_on_its_own() -> None:
    rows = [
        gql(100, 1000, cost=4000),  # the first hour: front-loaded
        gql(3700, 4900, cost=100, reset=RESET_A + 3600),  # the next: 2% by 10 minutes
    ]
    card = score(rows, 0, 4000)
    assert card.insights.pacing is not None
    first, second = card.insights.pacing.graphql.windows
    assert (first.share_first_10_min, second.share_first_10_min) == (0.8, 0.02)
    assert card.insights.pacing.graphql.share_first_10_min == 0.8  # the worst
    assert second.start == iso_s(RESET_A)


# one call: (seconds since the previous one, its cost)
calls = st.lists(
    st.tuples(st.integers(min_value=1, max_value=400), st.integers(min_value=1, max_value=30)),
    min_size=1,
    max_size=80,
)


def _bucket(spec: list[tuple[int, int]], limit: int) -> tuple[list[TraceRow], Truth]:
    """A GraphQL bucket of ``limit`` points whose window starts at T0 (its first charge):
    a call that does not fit is refused and charged nothing, as GitHub does. Returns the
    rows and what truly happened."""
    remaining, t = limit, 0
    rows: list[TraceRow] = []
    truth = Truth()
    headers = {
        "rateLimitResource": "graphql",
        "rateLimitLimit": limit,
        "rateLimitReset": RESET_A,
        "operation": "gh.api.graphql-batch",
    }
    for gap, cost in spec:
        t += gap
        if t >= 3600:
            break
        fits = cost <= remaining
        remaining -= cost if fits else 0
        fields = (
            {"ok": True, "graphqlCost": cost} if fits else {"ok": False, "rateLimited": "primary"}
        )
        rows.append(row(t, httpStatus=200, rateLimitRemaining=remaining, **headers, **fields))
        if t < 600:
            truth.spent_by_10 = limit - remaining
        if truth.ran_out is None and (not fits or remaining == 0):
            truth.ran_out = float(t)
    return rows, truth


@dataclass
class Truth:
    spent_by_10: int | None = None  # lost by the last row of the first 10 minutes
    ran_out: float | None = None  # seconds from the window's start


@settings(max_examples=120, deadline=None)
@given(calls, st.integers(min_value=20, max_value=400))
def test_pacing_holds_to_what_the_bucket_truly_did(spec: list[tuple[int, int]], limit: int) -> None:
    rows, truth = _bucket(spec, limit)
    if not rows:
        return
    card = score(rows)
    assert card.insights.pacing is not None
    (w,) = card.insights.pacing.graphql.windows
    assert w.limit == limit and w.start == iso_s(T0)
    # the share is what the bucket had lost by its last row in the first 10 minutes
    assert w.spent_first_10_min == truth.spent_by_10
    if w.share_first_10_min is not None:
        assert 0 <= w.share_first_10_min <= 1
    # it ran out at the first row that saw it at 0 or was refused, never otherwise
    assert w.exhausted_after_seconds == truth.ran_out
    # the minutes refused: the rate-limited warning's, and no more than the hour
    limited = [x for x in card.warnings if x.kind == "rate-limited" and x.budget == "graphql"]
    assert w.refused_minutes * 60 == pytest.approx(limited[0].seconds if limited else 0, abs=0.06)
    assert 0 <= w.refused_minutes <= 60
    # front-loaded exactly when half the limit or more went in the first 10 minutes
    spent = w.spent_first_10_min or 0
    assert (_front_loaded(card) == ["graphql"]) == (spent >= FRONT_LOADED_SHARE * limit)
