"""One row per request an agent's gh sends (gh 2.102.0's requests): its command's
operation and invocation, GitHub's published cost for a GraphQL query gh never asks the
cost of, a rate limit's refusal as a failure without a charge, and no credential."""

import json

from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.rows import exchange_row
from ghbench.workload.ghmap import HttpRequest, HttpResponse

SECRET = "ghp_agentrowsecret000000000000000000000"
QUERY = (
    "query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) {"
    " repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) {"
    " number labels(first: 100) { nodes { name } } } } }"
)
VARIABLES = {"owner": "acme", "repo": "todo", "pr_number": 3}
LIMITS = [
    ("X-RateLimit-Limit", "5000"),
    ("X-RateLimit-Remaining", "4990"),
    ("X-RateLimit-Reset", "1777000000"),
    ("X-RateLimit-Resource", "graphql"),
]


def _graphql(query: str = QUERY) -> HttpRequest:
    body = json.dumps({"query": query, "variables": VARIABLES}).encode()
    return HttpRequest("POST", "/graphql", {"Authorization": f"token {SECRET}"}, body)


def _row(
    request: HttpRequest, response: HttpResponse, argv: tuple[str, ...] = ("pr", "view", "3")
) -> TraceRow:
    return exchange_row(
        request,
        response,
        started_at=100.0,
        finished_at=100.25,
        argv=argv,
        session_id="ta-1",
        invocation_id="ta-1-4",
        request_index=2,
        secrets=(SECRET, ""),
    )


def test_a_graphql_request_is_priced_by_the_published_formula() -> None:
    row = _row(_graphql(), HttpResponse(200, LIMITS, b'{"data":{}}'))
    assert row.graphqlCost == estimate_graphql_cost(QUERY, VARIABLES) and row.graphqlCost >= 1
    assert (row.graphqlCostEstimated, row.graphqlOperation, row.endpoint) == (
        True,
        "PullRequestByNumber",
        "graphql",
    )
    assert (row.component, row.origin, row.operation) == ("agent", "agent", "gh.pr.view")
    assert (row.sessionId, row.invocationId, row.requestIndex) == ("ta-1", "ta-1-4", 2)
    assert (row.timestamp, row.durationMs, row.ok, row.exitCode) == (
        "1970-01-01T00:01:40.250Z",
        250.0,
        True,
        None,
    )
    assert (row.rateLimitLimit, row.rateLimitRemaining, row.rateLimitResource) == (
        5000,
        4990,
        "graphql",
    )


def test_an_anonymous_query_has_no_operation_and_a_bad_body_no_cost() -> None:
    anonymous = _row(_graphql("{ viewer { login } }"), HttpResponse(200, [], b"{}"))
    assert anonymous.graphqlOperation is None and anonymous.graphqlCost == 1
    # "subquery" is no operation keyword: the name is the real one after it
    named = _row(
        _graphql("# a subquery X\nquery Real { viewer { login } }"), HttpResponse(200, [], b"{}")
    )
    assert named.graphqlOperation == "Real"
    broken = HttpRequest("POST", "/graphql/", {}, b"not json")
    row = _row(broken, HttpResponse(200, [], b"{}"))
    assert (row.endpoint, row.graphqlCost, row.graphqlOperation) == ("graphql", None, None)
    no_query = HttpRequest("POST", "/graphql", {}, b'{"query": 3}')
    assert _row(no_query, HttpResponse(200, [], b"{}")).graphqlCost is None


def test_a_rate_limited_answer_failed_and_was_charged_nothing() -> None:
    refused = b'{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}'
    row = _row(_graphql(), HttpResponse(200, LIMITS, refused))
    assert (row.rateLimited, row.ok, row.exitCode, row.graphqlCost) == ("primary", False, 1, None)
    failed = _row(_graphql(), HttpResponse(502, [], b"bad gateway"))
    assert (failed.ok, failed.exitCode, failed.graphqlCost, failed.rateLimited) == (
        False,
        1,
        None,
        None,
    )


def test_a_rest_request_keeps_its_path_and_etag_and_no_credential() -> None:
    request = HttpRequest("GET", f"/repos/acme/todo/pulls?q={SECRET}", {}, None)
    response = HttpResponse(304, [("ETag", f'W/"{SECRET}"')], b"")
    argv = ("api", f"repos/acme/todo/pulls?q={SECRET}", "-H", f"Authorization: token {SECRET}")
    row = _row(request, response, argv)
    assert (row.method, row.httpStatus, row.ok, row.graphqlCost) == ("GET", 304, True, None)
    assert row.endpoint.startswith("repos/acme/todo/pulls?q=") and row.etag is not None
    assert SECRET not in repr(row)
    assert row.args is not None and row.args[-1].endswith("[REDACTED]")


def test_an_answer_before_its_request_lasts_nothing() -> None:
    row = exchange_row(
        _graphql(),
        HttpResponse(200, [], b"{}"),
        started_at=5.0,
        finished_at=4.0,
        argv=(),
        session_id=None,
        invocation_id="x-1",
        request_index=0,
    )
    assert (row.durationMs, row.sessionId, row.operation) == (0.0, None, "gh")
