"""Issue 21 case 10 with real gh (2.23.0 and 2.102.0): a minimal GitHub Actions for a
pushed head.

``set_ci`` on a commit is a workflow run of ``CI`` whose job has three steps and a log;
``gh run list``, ``gh run view ID``, ``gh run view ID --log-failed`` and ``gh run
view --job ID --log`` read them as they read GitHub's, logs downloaded through
GitHub's 302 to a signed URL (free, not in the ledger). Check suites and a commit's
pull requests are served too (they were a 422 "No commit found", issue 21 case 6).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from gh_helpers import api as gh_api
from gh_helpers import gh, ok

from ghbench.emulator.core import Emulator

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


@pytest.mark.gh
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
    jobs = gh_api(gh_env, f"repos/{REPO}/actions/runs/{run_id}/jobs")["jobs"]
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


@pytest.mark.gh
def test_check_suites_and_a_commits_pull_requests(gh_env: dict[str, str], ci: Any) -> None:
    head = gh_api(gh_env, f"repos/{REPO}/pulls/1")["head"]["sha"]
    suites = gh_api(gh_env, f"repos/{REPO}/commits/{head}/check-suites")
    assert [(s["app"]["slug"], s["status"], s["conclusion"]) for s in suites["check_suites"]] == [
        ("github-actions", "completed", "failure")
    ]
    assert [p["number"] for p in gh_api(gh_env, f"repos/{REPO}/commits/{head}/pulls")] == [1]
    assert gh_api(gh_env, f"repos/{REPO}/commits/{head}/comments") == []
    unknown = gh(gh_env, "api", f"repos/{REPO}/commits/{head}/unknown")
    assert unknown.returncode == 1 and "HTTP 404" in unknown.stderr


# -- the routes' filters and 404s, in-process ----------------------------------------
def _two_runs(emulator: Emulator) -> tuple[str, str]:
    """Two pushed heads with CI: feat/a failing, feat/b passing; their shas."""
    emulator.create_pull(REPO, "feat/a", author="octo")
    emulator.create_pull(REPO, "feat/b", author="octo")
    a = emulator.set_ci(REPO, "failure", pr=1, name="tests")
    b = emulator.set_ci(REPO, "success", pr=2, name="tests")
    return a, b


def test_runs_are_newest_first_and_filtered(emulator: Emulator, api: httpx.Client) -> None:
    a, b = _two_runs(emulator)
    runs = f"/repos/{REPO}/actions/runs"

    def heads(**query: str) -> list[str]:
        body = api.get(runs, params=query).json()
        assert body["total_count"] == len(body["workflow_runs"])
        return [r["head_branch"] for r in body["workflow_runs"]]

    assert heads() == ["feat/b", "feat/a"]
    assert heads(branch="feat/a") == heads(head_sha=a) == ["feat/a"]
    assert heads(status="failure") == ["feat/a"]  # a conclusion
    assert heads(status="completed") == ["feat/b", "feat/a"]  # a status
    assert heads(status="queued") == heads(event="pull_request") == []
    assert heads(branch="") == heads(event="push") == ["feat/b", "feat/a"]  # empty: no filter
    assert heads(actor="nobody") == []
    paged = api.get(runs, params={"per_page": 1, "page": 2})
    assert paged.json()["total_count"] == 2
    assert [r["head_sha"] for r in paged.json()["workflow_runs"]] == [a]
    assert 'rel="first"' in paged.headers["link"]
    assert b != a


def test_a_workflow_by_id_or_file_name_and_its_runs(emulator: Emulator, api: httpx.Client) -> None:
    actions = f"/repos/{REPO}/actions"
    assert api.get(f"{actions}/workflows").json() == {"total_count": 0, "workflows": []}
    _two_runs(emulator)
    [flow] = api.get(f"{actions}/workflows").json()["workflows"]
    assert flow["name"] == "CI"
    file = flow["path"].rsplit("/", 1)[-1]
    assert api.get(f"{actions}/workflows/{file}").json()["id"] == flow["id"]
    by_id = api.get(f"{actions}/workflows/{flow['id']}/runs", params={"branch": "feat/b"})
    assert [r["head_branch"] for r in by_id.json()["workflow_runs"]] == ["feat/b"]
    assert api.get(f"{actions}/workflows/other.yml").status_code == 404
    assert api.get(f"{actions}/workflows/{flow['id'] + 1}/runs").status_code == 404


def test_unknown_runs_jobs_and_suites_are_404s(emulator: Emulator, api: httpx.Client) -> None:
    _two_runs(emulator)
    run = api.get(f"/repos/{REPO}/actions/runs").json()["workflow_runs"][0]
    actions = f"/repos/{REPO}/actions"
    assert api.get(f"{actions}/runs/{run['id']}/artifacts").json() == {
        "total_count": 0,
        "artifacts": [],
    }
    [job] = api.get(f"{actions}/runs/{run['id']}/jobs").json()["jobs"]
    assert api.get(f"{actions}/jobs/{job['id']}").json()["run_id"] == run["id"]
    assert api.get(f"/repos/{REPO}/check-runs/{job['id']}/annotations").json() == []
    suite = f"/repos/{REPO}/check-suites/{run['check_suite_id']}"
    assert api.get(suite).json()["conclusion"] == "success"
    emulator.create_repo("acme/other")  # ids are found in their own repository only
    other = "/repos/acme/other"
    for path in [
        f"{other}/actions/runs/{run['id']}",
        f"{other}/actions/runs/{run['id']}/logs",
        f"{other}/actions/jobs/{job['id']}",
        f"{other}/actions/jobs/{job['id']}/logs",
        f"{other}/check-runs/{job['id']}/annotations",
        f"{other}/check-suites/{run['check_suite_id']}",
        f"{actions}/runs/abc",
        f"{actions}/runs/999999/jobs",
    ]:
        assert api.get(path).status_code == 404, path


def test_no_releases(api: httpx.Client) -> None:
    assert api.get(f"/repos/{REPO}/releases").json() == []
    assert api.get(f"/repos/{REPO}/releases/latest").status_code == 404
    assert api.get(f"/repos/{REPO}/releases/tags/v1").status_code == 404
    assert api.get("/repos/acme/none/releases").status_code == 404
