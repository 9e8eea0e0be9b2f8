"""ghbench.front.rows: the rows of what crosses the front, from its facts alone: the
operation a request is named by, the front's own answers, and every form of a
credential a row must not echo."""

from __future__ import annotations

import base64

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.front.rows import (
    Answered,
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
