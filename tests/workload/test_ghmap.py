"""What the http and inprocess transports send for AO's argv, and how they print answers."""

import json

from ghbench.workload import calls as ao
from ghbench.workload.calls import BatchTarget, parse_api_output
from ghbench.workload.ghmap import HttpResponse, plan_call


def test_guard_with_etag_is_a_conditional_get() -> None:
    call = ao.guard_pr_list("acme/todo", 'W/"abc"')
    plan = plan_call(call.argv, "tok")
    req = plan.request
    assert (req.method, req.path) == (
        "GET",
        "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1",
    )
    assert req.headers["If-None-Match"] == 'W/"abc"'
    assert req.headers["Authorization"] == "token tok"
    assert req.body is None


def test_304_prints_the_status_block_and_exits_1_like_gh() -> None:
    plan = plan_call(ao.guard_pr_list("acme/todo", None).argv, None)
    code, out, err = plan.render(
        HttpResponse(304, [("etag", 'W/"e"'), ("x-ratelimit-remaining", "5000")], b"")
    )
    assert code == 1
    assert err == b"gh: HTTP 304\n"
    parsed = parse_api_output(out)
    assert parsed.status == 304
    assert parsed.headers["etag"] == 'W/"e"'
    assert out.startswith(b"HTTP/1.1 304 Not Modified\r\nEtag: ")


def test_batch_is_a_graphql_post_and_errors_exit_1() -> None:
    call = ao.graphql_batch([BatchTarget("acme/todo", 1), BatchTarget("acme/todo", 2)], 0)
    plan = plan_call(call.argv, "t")
    assert (plan.request.method, plan.request.path) == ("POST", "/graphql")
    body = json.loads(plan.request.body or b"")
    assert body["query"].startswith("query BatchPRs { pr0: repository(")
    assert "pr1: repository" in body["query"]
    ok = plan.render(HttpResponse(200, [], b'{"data":{}}'))
    bad = plan.render(HttpResponse(200, [], b'{"errors":[{"message":"boom"}]}'))
    assert ok[0] == 0
    assert bad[0] == 1
    assert b"boom" in bad[2]


def test_typed_fields_become_graphql_variables() -> None:
    plan = plan_call(ao.review_threads("acme/todo", 7).argv, "t")
    body = json.loads(plan.request.body or b"")
    assert body["variables"] == {"owner": "acme", "name": "todo", "number": 7}


def test_pr_list_uses_gh_query_and_prints_compact_sorted_json() -> None:
    plan = plan_call(ao.detect_pr("acme/todo", "feat/issue-1").argv, "t")
    body = json.loads(plan.request.body or b"")
    assert body["query"].startswith("query PullRequestList(")
    assert body["variables"]["headBranch"] == "feat/issue-1"
    assert body["variables"]["limit"] == 1
    answer = {
        "data": {
            "repository": {"pullRequests": {"nodes": [{"url": "u", "number": 4}], "totalCount": 1}}
        }
    }
    code, out, _ = plan.render(HttpResponse(200, [], json.dumps(answer).encode()))
    assert (code, out) == (0, b'[{"number":4,"url":"u"}]\n')


def test_pr_view_and_issue_view_use_gh_operation_names() -> None:
    view = plan_call(ao.pr_view_state("acme/todo", 3).argv, "t")
    issue = plan_call(ao.issue_view("acme/todo", 5).argv, "t")
    assert b"query PullRequestByNumber(" in (view.request.body or b"")
    assert b"query IssueByNumber(" in (issue.request.body or b"")
    missing = view.render(
        HttpResponse(200, [], b'{"errors":[{"message":"Could not resolve"}],"data":null}')
    )
    assert missing[0] == 1
    assert missing[2].startswith(b"GraphQL: Could not resolve")
