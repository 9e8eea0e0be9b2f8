"""What AO 0.10's observer makes of one PR node of a batch answer, and what its store
keeps of it: checks in AO's words, the failed checks' fingerprint, when a refresh is a
change (AO writes only then) and when stored log tails may be reused."""

from typing import Any

from ghbench.workload.observer_state import (
    CHANGES_REQUESTED,
    Check,
    TrackedPr,
    decision_of,
    observation_of,
)

REPO = "acme/todo"


def _run(
    name: str, conclusion: str | None, status: str = "COMPLETED", **more: Any
) -> dict[str, Any]:
    return {
        "__typename": "CheckRun",
        "name": name,
        "conclusion": conclusion,
        "status": status,
        **more,
    }


def _node(*contexts: dict[str, Any], rollup: str = "SUCCESS", **fields: Any) -> dict[str, Any]:
    rolled = {"state": rollup, "contexts": {"nodes": list(contexts)}}
    return {
        "headRefOid": "h1",
        "title": "Fix",
        "updatedAt": "2026-05-01T10:00:00Z",
        "commits": {"nodes": [{"commit": {"oid": "h1", "statusCheckRollup": rolled}}]},
        **fields,
    }


FAILED = _run("tests", "FAILURE", databaseId=77, detailsUrl="https://ci/77", url="https://x")


def test_review_decisions_in_aos_words() -> None:
    assert decision_of("APPROVED") == "approved"
    assert decision_of(" changes_requested ") == CHANGES_REQUESTED
    assert decision_of("REVIEW_REQUIRED") == "review_required"
    assert [decision_of(v) for v in (None, "", "DISMISSED", 3)] == ["none"] * 4


def test_checks_in_aos_words_and_what_is_left_out() -> None:
    obs = observation_of(
        REPO,
        1,
        _node(
            _run("lint", "SUCCESS", databaseId=0),  # no job id: 0 is none
            _run("build", None, "IN_PROGRESS"),
            _run("slow", "", "waiting"),
            _run("odd", "SOMETHING_NEW"),  # an unknown conclusion falls back to the status
            FAILED,
            _run("", "FAILURE"),  # no name: not a check AO keeps
            {
                "__typename": "StatusContext",
                "context": "ci/legacy",
                "state": "ERROR",
                "targetUrl": "t",
            },
            {"__typename": "StatusContext", "context": "deploy", "state": "EXPECTED"},
            {"__typename": "Mystery", "name": "x"},
            rollup="FAILURE",
        ),
    )
    assert obs.checks == (
        Check("lint", "passed", "success", "", None),
        Check("build", "in_progress", "", "", None),
        Check("slow", "queued", "", "", None),
        Check("odd", "unknown", "something_new", "", None),
        Check("tests", "failed", "failure", "https://ci/77", 77),  # detailsUrl before url
        Check("ci/legacy", "failed", "error", "t", None),
        Check("deploy", "in_progress", "expected", "", None),
    )
    assert [c.name for c in obs.failed_checks] == ["tests", "ci/legacy"]
    assert obs.failing and obs.head == "h1" and obs.key == (REPO, 1)
    assert obs.updated_at == 1777629600.0


def test_a_merged_pr_is_not_closed_and_odd_nodes_do_not_break_the_reading() -> None:
    merged = observation_of(REPO, 2, {"merged": True, "closed": True, "updatedAt": "soon"})
    assert (merged.merged, merged.closed, merged.updated_at) == (True, False, None)
    assert (merged.head, merged.checks, merged.failing, merged.decision) == (
        None,
        (),
        False,
        "none",
    )
    closed = observation_of(REPO, 2, {"closed": True})
    assert (closed.merged, closed.closed) == (False, True)
    # no headRefOid: the head commit's oid; a commit without a rollup is passed over
    node = {"commits": {"nodes": ["junk", {"commit": {"oid": "c9"}}, {"commit": {"oid": "c8"}}]}}
    assert observation_of(REPO, 3, node).head == "c9"
    cancelled = observation_of(REPO, 4, _node(_run("t", "CANCELLED"), rollup="PENDING"))
    assert [c.name for c in cancelled.failed_checks] == ["t"] and not cancelled.failing


def test_the_fingerprint_is_the_head_and_its_failures_in_any_order() -> None:
    passing = observation_of(REPO, 1, _node(_run("lint", "SUCCESS")))
    assert passing.fingerprint == "" and ":" not in passing.ci_hash
    other = _run("e2e", "TIMED_OUT", databaseId=8)
    one = observation_of(REPO, 1, _node(FAILED, other, rollup="FAILURE"))
    two = observation_of(REPO, 1, _node(other, FAILED, rollup="FAILURE"))
    assert one.fingerprint == two.fingerprint != ""
    assert one.ci_hash.startswith(one.fingerprint + ":")
    moved = observation_of(REPO, 1, _node(FAILED, other, rollup="FAILURE", headRefOid="h2"))
    assert moved.fingerprint != one.fingerprint
    # a passing check does not change which failures were seen, only the CI hash
    plus = observation_of(REPO, 1, _node(FAILED, other, _run("lint", "SUCCESS"), rollup="FAILURE"))
    assert plus.fingerprint == one.fingerprint and plus.ci_hash != one.ci_hash


def test_the_metadata_hash_leaves_the_commits_out() -> None:
    base = observation_of(REPO, 1, _node())
    assert observation_of(REPO, 1, _node(FAILED)).metadata_hash == base.metadata_hash
    assert observation_of(REPO, 1, _node(title="Other")).metadata_hash != base.metadata_hash


def test_the_store_writes_only_on_a_change_and_dates_the_reviews_it_read() -> None:
    pr = TrackedPr("ta-1", REPO, 1)
    assert pr.missing_state and pr.key == (REPO, 1)
    obs = observation_of(REPO, 1, _node(reviewDecision="REVIEW_REQUIRED"))
    assert pr.observe(obs, None, keep_review=False, now=10.0)
    assert not pr.missing_state and pr.head_sha == "h1" and pr.review == "review_required"
    assert pr.review_observed_at == 10.0  # the first write
    assert not pr.observe(obs, None, keep_review=False, now=20.0)
    # a change the batch saw, reviews not read: written, the review date kept
    retitled = observation_of(REPO, 1, _node(title="New", reviewDecision="REVIEW_REQUIRED"))
    assert pr.observe(retitled, None, keep_review=False, now=30.0)
    assert pr.review_observed_at == 10.0
    # the threads' decision wins over the batch's, and dates the write
    assert pr.observe(retitled, "approved", keep_review=False, now=40.0)
    assert (pr.review, pr.review_observed_at) == ("approved", 40.0)
    # the threads failed: the stored review stays whatever the batch says
    assert not pr.observe(retitled, None, keep_review=True, now=50.0)
    assert pr.review == "approved"
    merged = observation_of(REPO, 1, _node(title="New", merged=True, headRefOid=""))
    pr.observe(merged, None, keep_review=True, now=60.0)
    assert pr.terminal and pr.head_sha == "h1"  # a node without a head keeps the known one


def test_stored_tails_are_reused_only_for_the_same_failures_on_the_same_head() -> None:
    pr = TrackedPr("ta-1", REPO, 1)
    failed = observation_of(REPO, 1, _node(FAILED, rollup="FAILURE"))
    assert pr.stored_tails(failed) is None  # never observed
    failed.log_tails = (("tests", "FAILED test_x"),)
    pr.observe(failed, None, keep_review=False, now=1.0)
    again = observation_of(REPO, 1, _node(FAILED, rollup="FAILURE"))
    assert pr.stored_tails(again) == (("tests", "FAILED test_x"),)
    other_url = _run("tests", "FAILURE", databaseId=78, detailsUrl="https://ci/78")
    assert pr.stored_tails(observation_of(REPO, 1, _node(other_url, rollup="FAILURE"))) is None
    pr.tails_head = "h0"  # the tails were read for another head
    assert pr.stored_tails(again) is None
    # two failures, one tail read: not every tail is there, so the logs are read again
    second = _run("e2e", "FAILURE", databaseId=9)
    both = observation_of(REPO, 1, _node(FAILED, second, rollup="FAILURE"))
    both.log_tails = (("tests", "FAILED test_x"), ("e2e", ""))
    pr.observe(both, None, keep_review=False, now=2.0)
    assert pr.tails_head == "h1"
    assert pr.stored_tails(observation_of(REPO, 1, _node(FAILED, second, rollup="FAILURE"))) is None
