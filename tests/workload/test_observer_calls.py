"""The requests AO's daemon sends itself: AO 0.10.3's GraphQL documents byte for byte
(its builders' output, tests/emulator/ao_0_10_3/), what 0.12.6 adds to them, and the
REST paths with Go's sorted query keys and the daemon's headers."""

from pathlib import Path

import pytest
from graphql import parse

from ghbench.workload.calls import BatchTarget
from ghbench.workload.observer_calls import (
    COMPONENT,
    USER_AGENT,
    batch,
    batch_query,
    blob_download,
    check_contexts,
    commit_checks_guard,
    failed_job_log,
    identity,
    open_prs_page,
    post_review,
    pr_list_guard,
    review_threads,
)

AO_0_10_3 = Path(__file__).resolve().parents[1] / "emulator" / "ao_0_10_3"
REPO = "acme/todo"


def _document(name: str, cursor: str | None = None) -> str:
    text = (AO_0_10_3 / name).read_text(encoding="utf-8")
    return text if cursor is None else text.replace("CURSOR", cursor)


def _query(argv: tuple[str, ...]) -> str:
    assert argv[-2] == "-f"
    return argv[-1].removeprefix("query=")


@pytest.mark.parametrize("count", [2, 25])
def test_the_batch_is_ao_0_10_3s_document(count: int) -> None:
    targets = [BatchTarget(REPO, n) for n in range(1, count + 1)]
    assert batch_query(targets, 20) == _document(f"batch_prs_{count}.graphql")
    call = batch(targets, 20)
    assert _query(call.argv) == _document(f"batch_prs_{count}.graphql")
    assert call.argv[:3] == ("api", "graphql", "-i")
    assert call.argv[3:5] == ("-H", "Accept: application/json")
    assert (call.component, call.client, call.operation) == (COMPONENT, USER_AGENT, None)


def test_review_threads_and_check_contexts_are_ao_0_10_3s_documents() -> None:
    assert _query(review_threads(REPO, 1).argv) == _document("review_threads.graphql")
    older = review_threads(REPO, 1, before="Y3Vyc29y")
    assert _query(older.argv) == _document("review_threads_before.graphql", '"Y3Vyc29y"')
    after = check_contexts(REPO, 1, 'ab"c', 20)  # a cursor is written as Go's JSON string
    assert _query(after.argv) == _document("check_contexts_after.graphql", '"ab\\"c"')


def test_0_12_6_asks_the_node_id_and_the_reviews_body_and_commit() -> None:
    targets = [BatchTarget(REPO, 1)]
    old, new = batch_query(targets, 20), batch_query(targets, 20, "0.12.6")
    assert new == old.replace("\nnumber url", "\nnumber id url")
    first = _query(review_threads(REPO, 1, queries="0.12.6").argv)
    assert first == _document("review_threads.graphql").replace(
        "submittedAt author", "submittedAt body commit{ oid } author"
    )
    parse(new), parse(first)  # still GraphQL
    # the older page asks no reviews, so both builds send the same
    assert review_threads(REPO, 1, "c", "0.12.6").argv == review_threads(REPO, 1, "c").argv


def test_owner_and_name_are_quoted_as_go_marshals_them() -> None:
    query = batch_query([BatchTarget('we"ird/na\\me', 7)], 5)
    assert 'repository(owner:"we\\"ird",name:"na\\\\me")' in query
    assert "contexts(first:5)" in query


def test_rest_queries_are_sorted_as_go_encodes_them() -> None:
    guard = pr_list_guard(REPO, None)
    assert (
        guard.argv[1] == "repos/acme/todo/pulls?direction=desc&per_page=1&sort=updated&state=open"
    )
    page = open_prs_page(REPO, 2, 100, None, since="2026-05-01T10:00:00Z")
    assert page.argv[1] == (
        "repos/acme/todo/pulls?direction=desc&page=2&per_page=100"
        "&since=2026-05-01T10%3A00%3A00Z&sort=updated&state=open"
    )
    assert "since" not in open_prs_page(REPO, 1, 100, None).argv[1]
    assert commit_checks_guard(REPO, "abc", 100, None).argv[1] == (
        "repos/acme/todo/commits/abc/check-runs?per_page=100"
    )
    assert commit_checks_guard(REPO, "abc", 100, None, page=3).argv[1] == (
        "repos/acme/todo/commits/abc/check-runs?page=3&per_page=100"
    )


def test_rest_calls_send_the_daemons_headers_and_an_etag_when_held() -> None:
    with_etag = pr_list_guard(REPO, 'W/"e"')
    assert with_etag.argv[2:] == (
        "-i",
        "-H", "Accept: application/vnd.github+json",
        "-H", "X-GitHub-Api-Version: 2022-11-28",
        "-H", f"User-Agent: {USER_AGENT}",
        "-H", 'If-None-Match: W/"e"',
    )  # fmt: skip
    assert "If-None-Match" not in " ".join(pr_list_guard(REPO, "").argv)
    assert identity().argv[1] == "user" and identity().client == USER_AGENT


def test_a_job_log_and_its_redirect_send_no_api_version() -> None:
    log = failed_job_log(REPO, 42)
    assert log.argv[1] == "repos/acme/todo/actions/jobs/42/logs"
    assert not any("X-GitHub-Api-Version" in a for a in log.argv)
    blob = blob_download("https://blobs.example/logs/42.txt?sig=x")
    assert blob.argv[1] == "logs/42.txt?sig=x"  # the host is dropped, the path and query kept
    assert blob.argv[2:] == log.argv[2:]


def test_the_reviewer_posts_a_comment_review_as_an_agent() -> None:
    call = post_review(REPO, 3, "ta-1")
    assert call.argv[:4] == ("api", "--method", "POST", "repos/acme/todo/pulls/3/reviews")
    assert "event=COMMENT" in call.argv
    assert (call.component, call.session_id, call.client) == ("agent", "ta-1", None)
