"""Commit statuses and check runs, and the combined CI state of a commit.

CI changes do not touch the pull request (its ``updated_at`` stays), as on GitHub:
that is why pollers need a separate commit-status guard.
"""

from __future__ import annotations

from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import CheckRun, CommitStatus, Repo, User

__all__ = ["CI_STATES", "CheckOps"]

# control-API CI state -> (status state, check-run status, check-run conclusion)
CI_STATES: dict[str, tuple[str, str, str | None]] = {
    "pending": ("pending", "in_progress", None),
    "queued": ("pending", "queued", None),
    "success": ("success", "completed", "success"),
    "failure": ("failure", "completed", "failure"),
    "error": ("error", "completed", "failure"),
    "cancelled": ("failure", "completed", "cancelled"),
}
# Worst first: the combined state is the worst of the latest status per context.
_SEVERITY = {"error": 3, "failure": 3, "pending": 2, "success": 1}
# A completed check run's conclusion -> success, failure or pending (as a status is).
_RUN_STATE = {
    "success": "success",
    "neutral": "success",
    "skipped": "success",
    "failure": "failure",
    "cancelled": "failure",
    "timed_out": "failure",
    "action_required": "failure",
    "startup_failure": "failure",
    "stale": "pending",
}


class CheckOps(StoreBase):
    # -- commit statuses ---------------------------------------------------------
    def statuses(self, repo: Repo, sha: str) -> list[CommitStatus]:
        """All statuses for ``sha``, newest first (GitHub's list order)."""
        return list(reversed(self.statuses_by_sha.get((repo.id, sha), [])))

    def latest_statuses(self, repo: Repo, sha: str) -> list[CommitStatus]:
        """The newest status per context, as in the combined status."""
        latest: dict[str, CommitStatus] = {}
        for status in self.statuses_by_sha.get((repo.id, sha), []):
            latest[status.context] = status
        return sorted(latest.values(), key=lambda s: s.context)

    def combined_state(self, repo: Repo, sha: str) -> str:
        latest = self.latest_statuses(repo, sha)
        if not latest:
            return "pending"
        worst = max(latest, key=lambda s: _SEVERITY.get(s.state, 0)).state
        return "failure" if worst == "error" else worst

    def check_states(self, repo: Repo, sha: str) -> dict[str, str]:
        """A commit's CI by name: the latest status per context and check run per name
        (a check run wins a name both have), each success, failure or pending."""
        states = {
            s.context: "failure" if s.state == "error" else s.state
            for s in self.latest_statuses(repo, sha)
        }
        seen: set[str] = set()
        for run in self.check_runs(repo, sha):  # newest first
            if run.name in seen:
                continue
            seen.add(run.name)
            done = run.status == "completed"
            states[run.name] = (
                _RUN_STATE.get(run.conclusion or "", "pending") if done else "pending"
            )
        return states

    def add_status(
        self,
        repo: Repo,
        sha: str,
        state: str,
        creator: User,
        *,
        context: str = "default",
        description: str | None = None,
        target_url: str | None = None,
    ) -> CommitStatus:
        status = self.create(
            CommitStatus,
            "SC",
            repo_id=repo.id,
            sha=sha,
            state=state,
            context=context,
            description=description,
            target_url=target_url,
            creator_id=creator.id,
        )
        self.ci_changed(repo, sha)
        return status

    # -- check runs --------------------------------------------------------------
    def check_runs(self, repo: Repo, sha: str) -> list[CheckRun]:
        """Check runs for ``sha``, newest first."""
        return list(reversed(self.check_runs_by_sha.get((repo.id, sha), [])))

    def check_run(self, repo: Repo, run_id: int) -> CheckRun | None:
        run = self.check_runs_by_id.get(run_id)
        return run if run is not None and run.repo_id == repo.id else None

    def create_check_run(
        self,
        repo: Repo,
        head_sha: str,
        name: str,
        *,
        status: str = "queued",
        conclusion: str | None = None,
        details_url: str | None = None,
        external_id: str | None = None,
        output_title: str | None = None,
        output_summary: str | None = None,
        suite_id: int | None = None,
        run_id: int | None = None,
        log: str | None = None,
    ) -> CheckRun:
        now = self.now()
        if conclusion is not None:
            status = "completed"
        run = self.create(
            CheckRun,
            "CR",
            now=(),
            repo_id=repo.id,
            head_sha=head_sha,
            name=name,
            status=status,
            conclusion=conclusion,
            details_url=details_url,
            external_id=external_id,
            output_title=output_title,
            output_summary=output_summary,
            started_at=now,
            completed_at=now if status == "completed" else None,
            suite_id=suite_id,
            run_id=run_id,
            log=log,
        )
        self.ci_changed(repo, head_sha)
        return run

    def ci_changed(self, repo: Repo, sha: str) -> None:
        """What follows a CI change on ``sha`` (auto-merge: ``merging.py``)."""

    def update_check_run(
        self, run: CheckRun, *, status: str | None = None, conclusion: str | None = None
    ) -> CheckRun:
        if conclusion is not None:
            run.conclusion = conclusion
            status = "completed"
        if status is not None:
            run.status = status
            run.completed_at = self.now() if status == "completed" else None
            if status != "completed":
                run.conclusion = None
        self.save(run)
        self.ci_changed(self.repos[run.repo_id], run.head_sha)
        return run
