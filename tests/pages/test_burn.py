"""The burn curve's points: ``remaining`` per budget from the headers, a GraphQL body's
own figure where there are none, the snapshots, the agents' trace with the
orchestrator's, the largest limit said; and the curve thinned without losing its
extremes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ghbench.pages.burn import BurnSeries, burn_points
from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow

T0 = 1_776_348_000.0


def _frame(*rows: tuple[float, dict[str, Any]]) -> TraceFrame:
    return TraceFrame.from_rows([TraceRow(timestamp=iso_ms(T0 + at), **f) for at, f in rows])


def _rest(remaining: int, limit: int | None = 5000, resource: str = "core") -> dict[str, Any]:
    return {
        "rateLimitResource": resource,
        "rateLimitRemaining": remaining,
        "rateLimitLimit": limit,
    }


def test_the_burn_curve_is_thinned_to_its_extremes_per_column() -> None:
    times = np.arange(10_000, dtype=np.float64)
    remaining = (5000 - np.arange(10_000) // 3).astype(np.int64)
    remaining[5_000] = 17  # a dip inside one column must survive
    series = BurnSeries("core", times, remaining, 5000).thinned(100)
    assert len(series.times) <= 400
    assert series.times[0] == 0 and series.times[-1] == 9_999
    assert series.remaining.min() == 17 and series.remaining.max() == 5000
    assert series.remaining[-1] == remaining[-1]
    assert np.all(np.diff(series.times) >= 0)


def test_each_budget_its_points_in_time_order_and_its_largest_limit() -> None:
    orchestrator = _frame(
        (10, _rest(4990)),
        (30, _rest(4980, limit=None)),
        (20, _rest(99, limit=100, resource="search")),
        (40, {"operation": "gh.pr.view"}),  # no figure: no point
    )
    agents = _frame((20, _rest(4985, limit=15_000)))
    core, search = burn_points(orchestrator, also=[agents])
    assert (core.resource, search.resource) == ("core", "search")
    assert list(core.times - T0) == [10.0, 20.0, 30.0]  # the agents' row between ours
    assert list(core.remaining) == [4990, 4985, 4980]
    assert core.limit == 15_000 and search.limit == 100


def test_a_graphql_bodys_figure_where_the_row_has_no_headers() -> None:
    frame = _frame(
        (5, {"graphqlRemaining": 4999, "graphqlCost": 1}),
        (6, _rest(4900, resource="graphql") | {"graphqlRemaining": 1}),  # headers win
    )
    (graphql,) = burn_points(frame)
    assert list(graphql.remaining) == [4999, 4900]


def test_the_snapshots_add_their_points_and_a_limit_no_row_said() -> None:
    before = RateLimitSnapshot(T0, {"graphql": Bucket(5000, 5000, 0, 0)})
    after = RateLimitSnapshot(T0 + 60, {"graphql": Bucket(5000, 4000, 1000, 0)})
    (graphql,) = burn_points(_frame((30, {"graphqlRemaining": 4500})), [before, None, after])
    assert list(graphql.times - T0) == [0.0, 30.0, 60.0]
    assert list(graphql.remaining) == [5000, 4500, 4000] and graphql.limit == 5000
    assert burn_points(_frame((1, {"operation": "gh.pr.view"}))) == []


def test_a_short_curve_is_not_thinned() -> None:
    series = BurnSeries("core", np.arange(8, dtype=np.float64), np.arange(8, dtype=np.int64))
    assert series.thinned(2) is series
