"""Replay: a recorded trace's calls re-issued against the emulator, scaled, with policies."""

import dataclasses
from collections import Counter

import msgspec
import pytest

from ghbench.simulation.agents import AgentRunSpec, run_agents
from ghbench.simulation.cell import run_cell
from ghbench.simulation.replay import ReplaySpec, replay_scorecard, replay_trace
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow
from ghbench.workload.replay import (
    CONTROL,
    NO_BODY,
    NO_QUERY,
    NO_REQUEST,
    REDACTED,
    UNKNOWN_COMMAND,
    ReplayPolicy,
)
from specs import model_spec


@pytest.fixture(scope="module")
def ao_rows() -> list[TraceRow]:
    # AO's TypeScript build's trace (gh's argv on every row: its GraphQL is re-issuable)
    spec = model_spec("S4", sessions=5, warmup_s=120.0, duration_s=600.0, seed=3, profile=TS)
    return run_cell(spec).rows


@pytest.fixture(scope="module")
def agent_rows() -> list[TraceRow]:
    return run_agents(AgentRunSpec(agents=3, duration_s=600.0), seed=3).rows


def _close(replayed: dict[str, int], recorded: dict[str, int], factor: float, tol: float) -> None:
    for budget, points in recorded.items():
        if points:
            assert abs(replayed.get(budget, 0) - factor * points) <= tol * factor * points, budget


TS = "ao-main-60e8c881"

AGENT_SLOW = pytest.param("agent_rows", marks=pytest.mark.slow)


@pytest.mark.parametrize("which", ["ao_rows", AGENT_SLOW])
def test_at_the_recorded_count_the_spend_matches(
    which: str, request: pytest.FixtureRequest
) -> None:
    rows = request.getfixturevalue(which)
    result = replay_trace(rows, ReplaySpec(), seed=1)
    assert result.sessions == result.recorded_sessions
    assert result.plan.skipped_rows == 0
    _close(result.replayed, result.recorded, 1.0, 0.10)


@pytest.mark.parametrize("which", ["ao_rows", AGENT_SLOW])
def test_at_three_times_the_sessions_it_spends_three_times(
    which: str, request: pytest.FixtureRequest
) -> None:
    rows = request.getfixturevalue(which)
    one = replay_trace(rows, ReplaySpec(), seed=1)
    three = replay_trace(rows, ReplaySpec(sessions=3 * one.recorded_sessions), seed=1)
    assert three.copies == 3.0
    _close(three.replayed, one.replayed, 3.0, 0.10)
    assert {r.sessionId for r in three.every_row} > {r.sessionId for r in one.every_row}


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["claude-code-gh-2.102", "claude-code-gh-2.23"])
def test_each_ghs_recording_replays_that_ghs_requests(profile: str) -> None:
    # the rows' GraphQL operations tell the captures apart (2.102's issue view reads the
    # issue's projects, its first pr checks detects features): the replay sends the same
    recorded = run_agents(AgentRunSpec(profile=profile, agents=2, duration_s=600.0), seed=2).rows
    replayed = replay_trace(recorded, ReplaySpec(), seed=1).agent_rows

    # a --watch poll re-issues the command's first request, not the poll's, which binds
    # to a first run the replay does not have (the same point: its count is compared)
    polled = {"PullRequestForBranch", "PullRequestStatusChecks"}

    def operations(rows: list[TraceRow]) -> Counter[str | None]:
        return Counter(r.graphqlOperation for r in rows if r.graphqlOperation not in polled)

    assert operations(replayed) == operations(recorded)
    assert len(replayed) == len(recorded)
    assert ("IssueProjectItems" in operations(recorded)) is profile.endswith("2.102")
    assert operations(recorded)["PullRequest_fields"] == (1 if profile.endswith("2.102") else 0)


@pytest.mark.slow
def test_a_fraction_of_a_copy_replays_a_share_of_the_sessions(agent_rows: list[TraceRow]) -> None:
    one = replay_trace(agent_rows, ReplaySpec(), seed=1)
    more = replay_trace(agent_rows, ReplaySpec(sessions=4), seed=1)  # 3 recorded
    assert len({r.sessionId for r in more.every_row}) == 4
    assert one.replayed["graphql"] < more.replayed["graphql"] < 2 * one.replayed["graphql"]


def _row(**fields: object) -> TraceRow:
    return TraceRow(timestamp="2026-04-17T09:05:00.000Z", **fields)  # type: ignore[arg-type]


def test_rows_that_cannot_be_reissued_are_counted_and_named(ao_rows: list[TraceRow]) -> None:
    odd = [
        _row(operation="gh.pr.view"),
        _row(operation="network", endpoint="graphql", method="POST"),
        _row(operation="network", endpoint="repos/acme/todo/issues", method="POST"),
        _row(operation="gh.api.user", args=["api", "user", "-H", "Authorization: [REDACTED]"]),
        _row(operation="rate", component=CONTROL_COMPONENT, args=["api", "rate_limit"]),
        _row(operation="gh.repo.clone", args=["repo", "clone", "acme/todo"]),
        _row(operation="network", endpoint="repos/acme/todo/pulls?state=open", method="GET"),
    ]
    result = replay_trace([*ao_rows, *odd], ReplaySpec(), seed=1)
    skipped = {reason: dict(ops) for reason, ops in result.plan.skipped.items()}
    assert skipped == {
        NO_REQUEST: {"gh.pr.view": 1},
        NO_QUERY: {"network": 1},
        NO_BODY: {"network": 1},
        REDACTED: {"gh.api.user": 1},
        CONTROL: {"rate": 1},
        UNKNOWN_COMMAND: {"gh.repo.clone": 1},
    }
    assert result.summary().not_reissued_rows == 6
    rest = [r for r in result.rows if r.endpoint == "repos/acme/todo/pulls?state=open"]
    assert len(rest) == 1 and rest[0].httpStatus == 200, "the network front's GET is re-issued"


@pytest.mark.slow
def test_policies_drop_cache_and_slow_a_poll(agent_rows: list[TraceRow]) -> None:
    base = replay_trace(agent_rows, ReplaySpec(), seed=1)
    counts = {op: sum(1 for r in agent_rows if r.operation == op) for op in ("gh.pr.checks",)}
    assert counts["gh.pr.checks"] > 0
    dropped = replay_trace(
        agent_rows, ReplaySpec(policy=ReplayPolicy(drop=frozenset({"gh.pr.checks"}))), seed=1
    )
    assert not any(r.operation == "gh.pr.checks" for r in dropped.every_row)
    assert dropped.policy["dropped"]["gh.pr.checks"] > 0
    assert dropped.replayed["graphql"] < base.replayed["graphql"]
    cached = replay_trace(
        agent_rows, ReplaySpec(policy=ReplayPolicy(ttl={"gh.pr.view": 60.0})), seed=1
    )
    assert cached.policy["cached"]["gh.pr.view"] > 0
    slower = replay_trace(
        agent_rows, ReplaySpec(policy=ReplayPolicy(interval={"gh.pr.view": 60.0})), seed=1
    )
    assert slower.policy["slower poll"]["gh.pr.view"] > cached.policy["cached"]["gh.pr.view"]
    assert slower.replayed["graphql"] < cached.replayed["graphql"] < base.replayed["graphql"]


def test_real_time_paces_the_calls(ao_rows: list[TraceRow]) -> None:
    """On the wall clock at 10,000x: the same calls and spend as in virtual time."""
    short = ao_rows[:40]
    virtual = replay_trace(short, ReplaySpec(), seed=1)
    paced = replay_trace(short, dataclasses.replace(ReplaySpec(), speed=10_000.0), seed=1)
    assert paced.replayed == virtual.replayed
    assert [r.operation for r in paced.rows] == [r.operation for r in virtual.rows]


def test_two_parts_in_parallel_spend_and_say_what_one_replay_does(
    agent_rows: list[TraceRow],
) -> None:
    """Copies split over a forked part: the same charges, and rows whose rate-limit
    headers read as one bucket (the scorecard's per-row consumption agrees)."""
    one = replay_trace(agent_rows, ReplaySpec(sessions=9, workers=1), seed=1)
    two = replay_trace(agent_rows, ReplaySpec(sessions=9, workers=2), seed=1)
    assert two.replayed == one.replayed
    assert len(two.every_row) == len(one.every_row)
    consumed = []
    for result in (one, two):
        split = replay_scorecard(result, scenario_id="replay-test").insights.spend_split
        assert split is not None and split.consumption is not None  # the agents' own trace
        assert split.consumption.graphql.source == "rows"
        consumed.append(split.consumption.graphql.points)
    # what the headers say the bucket lost: one replay's figure, the ledger's within 1%
    assert abs(consumed[1] - consumed[0]) <= 0.01 * consumed[0]
    assert abs(consumed[1] - two.replayed["graphql"]) <= 0.01 * two.replayed["graphql"]
    limits = {r.rateLimitLimit for r in two.every_row if r.rateLimitResource == "graphql"}
    assert limits == {5000 * 3}, "one bucket of three copies' budget"
    invocations = {r.invocationId for r in two.every_row}
    assert len(invocations) == two.calls, "the parts' invocation ids never collide"


def test_ao_0_10s_rows_replay_what_they_spent() -> None:
    """AO 0.10's rows are the front's: a GraphQL exchange keeps its body (``requestBody``),
    which is sent again, and a REST guard its ETag state (``ifNoneMatch``), so its 304s
    come back as 304s: the replay spends what the recording spent. A row from before
    that (no body) is named under "GraphQL row without its query"."""
    spec = model_spec("S2", sessions=2, warmup_s=60.0, duration_s=300.0, seed=2)
    rows = run_cell(spec).rows
    result = replay_trace(rows, ReplaySpec(), seed=1)
    assert result.plan.skipped == {}
    assert result.replayed == result.recorded
    older = [msgspec.structs.replace(r, requestBody=None) for r in rows]
    result = replay_trace(older, ReplaySpec(), seed=1)
    assert sum(result.plan.skipped[NO_QUERY].values()) == sum(
        1 for r in rows if r.endpoint == "graphql"
    )
