"""ghbench.record.rows: rows from the exchanges in gh's debug log (pure)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ghbench.record.debuglog import DebugMode, split_debug_log
from ghbench.record.exchange import Exchange
from ghbench.record.rows import Invocation, exchange_rows, graphql_operation
from ghbench.trace.operation import endpoint_of
from ghbench.trace.schema import TraceRow

FIXTURES = Path(__file__).parent / "fixtures"


def exchanges(stem: str) -> list[Exchange]:
    data = (FIXTURES / f"{stem}.debug.stderr").read_bytes()
    return split_debug_log(data, DebugMode.OFF)[0]


def invocation(args: list[str], exit_code: int | None = 0, **kw: str) -> Invocation:
    return Invocation(
        args=args, exit_code=exit_code, component="record", invocation_id="inv-1", **kw
    )


@pytest.mark.parametrize(
    ("target", "endpoint"),
    [
        ("/graphql", "graphql"),
        ("/api/graphql", "graphql"),
        (
            "/repos/acme/todo/pulls?state=open&per_page=1",
            "repos/acme/todo/pulls?state=open&per_page=1",
        ),
        ("/api/v3/repos/acme/todo", "repos/acme/todo"),
        ("/rate_limit", "rate_limit"),
        ("/user?access_token=abc123&x=1", "user?access_token=[REDACTED]&x=1"),
        (None, None),
    ],
)
def test_endpoint_of(target: str | None, endpoint: str | None) -> None:
    assert endpoint_of(target) == endpoint


@pytest.mark.parametrize(
    ("body", "name"),
    [
        ("GraphQL query:\nquery PullRequestByNumber($owner: String!) {\n", "PullRequestByNumber"),
        ('{\n  "query": "mutation PullRequestCreate($input: X!) { a }"\n}', "PullRequestCreate"),
        ('{"query": "query($query: String!) { search(query: $query) { n } }"}', None),
        ('{"query": "{ viewer { login } }"}', None),
        ("", None),
    ],
)
def test_graphql_operation(body: str, name: str | None) -> None:
    assert graphql_operation(body) == name


def test_pr_view_row_has_status_and_rate_limit() -> None:
    [row] = exchange_rows(
        exchanges("pr_view"),
        invocation(["pr", "view", "1", "--repo", "acme/todo", "--json", "state"], cwd="/w"),
        fallback_time=0.0,
    )
    assert row.operation == "gh.pr.view"
    assert row.endpoint == "graphql"
    assert row.method == "POST"
    assert row.httpStatus == 200
    assert row.statusLine == "HTTP/1.1 200 OK"
    assert row.rateLimitResource == "graphql"
    assert row.rateLimitLimit == 5000
    assert row.rateLimitRemaining is not None and row.rateLimitRemaining < 5000
    assert row.rateLimitReset is not None
    assert row.graphqlOperation == "PullRequestByNumber"
    assert row.ok is True and row.exitCode is None
    assert row.origin == "record" and row.invocationId == "inv-1" and row.requestIndex == 0
    assert row.cwd == "/w"
    assert row.timestamp.endswith("Z") and not row.timestamp.startswith("1970")


def test_graphql_rate_limit_comes_from_the_body() -> None:
    [row] = exchange_rows(
        exchanges("graphql_ratelimit"),
        invocation(["api", "graphql", "-f", "query=query Budget { rateLimit { cost } }"]),
        fallback_time=0.0,
    )
    assert row.graphqlCost == 1
    assert row.graphqlRemaining is not None
    assert row.graphqlResetAt is not None and row.graphqlResetAt.endswith("Z")
    assert row.graphqlOperation == "Budget"


def test_failed_invocation_rows_carry_the_exit_code() -> None:
    [row] = exchange_rows(
        exchanges("api_304"),
        invocation(["api", "-i", "repos/acme/todo/pulls?per_page=1"], exit_code=1),
        fallback_time=0.0,
    )
    assert (row.httpStatus, row.ok, row.exitCode) == (304, False, 1)
    assert row.etag is not None


def test_signal_rows() -> None:
    rows = exchange_rows(
        exchanges("pr_view"),
        Invocation(["pr", "view"], None, "c", "i", signal="SIGTERM"),
        fallback_time=0.0,
    )
    assert (rows[0].ok, rows[0].exitCode, rows[0].signal) == (False, None, "SIGTERM")


def test_paginated_rows_share_an_invocation_and_are_numbered() -> None:
    rows = exchange_rows(
        exchanges("paginate"), invocation(["api", "--paginate", "x"]), fallback_time=0.0
    )
    assert [r.requestIndex for r in rows] == list(range(len(rows)))
    assert {r.invocationId for r in rows} == {"inv-1"}


def test_transport_error_row_has_no_status() -> None:
    [row] = exchange_rows(
        exchanges("transport_error"), invocation(["api", "x"], 1), fallback_time=5.0
    )
    assert row.httpStatus is None and row.rateLimitRemaining is None
    assert row.durationMs is not None


def test_cache_hit_rows_drop_stale_rate_limit_fields() -> None:
    [row] = exchange_rows(
        exchanges("graphql_ratelimit"),
        invocation(["api", "graphql"]),
        fallback_time=0.0,
        cache_hits={0},
    )
    assert row.cacheHit is True
    assert row.httpStatus == 200
    assert (row.rateLimitRemaining, row.graphqlCost, row.rateLimitResource) == (None, None, None)


def test_args_are_redacted() -> None:
    [row] = exchange_rows(
        exchanges("pr_view"),
        invocation(["api", "-H", "Authorization: token ghp_abc", "-f", "token=ghp_abc", "user"]),
        fallback_time=0.0,
    )
    assert "ghp_abc" not in msgspec.json.encode(row).decode()


def test_rows_encode_as_trace_rows() -> None:
    rows = exchange_rows(exchanges("pr_view"), invocation(["pr", "view", "1"]), fallback_time=0.0)
    line = msgspec.json.encode(rows[0])
    assert msgspec.json.decode(line, type=TraceRow) == rows[0]
