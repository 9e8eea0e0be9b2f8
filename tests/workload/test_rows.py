"""One row per call, from gh's output alone: gh's row (AO's ``execGhObserved``) for a gh
invocation, the GitHub front's row for a client that calls GitHub itself (AO 0.10's
daemon), with its GraphQL charge read from ``x-ratelimit-used`` as the front reads it."""

from ghbench.workload import calls as ao
from ghbench.workload import observer_calls as daemon
from ghbench.workload.calls import BatchTarget, GhResult
from ghbench.workload.rows import RowBuilder, RowSettings, row_for

SECRET = "ghp_rowsecret00000000000000000000000000"


def _answer(status: str, *headers: str, body: bytes = b"") -> bytes:
    head = "\r\n".join((f"HTTP/2.0 {status}", *headers))
    return head.encode() + b"\r\n\r\n" + body


def _graphql(used: int, reset: int = 999) -> GhResult:
    headers = (
        "X-RateLimit-Limit: 5000",
        f"X-RateLimit-Reset: {reset}",
        f"X-RateLimit-Used: {used}",
    )
    return GhResult(0, _answer("200 OK", *headers, body=b'{"data":{}}'), duration_s=0.5)


def test_a_gh_row_is_timed_back_from_its_completion_and_attributed_only_when_asked() -> None:
    call = ao.detect_pr("acme/todo", f"feat/{SECRET}", session_id="ta-1")
    result = GhResult(0, b"[]\n", duration_s=0.25)
    plain = row_for(call, result, completed_at=1000.25, options=RowSettings(secrets=(SECRET,)))
    assert (plain.timestamp, plain.durationMs) == ("1970-01-01T00:16:40.250Z", 250.0)
    assert (plain.sessionId, plain.projectId, plain.origin) == (None, None, "workload")
    assert plain.component == "scm-github" and plain.ok
    assert SECRET not in str(plain.args)  # the model's secrets are scrubbed as AO's writer does
    told = RowSettings(session_ids=True, project_id="todo", origin=None)
    attributed = row_for(call, result, completed_at=1000.25, options=told)
    assert (attributed.sessionId, attributed.projectId, attributed.origin) == ("ta-1", "todo", None)
    # a call without a session gets no project either
    batch = row_for(ao.graphql_batch([], 0), result, completed_at=1.0, options=told)
    assert (batch.sessionId, batch.projectId) == (None, None)


def test_a_guards_304_is_its_named_operation_and_exit_1() -> None:
    call = ao.guard_pr_list("acme/todo", 'W/"e"')
    out = _answer("304 Not Modified", 'Etag: W/"e"', "X-RateLimit-Remaining: 4999")
    row = RowBuilder(RowSettings()).row(call, GhResult(1, out, b"gh: HTTP 304\n", 0.2), 5.0)
    assert (row.operation, row.httpStatus, row.exitCode, row.etag) == (
        ao.GUARD_PR_LIST,
        304,
        1,
        'W/"e"',
    )
    assert row.rateLimitRemaining == 4999


def test_a_daemons_request_is_the_fronts_row_of_that_exchange() -> None:
    rows = RowBuilder(RowSettings(session_ids=True, project_id="p"))
    call = daemon.pr_list_guard("acme/todo", '"e"')
    row = rows.row(call, GhResult(1, _answer("304 Not Modified", 'Etag: "e"'), duration_s=0.2), 9.0)
    assert (row.component, row.operation, row.method, row.httpStatus) == (
        "scm-github",
        "gh.api.guard-pr-list",
        "GET",
        304,
    )
    assert row.endpoint == "repos/acme/todo/pulls?direction=desc&per_page=1&sort=updated&state=open"
    assert (row.ifNoneMatch, row.statusLine, row.args) == ('"e"', "HTTP/1.1 304 Not Modified", None)
    assert (row.sessionId, row.projectId) == (None, None)  # the daemon's calls name no session


def test_graphql_charges_are_read_from_used_and_another_clients_spend_is_not_ours() -> None:
    rows = RowBuilder(RowSettings())
    call = daemon.batch([BatchTarget("acme/todo", 1)], 20)
    first = rows.row(call, _graphql(10), 1.0)  # no earlier reading: the published formula
    assert (first.graphqlCost, first.graphqlCostEstimated) == (1, True)
    second = rows.row(call, _graphql(13), 2.0)
    assert (second.graphqlCost, second.graphqlCostEstimated) == (3, None)
    rows.saw_graphql(5000, 999, 20)  # an agent on the same token spent 7 in between
    third = rows.row(call, _graphql(22), 3.0)
    assert third.graphqlCost == 2
    fresh = rows.row(call, _graphql(4, reset=1999), 4.0)  # a new window: nothing to read from
    assert fresh.graphqlCostEstimated is True


def test_a_daemon_row_keeps_no_secret_and_an_unknown_status_has_no_reason() -> None:
    rows = RowBuilder(
        RowSettings(session_ids=True, project_id=SECRET, origin=SECRET, secrets=(SECRET, ""))
    )
    call = daemon.post_review("acme/todo", 1, "ta-1")
    call = ao.GhCall(call.argv, "agent", session_id=SECRET, client=daemon.USER_AGENT)
    row = rows.row(call, GhResult(0, _answer("799 Whatever"), duration_s=0.1), 1.0)
    assert row.httpStatus == 799 and row.statusLine == "HTTP/1.1 799"
    assert SECRET not in repr(row)
