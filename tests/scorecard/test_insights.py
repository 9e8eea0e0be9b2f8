"""insights: consumption, attributed spend, secondary limits, breakdowns."""

from __future__ import annotations

import numpy as np

from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.scorecard import Snapshots
from ghbench.scorecard.insights import peak_concurrency

from .helpers import RESET_B, T0, T0_MS, frame, gql, opaque, rest, row, score, snapshots


def test_consumption_counts_the_first_call_of_each_reset_window() -> None:
    # three 1-point queries: the spec's first − last sees 2, the budget lost 3
    rows = [gql(1.0, 4999), gql(2.0, 4998), gql(3.0, 4997)]
    a = score(rows, 0, 3600)
    assert a.scorecard.graphql_points_per_hr == 2.0
    c = a.insights.consumption.graphql
    assert (c.source, c.points, c.per_hr, c.reset_windows, c.first_call_points) == (
        "rows",
        3,
        3.0,
        1,
        1,
    )


def test_free_calls_after_a_first_paid_one_are_not_zero() -> None:
    rows = [rest(1.0, 4999, status=200)] + [rest(2.0 + i, 4999, status=304) for i in range(9)]
    a = score(rows, 0, 3600)
    assert a.scorecard.rest_core_requests_per_hr == 0.0
    assert a.insights.consumption.core.points == 1


def test_consumption_per_reset_window_across_a_reset() -> None:
    rows = [gql(1.0, 100, cost=5), gql(2.0, 90, cost=10), gql(3.0, 4996, cost=4, reset=RESET_B)]
    c = score(rows, 0, 3600).insights.consumption.graphql
    assert (c.points, c.reset_windows, c.first_call_points) == (10 + 5 + 4, 2, 9)


def test_consumption_falls_back_to_the_bracket() -> None:
    a = score([opaque(1.0)], 0, 1800, snapshots=snapshots(graphql=(4000, 3900)))
    c = a.insights.consumption.graphql
    assert (c.source, c.points, c.per_hr) == ("bracket", 100, 200.0)
    assert a.insights.consumption.core.source is None


def test_attributed_spend_and_what_is_left_unattributed() -> None:
    rows = [
        gql(1.0, 4990, cost=3),  # 3 points, known
        opaque(2.0),  # a gh pr view: GraphQL points nobody priced
        gql(3.0, 4980, cost=3),  # remaining fell by 10 for a 3-point call
        rest(4.0, 4999, status=200),  # 1 core
        rest(5.0, 4999, status=304),  # 0 core
        rest(6.0, 4997, status=200),  # 1 core, but 2 left the bucket
    ]
    i = score(rows, 0, 3600).insights
    g = i.attributed_spend.graphql
    assert (g.priced_calls, g.attributed_points, g.attributed_per_hr) == (2, 6, 6.0)
    assert g.consumed_per_hr == 13.0  # 3 (first call) + 4990 − 4980
    assert g.unattributed_per_hr == 7.0
    c = i.attributed_spend.core
    assert (c.priced_calls, c.attributed_points, c.consumed_per_hr, c.unattributed_per_hr) == (
        3,
        2,
        3.0,
        1.0,
    )


def test_unattributed_is_never_negative() -> None:
    # costs reported by calls whose spend never showed in a header row: the headers
    # under-observe, and nothing is left unattributed (never a refund)
    rows = [gql(1.0, 4990, cost=1), gql(2.0, None, cost=50), gql(3.0, 4989, cost=1)]
    g = score(rows, 0, 3600).insights.attributed_spend.graphql
    assert g.attributed_points == 52 and g.consumed_per_hr == 2.0
    assert g.unattributed_per_hr == 0.0


def test_peak_concurrency_sweep() -> None:
    # [0,10) [5,15) [10,20) [12,13): at 12 three are in flight; touching ends do not overlap
    rows = [
        opaque(10.0, durationMs=10_000.0),
        opaque(15.0, durationMs=10_000.0),
        opaque(20.0, durationMs=10_000.0),
        opaque(13.0, durationMs=1_000.0),
        opaque(30.0),  # has the default 100 ms
        row(31.0, operation="gh.pr.view", durationMs=None),  # no duration: left out
    ]
    p = score(rows, 0, 60).insights.secondary_limits.concurrency
    assert (p.peak, p.at, p.limit) == (3, "2026-04-16T14:00:12.000Z", 100)


def test_peak_concurrency_of_back_to_back_calls_is_one() -> None:
    ts = np.array([T0_MS + 1000, T0_MS + 2000, T0_MS + 3000], dtype=np.int64)
    assert peak_concurrency(ts, np.array([1000.0, 1000.0, 1000.0])).peak == 1
    assert peak_concurrency(ts, np.array([0.0, 0.0, 0.0])).peak == 0
    assert peak_concurrency(ts[:0], np.array([])).at is None


def test_peak_points_per_minute_by_budget_with_write_and_mutation_weights() -> None:
    rows = [
        rest(61.0, 4999, status=304),  # 1 (a 304 still counts here)
        rest(62.0, 4998, method="POST", operation="gh.api.repos"),  # 5
        row(63.0, operation="gh.api.repos", method="GET"),  # REST by its name: 1
        rest(130.0, 4997),  # next minute: 1
        gql(64.0, 4990, cost=30),  # 1 query
        opaque(65.0, "gh.pr.merge"),  # a mutation: 5
        opaque(66.0, "gh.pr.view"),  # 1
        row(67.0, operation="something.else"),  # unknown budget: not counted
    ]
    limits = score(rows, 0, 3600).insights.secondary_limits
    r, g = limits.rest_points_per_minute, limits.graphql_points_per_minute
    assert (r.peak, r.at, r.limit) == (7, "2026-04-16T14:01:00Z", 900)
    assert (g.peak, g.at, g.limit) == (7, "2026-04-16T14:01:00Z", 2000)


def test_operation_and_session_breakdowns() -> None:
    rows = [
        gql(1.0, 4990, cost=4, sessionId="ta-1"),
        gql(2.0, 4986, cost=2, sessionId="ta-2"),
        rest(3.0, 4999, status=200, sessionId="ta-1"),
        rest(4.0, 4999, status=304),
        opaque(5.0, sessionId="ta-1"),
    ]
    i = score(rows, 0, 60).insights
    ops = [(b.key, b.calls, b.opaque_calls, b.graphql_points, b.core_points) for b in i.operations]
    assert ops == [
        ("gh.api.graphql-batch", 2, 0, 6, 0),
        ("gh.api.guard-pr-list", 2, 0, 0, 1),
        ("gh.pr.view", 1, 1, 0, 0),
    ]
    assert i.sessions is not None
    sessions = [(b.key, b.calls, b.graphql_points, b.core_points) for b in i.sessions]
    assert sessions == [("ta-1", 3, 4, 1), ("ta-2", 1, 2, 0), (None, 1, 0, 0)]
    assert score([opaque(1.0)]).insights.sessions is None


def test_snapshots_become_the_artifacts_core_and_graphql_in_whole_seconds() -> None:
    def snap(at: float, remaining: int) -> RateLimitSnapshot:
        core = Bucket(limit=5000, remaining=remaining, used=5000 - remaining, reset=RESET_B)
        search = Bucket(limit=30, remaining=30, used=0, reset=RESET_B)
        return RateLimitSnapshot(captured_at=at, resources={"core": core, "search": search})

    a = score(
        [opaque(1.0)], snapshots=Snapshots(before=snap(T0 + 0.4, 4990), after=snap(T0 + 3600, 4970))
    )
    assert a.scorecard.bracket_delta.core == 20
    assert a.scorecard.rest_core_requests_per_hr == 20.0
    snap_record = a.rate_limit_snapshots
    assert snap_record is not None and snap_record.before is not None
    assert snap_record.before.captured_at == "2026-04-16T14:00:00Z"
    assert snap_record.before.graphql is None
    assert snap_record.before.core is not None and snap_record.before.core.reset == RESET_B
    assert score([opaque(1.0)], snapshots=Snapshots()).rate_limit_snapshots is None


def test_the_split_reads_both_traces_as_one_bucket_and_one_users_limits() -> None:
    """The orchestrator polls rarely, its agents often, on one user's bucket: the
    orchestrator's rows alone see part of what the bucket lost; both traces see it all,
    and their calls together make the busiest minute and the most in flight."""
    orchestrator = [gql(1.0, 4990, cost=1), gql(50.0, 4900, cost=1)]
    agents = [
        gql(2.0 + i, 4989 - i, cost=1, operation="gh.pr.checks", sessionId="ta-1", durationMs=900.0)
        for i in range(120)
    ]
    a = score(orchestrator, 0, 3600, agent_frame=frame(*agents), agent_model="claude-code")
    split = a.insights.spend_split
    assert split is not None and split.agent_model == "claude-code"
    assert a.insights.consumption.graphql.points == 91  # 4990 → 4900, and the first call
    assert split.consumption is not None
    assert split.consumption.graphql.points == 4990 - 4870 + 1  # to the agents' last row
    assert (split.orchestrator.graphql_points, split.agents.graphql_points) == (2, 120)
    assert split.secondary_limits is not None
    assert split.secondary_limits.graphql_points_per_minute.peak == 60  # 2 + 58 in 14:00
    assert a.insights.secondary_limits.graphql_points_per_minute.peak == 2
    assert split.secondary_limits.concurrency.peak == 2  # an agent's call beside the next
    assert [s.key for s in split.agent_sessions] == ["ta-1"]
