"""GitHub's JSON for Actions and checks (``rest/actions_render.py``), on the store: a
workflow run's and a check suite's status follow their jobs, a job's steps and runner
say whether it started, open pull requests with the head are listed (closed ones are
not), and URLs are on the request's bases."""

from __future__ import annotations

import pytest

from ghbench.emulator.core import Emulator
from ghbench.emulator.rest import actions_render
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.state import Repo, Store

API = "http://api.test"
WEB = "https://ghe.test"
R = RestRenderer(API, WEB)


@pytest.fixture
def repo(emulator: Emulator) -> Repo:
    found = emulator.store.repo("acme", "todo")
    assert found is not None
    return found


def _jobs(store: Store, repo: Repo) -> dict[str, dict[str, object]]:
    [run] = store.runs(repo)
    return {j.name: actions_render.job(R, store, repo, j) for j in store.jobs(run)}


def test_a_run_and_its_suite_follow_their_jobs(emulator: Emulator, repo: Repo) -> None:
    store = emulator.store
    number = emulator.create_pull("acme/todo", "feat/x", title="Fix it")
    sha = emulator.push("acme/todo", "feat/x", "Second line\n\nbody")
    emulator.set_ci("acme/todo", "queued", pr=number, name="tests")
    emulator.set_ci("acme/todo", "success", pr=number, name="lint")
    [run] = store.runs(repo)
    shown = actions_render.workflow_run(R, store, repo, run)
    assert (shown["status"], shown["conclusion"]) == ("in_progress", None)  # one job done
    assert shown["display_title"] == "Second line" and shown["head_sha"] == sha
    assert [p["number"] for p in shown["pull_requests"]] == [number]
    assert shown["logs_url"] == f"{API}/repos/acme/todo/actions/runs/{run.id}/logs"
    assert shown["html_url"] == f"{WEB}/acme/todo/actions/runs/{run.id}"
    [suite] = store.check_suites(repo, sha)
    suite_json = actions_render.check_suite(R, store, repo, suite)
    assert (suite_json["status"], suite_json["latest_check_runs_count"]) == ("in_progress", 2)
    assert suite_json["app"]["slug"] == "github-actions"
    assert suite_json["head_commit"]["message"] == "Second line\n\nbody"
    emulator.set_ci("acme/todo", "failure", pr=number, name="tests")
    shown = actions_render.workflow_run(R, store, repo, run)
    assert (shown["status"], shown["conclusion"]) == ("completed", "failure")
    assert actions_render.check_suite(R, store, repo, suite)["conclusion"] == "failure"
    pull = store.pull(repo, number)
    assert pull is not None
    with emulator.db.transaction():
        store.close_pull(pull)
    assert actions_render.workflow_run(R, store, repo, run)["pull_requests"] == []


def test_a_jobs_steps_and_runner_say_whether_it_started(emulator: Emulator, repo: Repo) -> None:
    store = emulator.store
    number = emulator.create_pull("acme/todo", "feat/x")
    emulator.set_ci("acme/todo", "queued", pr=number, name="tests")
    queued = _jobs(store, repo)["tests"]
    assert queued["runner_name"] is None and queued["completed_at"] is None
    assert [s["status"] for s in queued["steps"]] == ["queued"] * 3  # type: ignore[index]
    emulator.set_ci("acme/todo", "pending", pr=number, name="tests")
    running = _jobs(store, repo)["tests"]
    steps = running["steps"]
    assert [s["status"] for s in steps] == ["completed", "in_progress", "queued"]  # type: ignore[index]
    assert running["runner_name"] == "GitHub Actions 1"
    emulator.set_ci("acme/todo", "success", pr=number, name="tests")
    done = _jobs(store, repo)["tests"]
    assert done["conclusion"] == "success" and done["completed_at"] is not None
    assert all(s["completed_at"] == done["completed_at"] for s in done["steps"])  # type: ignore[attr-defined]
    assert done["workflow_name"] == "CI" and done["head_branch"] == "feat/x"
    run = store.check_run(repo, int(done["id"]))  # type: ignore[arg-type]
    assert run is not None
    check = actions_render.check_run(R, store, repo, run)
    assert check["html_url"] == done["html_url"]  # a job's page under its run
    assert check["check_suite"]["id"] == store.runs(repo)[0].suite_id


def test_a_workflow(emulator: Emulator, repo: Repo) -> None:
    emulator.set_ci("acme/todo", "success", sha=emulator.push("acme/todo", "main"))
    [flow] = emulator.store.workflows(repo)
    shown = actions_render.workflow(R, repo, flow)
    assert shown["url"] == f"{API}/repos/acme/todo/actions/workflows/{flow.id}"
    assert shown["html_url"] == f"{WEB}/acme/todo/blob/main/{flow.path}"
    assert shown["badge_url"] == f"{WEB}/acme/todo/workflows/CI/badge.svg"
