"""A minimal GitHub Actions: workflow runs and jobs for a pushed head, with their logs.

CI is set through the Python or control API (``set_ci``): for a commit it is a commit
status and an Actions job of the same name in that commit's run of the workflow
``CI`` (``.github/workflows/ci.yml``, made with its first run). As on GitHub, a job
*is* a check run (its job id is the check run's id) in the run's check suite, so
``statusCheckRollup``'s ``databaseId`` leads to ``actions/jobs/{id}/logs``. A run's
status and conclusion follow its jobs. Every job has three steps (``Set up job``,
``Run NAME``, ``Complete job``) and a log: the lines given to ``set_ci``, or a few
lines ending, for a failure, in the runner's ``Process completed with exit code 1``.

Check runs made through ``POST check-runs`` belong to a check suite of the app
``ghbench`` per commit, as a third-party app's runs do; they are not Actions jobs.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime

from ghbench.emulator.state.checks import CI_STATES, CheckOps
from ghbench.emulator.state.models import (
    CheckRun,
    CheckSuite,
    Record,
    Repo,
    User,
    Workflow,
    WorkflowRun,
)

__all__ = ["ACTIONS_APP", "APPS", "CHECKS_APP", "ActionsOps", "Step"]

ACTIONS_APP = "github-actions"
CHECKS_APP = "ghbench"  # the app of check runs made through the REST API
# The apps check suites come from, by slug: GitHub Actions (GitHub's ids) and the
# emulator's own for check runs made through the REST API.
APPS: dict[str, dict[str, str | int]] = {
    ACTIONS_APP: {
        "id": 15368,
        "node_id": "MDM6QXBwMTUzNjg=",
        "name": "GitHub Actions",
        "description": "Automate your workflow from idea to production",
        "owner": "github",
        "owner_id": 9919,
    },
    CHECKS_APP: {
        "id": 1,
        "node_id": "A_kwDOAAAAAQ",
        "name": "ghbench",
        "description": "Check runs made through the REST API",
        "owner": "ghbench",
        "owner_id": 1,
    },
}
WORKFLOW_NAME = "CI"
WORKFLOW_PATH = ".github/workflows/ci.yml"
# What a job that ended so printed last (the runner's words for a failing step).
_ENDINGS = {
    "success": [],
    "failure": ["Error: Process completed with exit code 1."],
    "cancelled": ["Error: The operation was canceled."],
}


class Step:
    """One step of a job: its number, name, status, conclusion and log lines."""

    __slots__ = ("conclusion", "lines", "name", "number", "status")

    def __init__(
        self, number: int, name: str, status: str, conclusion: str | None, lines: list[str]
    ) -> None:
        self.number, self.name, self.lines = number, name, lines
        self.status, self.conclusion = status, conclusion


def _stamp(when: float) -> str:
    # the runner's timestamp on every log line: ISO 8601 with seven fractional digits
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%S.0000000Z")


class ActionsOps(CheckOps):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        self.workflows_by_repo: dict[int, list[Workflow]] = defaultdict(list)
        self.workflow_runs: dict[int, WorkflowRun] = {}
        self.runs_by_suite: dict[int, WorkflowRun] = {}
        self.suites: dict[int, CheckSuite] = {}
        self.suites_by_sha: dict[tuple[int, str], list[CheckSuite]] = defaultdict(list)
        self.jobs_by_run: dict[int, list[CheckRun]] = defaultdict(list)

    def _index(self, record: Record) -> None:
        super()._index(record)
        match record:
            case Workflow():
                self.workflows_by_repo[record.repo_id].append(record)
            case WorkflowRun():
                self.workflow_runs[record.id] = record
                self.runs_by_suite[record.suite_id] = record
            case CheckSuite():
                self.suites[record.id] = record
                self.suites_by_sha[(record.repo_id, record.head_sha)].append(record)
            case CheckRun() if record.run_id is not None:
                self.jobs_by_run[record.run_id].append(record)

    # -- reads -------------------------------------------------------------------
    def workflows(self, repo: Repo) -> list[Workflow]:
        return self.workflows_by_repo.get(repo.id, [])

    def runs(self, repo: Repo) -> list[WorkflowRun]:
        """A repository's workflow runs, newest first."""
        found = [r for r in self.workflow_runs.values() if r.repo_id == repo.id]
        return sorted(found, key=lambda r: r.id, reverse=True)

    def workflow_run(self, repo: Repo, run_id: int) -> WorkflowRun | None:
        run = self.workflow_runs.get(run_id)
        return run if run is not None and run.repo_id == repo.id else None

    def jobs(self, run: WorkflowRun) -> list[CheckRun]:
        return self.jobs_by_run.get(run.id, [])

    def job(self, repo: Repo, job_id: int) -> CheckRun | None:
        run = self.check_run(repo, job_id)
        return run if run is not None and run.run_id is not None else None

    def check_suites(self, repo: Repo, sha: str) -> list[CheckSuite]:
        return self.suites_by_sha.get((repo.id, sha), [])

    def suite_runs(self, suite: CheckSuite) -> list[CheckRun]:
        return [
            r
            for r in self.check_runs(self.repos[suite.repo_id], suite.head_sha)
            if r.suite_id == suite.id
        ]

    def suite_of(self, run: CheckRun) -> CheckSuite:
        """The run's check suite (a run from before suites joins the ``ghbench`` app's)."""
        if run.suite_id is None:
            run.suite_id = self.app_suite(self.repos[run.repo_id], run.head_sha).id
            self.save(run)
        return self.suites[run.suite_id]

    def run_of_suite(self, suite: CheckSuite) -> WorkflowRun | None:
        return self.runs_by_suite.get(suite.id)

    @staticmethod
    def combined(runs: list[CheckRun]) -> tuple[str, str | None]:
        """A suite's or workflow run's (status, conclusion) from its check runs: queued
        with none, in progress until all complete, then the worst conclusion."""
        if not runs:
            return "queued", None
        if any(r.status != "completed" for r in runs):
            started = any(r.status in ("in_progress", "completed") for r in runs)
            return ("in_progress" if started else "queued"), None
        for worst in ("failure", "timed_out", "cancelled", "action_required"):
            if any(r.conclusion == worst for r in runs):
                return "completed", worst
        return "completed", "success"

    def run_state(self, run: WorkflowRun) -> tuple[str, str | None]:
        return self.combined(self.jobs(run))

    def steps(self, job: CheckRun) -> list[Step]:
        """The job's three steps and their log lines."""
        lines = (job.log or "").splitlines() or [f"Running {job.name}"]
        if job.status == "completed":
            ending = _ENDINGS.get(job.conclusion or "", [])
            return [
                Step(1, "Set up job", "completed", "success", ["Prepare workflow directory"]),
                Step(2, f"Run {job.name}", "completed", job.conclusion, lines + ending),
                Step(3, "Complete job", "completed", "success", ["Cleaning up orphan processes"]),
            ]
        running = job.status == "in_progress"
        return [
            Step(
                1,
                "Set up job",
                "completed" if running else "queued",
                "success" if running else None,
                ["Prepare workflow directory"] if running else [],
            ),
            Step(
                2,
                f"Run {job.name}",
                "in_progress" if running else "queued",
                None,
                lines if running else [],
            ),
            Step(3, "Complete job", "queued", None, []),
        ]

    def job_log(self, job: CheckRun, steps: list[Step] | None = None) -> str:
        """The job's log as GitHub serves it: every line with the runner's timestamp,
        each step in a group."""
        stamp = _stamp(job.completed_at or job.started_at)
        out = []
        for step in steps if steps is not None else self.steps(job):
            if not step.lines:
                continue
            out.append(f"{stamp} ##[group]{step.name}")
            out += [f"{stamp} {line}" for line in step.lines]
            out.append(f"{stamp} ##[endgroup]")
        return "\n".join(out) + "\n" if out else ""

    # -- writes ------------------------------------------------------------------
    def _workflow(self, repo: Repo) -> Workflow:
        for workflow in self.workflows(repo):
            if workflow.path == WORKFLOW_PATH:
                return workflow
        workflow = self.create(
            Workflow,
            "W",
            now=("created_at",),
            repo_id=repo.id,
            name=WORKFLOW_NAME,
            path=WORKFLOW_PATH,
        )
        return workflow

    def _suite(self, repo: Repo, sha: str, app: str) -> CheckSuite:
        branch = next(
            (
                name.removeprefix("heads/")
                for (rid, name), ref in sorted(self.refs.items())
                if rid == repo.id and name.startswith("heads/") and ref.sha == sha
            ),
            None,
        )
        suite = self.create(
            CheckSuite,
            "CS",
            repo_id=repo.id,
            head_sha=sha,
            head_branch=branch,
            app=app,
        )
        return suite

    def app_suite(self, repo: Repo, sha: str) -> CheckSuite:
        """The check suite of the ``ghbench`` app for ``sha`` (made on first use)."""
        for suite in self.check_suites(repo, sha):
            if suite.app == CHECKS_APP:
                return suite
        return self._suite(repo, sha, CHECKS_APP)

    def _workflow_run(self, repo: Repo, sha: str, actor: User) -> WorkflowRun:
        """``sha``'s run of the CI workflow, started now if it has none."""
        workflow = self._workflow(repo)
        for run in self.runs(repo):
            if run.head_sha == sha and run.workflow_id == workflow.id:
                return run
        suite = self._suite(repo, sha, ACTIONS_APP)
        number = 1 + sum(1 for r in self.workflow_runs.values() if r.workflow_id == workflow.id)
        run = self.create(
            WorkflowRun,
            "WFR",
            repo_id=repo.id,
            workflow_id=workflow.id,
            suite_id=suite.id,
            run_number=number,
            head_branch=suite.head_branch,
            head_sha=sha,
            actor_id=actor.id,
        )
        return run

    def set_ci(
        self,
        repo: Repo,
        sha: str,
        state: str,
        creator: User,
        *,
        name: str = "ci",
        log: str | None = None,
    ) -> None:
        """Set CI for ``sha``: a commit status and the Actions job ``name`` of ``sha``'s
        workflow run (``log``: the job's output; a default one otherwise)."""
        status_state, run_status, conclusion = CI_STATES[state]
        self.add_status(repo, sha, status_state, creator, context=name)
        run = self._workflow_run(repo, sha, creator)
        now = self.now()
        for job in self.jobs(run):
            if job.name == name:
                job.status, job.conclusion = run_status, conclusion
                job.completed_at = now if run_status == "completed" else None
                job.log = log if log is not None else job.log
                self.save(job)
                break
        else:
            job = self.create_check_run(
                repo,
                sha,
                name,
                status=run_status,
                conclusion=conclusion,
                workflow_run=run,
                log=log,
            )
        run.updated_at = now
        self.save(run)
        self.suites[run.suite_id].updated_at = now
        self.save(self.suites[run.suite_id])
        self.ci_changed(repo, sha)

    def create_check_run(
        self,
        repo: Repo,
        head_sha: str,
        name: str,
        *,
        workflow_run: WorkflowRun | None = None,
        log: str | None = None,
        **fields: object,
    ) -> CheckRun:
        """A check run in ``workflow_run``'s suite (an Actions job), or in the
        ``ghbench`` app's suite for ``head_sha``."""
        suite_id = workflow_run.suite_id if workflow_run else self.app_suite(repo, head_sha).id
        return super().create_check_run(
            repo,
            head_sha,
            name,
            suite_id=suite_id,
            run_id=workflow_run.id if workflow_run else None,
            log=log,
            **fields,  # type: ignore[arg-type]
        )
