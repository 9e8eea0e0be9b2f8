"""ghbench.front.rows: the rows of what crosses the front, from its facts alone: the
operation a request is named by, the front's own answers, and every form of a
credential a row must not echo."""

from __future__ import annotations

import base64
import dataclasses

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.front.graphql import read_graphql_request
from ghbench.front.rows import (
    Answered,
    Exchange,
    exchange_row,
    operation_of,
    refusal_row,
    secrets_of,
    tunnel_row,
)

ANSWERED = Answered(10.0, 10.25, None, "ta-1", "record")


def test_operations_by_host_kind_and_path() -> None:
    assert operation_of("rest", "/repos/acme/todo/pulls/3", None) == "rest.repos.pulls"
    assert operation_of("rest", "/graphql", None) == "graphql"
    assert operation_of("git", "/acme/todo.git/git-upload-pack", None) == "git.upload-pack"
    assert operation_of("codeload", "/acme/todo/tar.gz/main", None) == "codeload.archive"


def test_a_refusal_is_a_failed_row_with_its_status_line_and_timing() -> None:
    row = refusal_row(ANSWERED, method="GET", target="http://x" * 2000, status=403, reason="no")
    assert (row.operation, row.ok, row.httpStatus) == ("front.refused", False, 403)
    assert row.statusLine == "HTTP/1.1 403 no"
    assert row.durationMs == 250.0 and row.sessionId == "ta-1" and row.component == "record"
    assert row.endpoint is not None and len(row.endpoint) == 2048  # the client's to lengthen


def test_a_tunnel_without_an_exchange_carries_the_connects_200() -> None:
    for outcome, operation in (
        ("handshake", "front.tls-handshake"),
        ("abandoned", "front.tunnel-abandoned"),
    ):
        row = tunnel_row(ANSWERED, outcome=outcome, authority="api.github.com:443")
        assert (row.operation, row.method, row.httpStatus) == (operation, "CONNECT", 200)
        assert row.ok is False and row.endpoint == "api.github.com:443"


def test_a_clock_that_steps_back_gives_no_negative_duration() -> None:
    row = tunnel_row(Answered(5.0, 4.0, None, None, "front"), outcome="abandoned", authority="h:1")
    assert row.durationMs == 0.0


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=8, max_size=30))
def test_every_form_of_a_credential_is_a_secret(token: str) -> None:
    assert {f"token {token}", token} <= set(secrets_of(f"token {token}"))
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    assert token in secrets_of(f"Basic {basic}")
    assert secrets_of(None) == [] and secrets_of("") == []


@pytest.mark.parametrize(
    ("kind", "path", "operation"),
    [
        ("rest", "/repos/o/r/pulls", "rest.repos.pulls"),
        ("rest", "/repos/o/r", "rest.repos"),
        ("rest", "/user", "rest.user"),
        ("rest", "/", "rest.root"),
        ("git", "/o/r.git/info/refs", "git.info-refs"),
        ("git", "/o/r/git-receive-pack", "git.receive-pack"),
        ("git", "/login/device", "web.login"),
        ("uploads", "/repos/o/r/releases/1/assets", "uploads.repos.releases"),
        ("codeload", "/o/r/tar.gz/main", "codeload.archive"),
    ],
)
def test_operation_of(kind: str, path: str, operation: str) -> None:
    assert operation_of(kind, path, None) == operation


def test_a_row_never_carries_the_credential() -> None:
    token = "custom-credential-0123456789"
    ex = Exchange(
        kind="rest",
        method="GET",
        target=f"/repos/o/r?access_token=abc&x={token}",
        started_at=1.0,
        finished_at=1.5,
        credential=f"token {token}",
        status=200,
        reason="OK",
        headers={"etag": f'"{token}"', "x-ratelimit-remaining": "4999"},
    )
    row = exchange_row(ex, "front")
    text = msgspec.json.encode(row).decode()
    assert token not in text and "abc" not in text
    assert row.endpoint == "repos/o/r?access_token=[REDACTED]&x=[REDACTED]"
    assert (row.durationMs, row.rateLimitRemaining, row.component) == (500.0, 4999, "front")


def test_a_refused_graphql_answer_is_no_success_and_costs_nothing() -> None:
    """GitHub's 200 + RATE_LIMITED: the row says the primary limit refused it, not ok, no
    GraphQL cost (the formula would say 1); its body goes in the row for a replay, and a
    conditional GET keeps the ETag it sent back."""
    body = b'{"query":"query { viewer { login } }"}'
    ex = Exchange(
        kind="rest",
        method="POST",
        target="/graphql",
        started_at=1.0,
        finished_at=1.2,
        status=200,
        reason="OK",
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-resource": "graphql"},
        graphql=read_graphql_request(body),
        response_head=b'{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}',
        request_body=body,
    )
    row = exchange_row(ex, "front")
    assert (row.ok, row.rateLimited, row.graphqlCost) == (False, "primary", None)
    assert row.requestBody == body.decode()
    answered = exchange_row(dataclasses.replace(ex, response_head=b'{"data":{}}'), "front")
    assert (answered.ok, answered.rateLimited, answered.graphqlCost) == (True, None, 1)
    guard = Exchange(
        kind="rest",
        method="GET",
        target="/repos/o/r/pulls?per_page=1",
        started_at=1.0,
        finished_at=1.1,
        status=304,
        if_none_match='W/"abc"',
    )
    assert exchange_row(guard, "front").ifNoneMatch == 'W/"abc"'


@pytest.mark.parametrize("name", ["code", "access_token", "client_secret", "token", "sig", "jwt"])
def test_secret_looking_query_parameters_are_redacted(name: str) -> None:
    target = f"/login/oauth/x?a=1&{name}=s3cr3tvalue&b=2"
    ex = Exchange(kind="git", method="GET", target=target, started_at=1.0, finished_at=1.0)
    ex.status, ex.reason = 200, "OK"
    row = exchange_row(ex, "front")
    assert row.endpoint == f"login/oauth/x?a=1&{name}=[REDACTED]&b=2"


def test_an_endpoint_is_cut() -> None:
    ex = Exchange(kind="rest", method="GET", target="/" + "a" * 10_000, started_at=1.0)
    ex.status = 404
    endpoint = exchange_row(ex, "front").endpoint
    assert endpoint is not None and len(endpoint) == 2048 and endpoint.endswith("…")


def test_a_client_that_left_mid_answer_is_not_ok() -> None:
    ex = Exchange(kind="rest", method="GET", target="/user", started_at=1.0, finished_at=1.0)
    ex.status, ex.response_bytes, ex.client_closed = 200, 10, True
    row = exchange_row(ex, "front")
    assert (row.ok, row.clientClosed, row.httpStatus, row.responseBytes) == (False, True, 200, 10)


def test_secrets_of_a_credential() -> None:
    basic = "Basic " + base64.b64encode(b"x-access-token:ghp_secret123").decode()
    assert secrets_of(basic) == [basic, basic[6:], "x-access-token", "ghp_secret123"]
    assert secrets_of("token abcdefgh") == ["token abcdefgh", "abcdefgh"]
    assert secrets_of(None) == []
