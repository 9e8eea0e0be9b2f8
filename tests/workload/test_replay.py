"""A recorded trace as calls to re-issue, on hand-made rows: each kind of row planned or
counted under its reason, the sessions' targets, the counterfactuals' checks."""

from collections import Counter

import pytest

from ghbench.errors import UsageError
from ghbench.policies.spec import parse_policies
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow
from ghbench.workload.replay import (
    CONTROL,
    NO_BODY,
    NO_QUERY,
    NO_REQUEST,
    REDACTED,
    UNKNOWN_COMMAND,
    PolicyGate,
    ReplayCall,
    ReplayPolicy,
    copy_repo,
    graphql_query,
    plan_replay,
    recorded_session_count,
    recorded_sessions,
)

BODY = '{"query": "query { viewer { login } }"}'


def _row(second: int, **kw: object) -> TraceRow:
    return TraceRow(timestamp=f"2026-04-17T09:00:{second:02d}.000Z", **kw)  # type: ignore[arg-type]


ROWS = [
    _row(1, operation="gh.api.pulls", sessionId="a", args=["api", "repos/o/r/pulls/7"],
         endpoint="/repos/o/r/pulls/7",
         durationMs=500.0),
    _row(2, operation="graphql.viewer", endpoint="graphql", requestBody=BODY),
    _row(3, operation="rest.pulls", endpoint="/repos/o/r/pulls?state=open", ifNoneMatch='"e"'),
    _row(4, operation="graphql.viewer", endpoint="graphql"),
    _row(5, operation="rest.comment", endpoint="/repos/o/r/issues/1/comments", method="POST"),
    _row(6, operation="gh.secret", args=["api", "-H", "Authorization: [REDACTED]", "user"]),
    _row(7, operation="gh.unknown", args=["frobnicate", "now"]),
    _row(8, operation="gh.nothing"),
    _row(9, operation="control.reset", component=CONTROL_COMPONENT, endpoint="/_control"),
    _row(10, operation="gh.pr.view", sessionId="b", args=["pr", "view", "3", "--repo", "o/s"]),
]  # fmt: skip


def test_each_kind_of_row_is_planned_or_counted_under_its_reason() -> None:
    plan = plan_replay(ROWS)
    kinds = [(c.operation, c.kind, c.session) for c in plan.calls]
    assert kinds == [("gh.api.pulls", "api", "a"), ("graphql.viewer", "graphql", ""),
                     ("rest.pulls", "rest", ""), ("gh.pr.view", "api", "b")]  # fmt: skip
    assert plan.calls[0].at == pytest.approx(plan.start)  # its start: the row's end less 0.5 s
    assert plan.calls[1].query == "query { viewer { login } }"
    assert plan.calls[2].conditional and plan.calls[2].endpoint == "/repos/o/r/pulls?state=open"
    assert plan.skipped == {
        NO_QUERY: Counter({"graphql.viewer": 1}),
        NO_BODY: Counter({"rest.comment": 1}),
        REDACTED: Counter({"gh.secret": 1}),
        UNKNOWN_COMMAND: Counter({"gh.unknown": 1}),
        NO_REQUEST: Counter({"gh.nothing": 1}),
        CONTROL: Counter({"control.reset": 1}),
    }
    assert plan.skipped_rows == 6 and plan.rows == len(ROWS)
    assert "rest.comment" in plan.operations and "gh.pr.view" in plan.operations


def test_a_sessions_target_is_learned_from_its_rows() -> None:
    plan = plan_replay(ROWS)
    a, b = plan.sessions["a"], plan.sessions["b"]
    assert (a.repo, a.pr) == ("o/r", 7)
    assert (b.repo, b.pr) == ("o/s", 3)
    assert plan.sessions[""].repo == "o/r"  # the unattributed rows' endpoints
    assert recorded_session_count(plan) == 2
    assert recorded_sessions(plan) == ["a", "b", ""]


def test_unattributed_sessions_are_counted_by_the_prs_touched() -> None:
    rows = [_row(1, args=["api", "repos/o/r/pulls/1"]), _row(2, args=["api", "repos/o/r/pulls/2"]),
            _row(3, args=["api", "repos/o/r/pulls/1"])]  # fmt: skip
    assert recorded_session_count(plan_replay(rows)) == 2
    assert recorded_session_count(plan_replay([])) == 1


def test_a_counterfactual_on_an_operation_never_made_names_the_ones_made() -> None:
    plan = plan_replay(ROWS)
    ReplayPolicy(drop=frozenset({"gh.secret"})).check(plan)  # skipped, but made
    with pytest.raises(UsageError, match=r"^--interval gh\.pr\.chekcs: .* it has .*gh\.pr\.view"):
        ReplayPolicy(interval={"gh.pr.chekcs": 60.0}).check(plan)


def test_drop_and_a_slower_poll_per_copy_and_session() -> None:
    gate = PolicyGate(ReplayPolicy(drop=frozenset({"x"}), interval={"poll": 60.0}))
    poll = ReplayCall(0.0, "s", "poll")
    assert gate.verdict(ReplayCall(0.0, "s", "x"), 0) == "dropped"
    assert gate.verdict(poll, 0) is None
    assert gate.verdict(ReplayCall(30.0, "s", "poll"), 0) == "slower poll"
    assert gate.verdict(ReplayCall(30.0, "s", "poll"), 1) is None  # another copy's
    assert gate.verdict(ReplayCall(30.0, "t", "poll"), 0) is None  # another session's
    assert gate.verdict(ReplayCall(60.0, "s", "poll"), 0) is None


def test_ttl_folds_into_the_cache_policy_and_never_beside_it() -> None:
    chosen = ReplayPolicy(ttl={"a": 10.0, "b": 30.0}).policies(parse_policies("gate"))
    assert chosen.names == ("cache", "gate") and chosen.cache is not None
    assert (chosen.cache.ttl_for("b"), chosen.cache.ttl_for("c")) == (30.0, None)
    assert not chosen.cache.coalesce and not chosen.cache.invalidate
    none = parse_policies("none")
    assert ReplayPolicy().policies(none) is none


def test_small_helpers() -> None:
    assert (copy_repo("o/r", 0), copy_repo("o/r", 2)) == ("o/r", "o/r-2")
    assert graphql_query(BODY) == "query { viewer { login } }"
    assert graphql_query("not json") == "" and graphql_query("[1]") == ""
    assert graphql_query('{"query": 3}') == ""
