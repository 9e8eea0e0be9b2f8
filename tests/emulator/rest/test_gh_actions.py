"""Issue 21 case 10 with real gh 2.23: a minimal GitHub Actions for a pushed head.

``set_ci`` on a commit is a workflow run of ``CI`` whose job has three steps and a log;
``gh run list``, ``gh run view ID``, ``gh run view ID --log-failed`` and ``gh run
view --job ID --log`` read them as they read GitHub's, logs downloaded through
GitHub's 302 to a signed URL (free, not in the ledger). Check suites and a commit's
pull requests are served too (they were a 422 "No commit found", issue 21 case 6).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gh_helpers import api, gh, ok

pytestmark = pytest.mark.gh

REPO = "acme/todo"
LOG = (
    "collected 3 items\ntests/test_parse.py::test_split FAILED\nAssertionError: 'a b' != ['a', 'b']"
)


@pytest.fixture
def ci(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    emu.set_ci(REPO, "failure", pr=1, name="tests")
    emu.set_ci(REPO, "success", pr=1, name="lint")
    return emulator_server


def test_gh_lists_and_views_runs_and_failed_logs(gh_env: dict[str, str], ci: Any) -> None:
    emu = ci.emulator
    emu.set_ci(REPO, "failure", pr=1, name="tests", log=LOG)  # the job's output
    listed = ok(gh_env, "run", "list", "-R", REPO).splitlines()
    assert [row.split("\t")[:6] for row in listed] == [
        ["completed", "failure", "Feature A", "CI", "feat/a", "push"]
    ]
    run_id = listed[0].split("\t")[6]
    runs = json.loads(
        ok(
            gh_env,
            "run",
            "list",
            "-R",
            REPO,
            "--json",
            "databaseId,status,conclusion,headBranch,workflowName",
        )
    )
    assert runs == [
        {
            "databaseId": int(run_id),
            "status": "completed",
            "conclusion": "failure",
            "headBranch": "feat/a",
            "workflowName": "CI",
        }
    ]
    jobs = api(gh_env, f"repos/{REPO}/actions/runs/{run_id}/jobs")["jobs"]
    ids = {j["name"]: j["id"] for j in jobs}
    viewed = ok(gh_env, "run", "view", run_id, "-R", REPO)
    assert f"X tests in 0s (ID {ids['tests']})\n  ✓ Set up job\n  X Run tests\n" in viewed
    assert f"✓ lint in 0s (ID {ids['lint']})" in viewed
    failed = ok(gh_env, "run", "view", run_id, "-R", REPO, "--log-failed")
    lines = failed.splitlines()
    assert lines and all(line.startswith("tests\tRun tests\t") for line in lines)
    assert "AssertionError: 'a b' != ['a', 'b']" in failed
    assert "Error: Process completed with exit code 1." in failed
    whole = ok(gh_env, "run", "view", "-R", REPO, "--job", str(ids["tests"]), "--log")
    assert "Set up job" in whole and "collected 3 items" in whole
    # log downloads are not the API: only the API calls before them are in the ledger
    assert all("/_blobs/" not in e.endpoint for e in emu.ledger_entries())
    assert any(e.endpoint.endswith("/actions/runs/{run_id}/logs") for e in emu.ledger_entries())


def test_check_suites_and_a_commits_pull_requests(gh_env: dict[str, str], ci: Any) -> None:
    head = api(gh_env, f"repos/{REPO}/pulls/1")["head"]["sha"]
    suites = api(gh_env, f"repos/{REPO}/commits/{head}/check-suites")
    assert [(s["app"]["slug"], s["status"], s["conclusion"]) for s in suites["check_suites"]] == [
        ("github-actions", "completed", "failure")
    ]
    assert [p["number"] for p in api(gh_env, f"repos/{REPO}/commits/{head}/pulls")] == [1]
    assert api(gh_env, f"repos/{REPO}/commits/{head}/comments") == []
    unknown = gh(gh_env, "api", f"repos/{REPO}/commits/{head}/unknown")
    assert unknown.returncode == 1 and "HTTP 404" in unknown.stderr
