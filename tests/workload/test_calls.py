"""The gh invocations of AO's TypeScript lifecycle manager as data, and how ``gh api -i``
output splits into status, headers and body (what a poller and a row read of it)."""

from graphql import parse

from ghbench.workload import calls as ao
from ghbench.workload.calls import BatchTarget, parse_api_output


def test_a_redirect_prints_two_blocks_and_the_last_one_wins() -> None:
    out = (
        b"HTTP/2.0 302 Found\r\nLocation: https://x/y\r\n\r\n"
        b'HTTP/2.0 200 OK\r\nETag: W/"e"\r\nX-RateLimit-Used: 7\r\n\r\n{"a": 1}'
    )
    parsed = parse_api_output(out)
    assert parsed.status == 200
    assert parsed.headers == {"etag": 'W/"e"', "x-ratelimit-used": "7"}  # the 302's are gone
    assert parsed.json() == {"a": 1}


def test_bare_newlines_a_bad_status_line_and_output_without_headers() -> None:
    lf = parse_api_output(b"HTTP/1.1 404 Not Found\nX-A:  b : c \n\n[]")
    assert (lf.status, lf.headers, lf.json()) == (404, {"x-a": "b : c"}, [])
    assert parse_api_output(b"HTTP/1.1 abc\r\n\r\n").status is None
    plain = parse_api_output(b'{"n": 2}')  # gh without -i prints the body alone
    assert (plain.status, plain.headers, plain.json()) == (None, {}, {"n": 2})
    assert parse_api_output(b"HTTP/1.1 304 Not Modified\r\n\r\n  \n").json() is None


def test_equal_outputs_that_are_not_the_same_object_are_split_again() -> None:
    one = b"HTTP/1.1 200 OK\r\nETag: a\r\n\r\n{}"
    first = parse_api_output(one)
    assert parse_api_output(one) is first  # a row and its poller read one output once
    other = parse_api_output(b"HTTP/1.1 200 OK\r\nETag: b\r\n\r\n{}")
    assert other.headers["etag"] == "b"
    assert parse_api_output(bytes(bytearray(one))) is not first


def test_guards_send_an_etag_only_when_they_hold_one() -> None:
    assert ao.guard_pr_list("a/b", None).argv == (
        "api",
        "repos/a/b/pulls?state=open&sort=updated&direction=desc&per_page=1",
        "-i",
    )
    status = ao.guard_commit("a/b", "abc", "status", '"e"')
    assert status.argv == ("api", "repos/a/b/commits/abc/status", "-i", "-H", 'If-None-Match: "e"')
    runs = ao.guard_commit("a/b", "abc", "check-runs", "")
    assert runs.argv == ("api", "repos/a/b/commits/abc/check-runs?per_page=1", "-i")
    assert {c.operation for c in (status, runs)} == {ao.GUARD_COMMIT_STATUS}
    assert status.component == ao.COMPONENT_BATCH and status.client is None


def test_review_comments_guarded_is_named_and_bench_era_is_opaque() -> None:
    guarded = ao.review_comments("a/b", 4, '"e"', guarded=True)
    assert guarded.argv[-3:] == ("-i", "-H", 'If-None-Match: "e"')
    assert (guarded.component, guarded.operation) == (ao.COMPONENT_BATCH, ao.GUARD_REVIEW_COMMENTS)
    plain = ao.review_comments("a/b", 4, '"e"', guarded=False)  # no -i, so no ETag either
    assert plain.argv == ("api", "repos/a/b/pulls/4/comments")
    assert (plain.component, plain.operation) == (ao.COMPONENT_SCM, None)


def test_review_threads_with_and_without_headers() -> None:
    shown = ao.review_threads("acme/todo", 9)
    assert shown.argv[:3] == ("api", "graphql", "-i")
    assert shown.argv[-4:] == ("-f", "name=todo", "-F", "number=9")
    hidden = ao.review_threads("acme/todo", 9, include=False)
    assert "-i" not in hidden.argv and hidden.argv[2:] == shown.argv[3:]


def test_the_batch_query_names_each_pr_and_asks_contexts_only_when_told() -> None:
    targets = [BatchTarget("acme/todo", 3), BatchTarget("o/other", 11)]
    without = ao.batch_query(targets, 0)
    assert "contexts" not in without and "statusCheckRollup { state }" in without
    with_contexts = ao.batch_query(targets, 20)
    assert "contexts(first: 20)" in with_contexts
    document = parse(with_contexts)  # valid GraphQL, one aliased field per PR
    (operation,) = document.definitions
    names = [f.alias.value if f.alias else f.name.value for f in operation.selection_set.selections]  # type: ignore[attr-defined]
    assert names == ["pr0", "pr1", "rateLimit"]
    assert 'repository(owner: "o", name: "other") { pullRequest(number: 11)' in with_contexts
    call = ao.graphql_batch(targets, 20)
    assert call.argv == ("api", "graphql", "-i", "-f", f"query={with_contexts}")
    assert (call.component, call.operation) == (ao.COMPONENT_BATCH, ao.BATCH)


def test_session_calls_carry_their_session_and_component() -> None:
    detect = ao.detect_pr("a/b", "feat/x", "ta-1")
    assert detect.argv[:4] == ("pr", "list", "--head", "feat/x")
    assert (detect.component, detect.session_id, detect.operation) == (
        ao.COMPONENT_SCM,
        "ta-1",
        None,
    )
    assert ao.pr_view_state("a/b", 5).argv == (
        "pr",
        "view",
        "5",
        "--repo",
        "a/b",
        "--json",
        "state",
    )
    dash = ao.dashboard_pr_view("a/b", 5, "ta-2")
    assert dash.component == ao.DASHBOARD_COMPONENT and dash.argv[-1].split(",")[0] == "number"
    issue = ao.issue_view("a/b", 8, component=ao.DASHBOARD_COMPONENT, session_id="ta-3")
    assert issue.argv[-1] == ao.ISSUE_FIELDS and issue.component == ao.DASHBOARD_COMPONENT
    assert ao.issue_view("a/b", 8).component == ao.COMPONENT_TRACKER
