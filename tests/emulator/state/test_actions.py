"""A minimal GitHub Actions: ``set_ci`` makes a status and a job of the CI workflow's
run; a run's state follows its jobs; a job's steps and log read as the runner's."""

from __future__ import annotations

import pytest
from emu_helpers import store_with_repo

from ghbench.emulator.state import CheckRun
from ghbench.emulator.state.actions import ACTIONS_APP, CHECKS_APP


def test_set_ci_is_a_status_and_one_job_per_name_in_one_run() -> None:
    store, repo, octo, sha = store_with_repo()
    store.set_ci(repo, sha, "pending", octo)
    store.set_ci(repo, sha, "failure", octo, log="tests failed")
    store.set_ci(repo, sha, "success", octo, name="lint")
    (workflow,) = store.workflows(repo)
    (run,) = store.runs(repo)
    assert (workflow.name, workflow.path) == ("CI", ".github/workflows/ci.yml")
    assert (run.head_sha, run.head_branch, run.run_number) == (sha, "main", 1)
    jobs = {job.name: job for job in store.jobs(run)}
    assert {n: (j.status, j.conclusion) for n, j in jobs.items()} == {
        "ci": ("completed", "failure"),
        "lint": ("completed", "success"),
    }
    assert store.run_state(run) == ("completed", "failure")
    assert store.job(repo, jobs["ci"].id) is jobs["ci"]
    suite = store.suite_of(jobs["ci"])
    assert suite.app == ACTIONS_APP and store.run_of_suite(suite) is run
    assert [s.state for s in store.statuses(repo, sha)] == ["success", "failure", "pending"]


def _run(status: str, conclusion: str | None = None) -> CheckRun:
    return CheckRun(
        id=1, node_id="CR_1", repo_id=1, head_sha="a" * 40, name="x", status=status,
        conclusion=conclusion,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("runs", "state"),
    [
        ([], ("queued", None)),
        ([_run("queued"), _run("queued")], ("queued", None)),
        ([_run("completed", "success"), _run("queued")], ("in_progress", None)),
        ([_run("completed", "success"), _run("completed", "skipped")], ("completed", "success")),
        ([_run("completed", "cancelled"), _run("completed", "failure")], ("completed", "failure")),
        (
            [_run("completed", "timed_out"), _run("completed", "success")],
            ("completed", "timed_out"),
        ),
    ],
)
def test_a_runs_state_follows_its_jobs(runs: list[CheckRun], state: tuple[str, str | None]) -> None:
    store, *_ = store_with_repo()
    assert store.combined(runs) == state


def test_a_failed_jobs_log_ends_as_the_runners_and_every_line_is_stamped() -> None:
    store, repo, octo, sha = store_with_repo()
    store.set_ci(repo, sha, "failure", octo, log="step one\nstep two")
    (job,) = store.jobs(store.runs(repo)[0])
    steps = store.steps(job)
    assert [s.name for s in steps] == ["Set up job", "Run ci", "Complete job"]
    assert steps[1].lines == ["step one", "step two", "Error: Process completed with exit code 1."]
    log = store.job_log(job)
    assert log.count("##[group]") == 3 and log.endswith("##[endgroup]\n")
    assert all(line[:4].isdigit() and line[10] == "T" for line in log.splitlines())


def test_a_queued_job_has_no_log_yet_and_a_running_one_its_lines() -> None:
    store, repo, _, sha = store_with_repo()
    queued = store.create_check_run(repo, sha, "build")
    assert store.job_log(queued) == ""
    running = store.create_check_run(repo, sha, "test", status="in_progress", log="working")
    steps = store.steps(running)
    assert [s.status for s in steps] == ["completed", "in_progress", "queued"]
    assert "working" in store.job_log(running)


def test_rest_check_runs_share_the_apps_suite_per_commit() -> None:
    store, repo, _, sha = store_with_repo()
    one = store.create_check_run(repo, sha, "a")
    two = store.create_check_run(repo, sha, "b")
    assert one.suite_id == two.suite_id and store.suites[one.suite_id].app == CHECKS_APP
    assert {r.id for r in store.suite_runs(store.suites[one.suite_id])} == {one.id, two.id}
