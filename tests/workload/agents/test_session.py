"""What an agent reads from gh's answers: CI verdicts, its PR's number."""

import json

import pytest

from ghbench.workload.agents.fixtures import ScriptOutcome
from ghbench.workload.agents.session import ci_verdict, pr_number
from ghbench.workload.ghmap import HttpResponse


def _outcome(*docs: object) -> ScriptOutcome:
    return ScriptOutcome(tuple(HttpResponse(200, [], json.dumps(d).encode()) for d in docs), 0)


def _rollup(*contexts: dict[str, object]) -> dict[str, object]:
    commit = {"statusCheckRollup": {"contexts": {"nodes": list(contexts)}}}
    return {"data": {"node": {"statusCheckRollup": {"nodes": [{"commit": commit}]}}}}


@pytest.mark.parametrize(
    ("contexts", "verdict"),
    [
        ([{"__typename": "CheckRun", "status": "IN_PROGRESS", "conclusion": None}], "pending"),
        ([{"__typename": "CheckRun", "status": "COMPLETED", "conclusion": "SUCCESS"}], "success"),
        (
            [
                {"__typename": "CheckRun", "status": "COMPLETED", "conclusion": "SUCCESS"},
                {"__typename": "StatusContext", "context": "ci", "state": "FAILURE"},
            ],
            "failure",
        ),
        ([{"__typename": "StatusContext", "context": "ci", "state": "PENDING"}], "pending"),
        ([], "none"),
    ],
)
def test_graphql_rollup_verdicts(contexts: list[dict[str, object]], verdict: str) -> None:
    assert ci_verdict(_outcome(_rollup(*contexts))) == verdict


def test_rest_answers_of_the_shim() -> None:
    pr = {"number": 2, "state": "open", "head": {"sha": "abc"}}
    runs = {"total_count": 1, "check_runs": [{"status": "completed", "conclusion": "failure"}]}
    status = {"state": "failure", "statuses": [{"context": "ci", "state": "failure"}]}
    assert ci_verdict(_outcome(pr, runs, status)) == "failure"
    queued = {"check_runs": [{"status": "queued", "conclusion": None}]}
    assert ci_verdict(_outcome(pr, queued)) == "pending"


def test_a_real_watch_run_says_it_by_its_exit_code() -> None:
    assert ci_verdict(ScriptOutcome((), 0, watched=True)) == "success"
    assert ci_verdict(ScriptOutcome((), 1, watched=True)) == "failure"


def test_the_pr_number_from_the_answer_or_gh_output() -> None:
    created = {"data": {"createPullRequest": {"pullRequest": {"url": "https://x/o/r/pull/17"}}}}
    assert pr_number(_outcome(created)) == 17
    assert pr_number(ScriptOutcome((), 0, stdout=b"https://github.com/o/r/pull/4\n")) == 4
    assert pr_number(ScriptOutcome((), 1)) is None


def test_a_refused_command_leaves_ci_pending() -> None:
    """A rate-limited answer says nothing of CI: the agent asks again, it is not done."""
    limited = {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}
    refused = ScriptOutcome((HttpResponse(200, [], json.dumps(limited).encode()),), 1)
    assert ci_verdict(refused) == "pending"
    assert ci_verdict(_outcome({"data": {"repository": {"pullRequests": {"nodes": []}}}})) == "none"


def test_the_real_gh_pr_checks_table_says_the_state() -> None:
    """The gh transport sees gh's printed table (name, bucket, elapsed, link per line)."""
    pending = b"ci\tpending\t0\thttps://x/runs/1\nlint\tpass\t1m\thttps://x/runs/2\n"
    assert ci_verdict(ScriptOutcome((), 1, stdout=pending)) == "pending"
    failed = b"ci\tfail\t2m\thttps://x/runs/1\nlint\tpass\t1m\thttps://x/runs/2\n"
    assert ci_verdict(ScriptOutcome((), 1, stdout=failed)) == "failure"
    assert ci_verdict(ScriptOutcome((), 0, stdout=b"ci\tpass\t2m\thttps://x\n")) == "success"
    assert ci_verdict(ScriptOutcome((), 1, stdout=b"no checks reported\n")) == "none"
