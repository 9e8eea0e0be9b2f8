"""A fleet's policies in front of a replay's calls: what a replay refuses to run, how a
replayed call is priced and keyed for the stack, and what GitHub's answers tell it."""

import pytest

from ghbench.errors import UsageError
from ghbench.policies.calls import Verdict
from ghbench.policies.spec import parse_policies
from ghbench.simulation.replay_policies import NOT_REPLAYED, ReplayStack, check_replayable
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import ReplayCall

LIMITS = {"core": 5000, "graphql": 5000}


@pytest.mark.parametrize("name", sorted(NOT_REPLAYED))
def test_a_policy_a_replay_cannot_run_is_refused_naming_the_flag(name: str) -> None:
    with pytest.raises(UsageError, match=rf"^--lab {name}: not run by a replay"):
        check_replayable(parse_policies(f"cache+{name}"), flag="--lab")
    check_replayable(parse_policies("cache+gate+reserve+cooldown"))


def test_a_call_is_priced_by_its_request_and_keyed_per_copy() -> None:
    stack = ReplayStack(parse_policies("cache"), LIMITS)
    rest = ReplayCall(0.0, "a", "gh.api.pull", ("api", "repos/o/r/pulls/1"))
    call = stack.call(rest, at=5.0, session="a#1", argv=rest.argv, repo="o/r-1")
    assert (call.graphql, call.core, call.write, call.at, call.repo) == (
        0.0,
        1.0,
        False,
        5.0,
        "o/r-1",
    )
    comment = ("api", "-X", "POST", "repos/o/r/issues/1/comments", "-f", "body=x")
    post = ReplayCall(0.0, "a", "gh.api.comment", comment)
    assert stack.call(post, at=0.0, session="a", argv=post.argv, repo="o/r").write
    graphql = ReplayCall(0.0, "", "graphql.q", kind="graphql", endpoint="graphql",
                         body='{"query": "mutation { x }"}')  # fmt: skip
    priced = stack.call(graphql, at=0.0, session="#2", argv=(), repo="o/r-2")
    assert (priced.graphql, priced.core, priced.write) == (1.0, 0.0, True)
    # a 304 recorded costs nothing; `gh api` is keyed by its argv alone (any session's
    # identical call is the cache's), a bare request per copy
    cond = ReplayCall(0.0, "", "rest.pulls", kind="rest", endpoint="/x", recorded_status=304)
    assert stack.call(cond, at=0.0, session="#1", argv=(), repo="").core == 0.0
    other = stack.call(rest, at=6.0, session="b#1", argv=rest.argv, repo="o/r-1")
    assert other.key == call.key
    assert stack.call(cond, at=0.0, session="#1", argv=(), repo="").key != stack.call(
        cond, at=0.0, session="#2", argv=(), repo="").key  # fmt: skip


def test_the_budget_left_is_what_the_last_answer_said() -> None:
    stack = ReplayStack(parse_policies("reserve:percent=50"), {"core": 100, "graphql": 100})
    assert stack.limits == {"graphql": 5000.0, "core": 5000.0}  # never below a token's
    rest = ReplayCall(0.0, "a", "gh.api.pull", ("api", "repos/o/r/pulls/1"))
    call = stack.call(rest, at=0.0, session="a", argv=rest.argv, repo="o/r")
    answer = TraceRow(timestamp="t", rateLimitResource="core", rateLimitLimit=5000,
                      rateLimitRemaining=2000)  # fmt: skip
    stack.answered(call, answer, 0.0)
    assert stack.left["core"] == 2000.0
    assert stack.admit(call).verdict is Verdict.RESERVED


def test_a_rate_limited_batch_starts_the_cooldown_with_an_error_answers_reset() -> None:
    stack = ReplayStack(parse_policies("cooldown"), LIMITS)
    batch = ReplayCall(0.0, "", "gh.api.graphql-batch", kind="graphql", endpoint="graphql",
                       body='{"query": "query { a }"}')  # fmt: skip
    call = stack.call(batch, at=100.0, session="#0", argv=(), repo="")
    call.agent = False
    refused = TraceRow(timestamp="t", rateLimited=True, httpStatus=403, rateLimitReset=200)
    stack.answered(call, refused, 100.0)
    cooldown = stack.stack.cooldown
    assert cooldown is not None and cooldown.until == 200.0
    assert stack.admit(call).verdict is Verdict.COOLING
