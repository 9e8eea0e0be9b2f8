"""Requests gh sent side by side: their interleaved debug logs read back as exchanges."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.record.debuglog import DebugMode, split_debug_log
from ghbench.record.interleaved import parse_overlapping
from ghbench.record.rows import graphql_operation

FIXTURES = Path(__file__).parent / "fixtures"
AT = "* Request at 2026-12-06 10:26:40.81{} +0000 UTC m=+0.054168502"


def test_gh_2_102_feature_detection_pairs_each_query_with_its_answer() -> None:
    # gh 2.102.0 `pr merge`: PullRequest_fields and PullRequest_fields2 at once, their
    # answers' headers, bodies and "Request took" lines mixed
    data = (FIXTURES / "gh-2.102-pr-merge-concurrent.debug.stderr").read_bytes()
    exchanges, shown = split_debug_log(data, DebugMode.OFF)
    assert shown == b""
    seen = [
        (
            graphql_operation(e.request_body),
            e.request_headers.get("x-gh-cache-ttl"),
            e.response_headers["x-github-request-id"],
            next(iter(json.loads(e.response_body)["data"])),
        )
        for e in exchanges
    ]
    assert seen == [
        ("PullRequest_fields2", "24h0m0s", "GHB:00000000", "WorkflowRun"),
        ("PullRequest_fields", "24h0m0s", "GHB:00000001", "PullRequest"),
        ("PullRequestByNumber", None, "GHB:00000004", "repository"),
        ("PullRequestMerge", None, "GHB:00000005", "mergePullRequest"),
    ]
    assert all(e.complete and e.status == 200 and e.duration_ms for e in exchanges)
    assert [e.duration_ms for e in exchanges[:2]] == [0.238094, 0.353917]


def _writes(n: int, query: str, field: str, *, resource: str = "graphql") -> list[str]:
    """One request's log as httpretty writes it: each element is one write."""
    body = json.dumps({"query": query}, separators=(",", ":"))
    answer = json.dumps({"data": {field: {"id": n}}}, indent=2)
    target = "/graphql" if resource == "graphql" else f"/repos/acme/todo/pulls/{n}"
    head = [
        AT.format(n),
        f"* Request to http://api.github.localhost{target}",
        f"> {'POST' if resource == 'graphql' else 'GET'} {target} HTTP/1.1",
        "> Host: api.github.localhost",
        "> Accept: application/vnd.github.merge-info-preview+json",
        "> Authorization: token ████████████████████",
        f"> Content-Length: {len(body) if resource == 'graphql' else 0}",
        "> User-Agent: GitHub CLI 2.102.0",
        "",
    ]
    request_body = (
        [json.dumps({"query": query}, indent=2) + "\n\n"] if resource == "graphql" else []
    )
    # one response's head is kept whole: two heads with the same header names, mixed
    # line by line, are the one thing the log cannot tell apart
    response_head = [
        "< HTTP/1.1 200 OK",
        f"< Content-Length: {len(answer)}",
        "< Content-Type: application/json; charset=utf-8",
        f"< X-Github-Request-Id: GHB:{n:08d}",
        f"< X-Ratelimit-Resource: {resource}",
        "",
    ]
    response = ["\n".join(response_head), answer + "\n", f"* Request took {n}ms"]
    return [w + "\n" for w in head] + request_body + [w + "\n" for w in response]


def _interleave(a: list[str], b: list[str], picks: list[bool]) -> bytes:
    out: list[str] = []
    i = j = 0
    for pick_b in picks:
        if pick_b and j < len(b):
            out.append(b[j])
            j += 1
        elif i < len(a):
            out.append(a[i])
            i += 1
    out += a[i:] + b[j:]
    return "".join(out).encode()


def _read(data: bytes) -> list[tuple[str | None, str, str]]:
    raw = data.splitlines(keepends=True)
    return [
        (
            graphql_operation(e.request_body),
            e.response_headers.get("x-github-request-id", ""),
            e.response_body,
        )
        for e in parse_overlapping(raw, complete=True)
    ]


@settings(max_examples=200, deadline=None)
@given(picks=st.lists(st.booleans(), max_size=40))
def test_two_queries_whatever_the_order_of_their_writes(picks: list[bool]) -> None:
    first = _writes(1, 'query Labels{repository(owner:"acme"){labels{name}}}', "repository")
    second = _writes(2, "query Me{viewer{login}}", "viewer")
    read = sorted(_read(_interleave(first, second, picks)), key=str)
    assert [(op, rid, next(iter(json.loads(body)["data"]))) for op, rid, body in read] == [
        ("Labels", "GHB:00000001", "repository"),
        ("Me", "GHB:00000002", "viewer"),
    ]


def test_an_answer_that_came_first_goes_to_the_request_that_asked_for_it() -> None:
    first = _writes(1, "query Labels{repository{labels{name}}}", "repository")
    second = _writes(2, "query Me{viewer{login}}", "viewer")
    # both requests written, then the second's answer, whole, before the first's
    data = "".join(first[:10] + second[:10] + second[10:] + first[10:]).encode()
    read = _read(data)
    assert [(op, rid) for op, rid, _ in read] == [
        ("Labels", "GHB:00000001"),
        ("Me", "GHB:00000002"),
    ]


def test_a_rest_answer_is_not_taken_for_a_graphql_one() -> None:
    graphql = _writes(1, "query Me{viewer{login}}", "viewer")
    rest = _writes(2, "", "number", resource="core")
    data = "".join(graphql[:10] + rest[:9] + rest[9:] + graphql[10:]).encode()
    exchanges = parse_overlapping(data.splitlines(keepends=True), complete=True)
    assert [(e.target, e.response_headers["x-ratelimit-resource"]) for e in exchanges] == [
        ("/graphql", "graphql"),
        ("/repos/acme/todo/pulls/2", "core"),
    ]


def test_a_request_that_failed_keeps_the_transport_error() -> None:
    ok = _writes(1, "query Me{viewer{login}}", "viewer")
    failed = [
        AT.format(2) + "\n",
        "* Request to http://api.github.localhost/graphql\n",
        "> POST /graphql HTTP/1.1\n",
        "> Host: api.github.localhost\n",
        "\n",
        "* dial tcp 127.0.0.1:1: connect: connection refused\n",
        "* Request took 1ms\n",
    ]
    data = "".join(ok[:10] + failed + ok[10:]).encode()
    exchanges = parse_overlapping(data.splitlines(keepends=True), complete=True)
    assert [e.status for e in exchanges] == [200, None]
    assert exchanges[1].error == "dial tcp 127.0.0.1:1: connect: connection refused"
    assert exchanges[1].duration_ms == 1.0


def test_a_log_cut_short_leaves_the_unanswered_request_incomplete() -> None:
    first = _writes(1, "query Me{viewer{login}}", "viewer")
    second = _writes(2, "query You{viewer{name}}", "viewer")
    data = "".join(first[:10] + second[:10] + first[10:]).encode()
    exchanges = parse_overlapping(data.splitlines(keepends=True), complete=False)
    assert [(e.status, e.complete) for e in exchanges] == [(200, True), (None, False)]
