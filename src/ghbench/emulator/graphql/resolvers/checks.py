"""Commits and their CI: ``statusCheckRollup`` over check runs and commit statuses."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import Page, paginate
from ghbench.emulator.graphql.resolvers.context import Info, context_of, iso, store_of
from ghbench.emulator.graphql.resolvers.views import CheckSuiteView, CommitView, RollupView
from ghbench.emulator.state.trees import DiffStat, diff_stat

if TYPE_CHECKING:
    from ghbench.emulator.state import CheckRun, CommitStatus

__all__ = [
    "CHECK_RUN_FIELDS",
    "CHECK_SUITE_FIELDS",
    "COMMIT_FIELDS",
    "CONTEXT_CONNECTION_FIELDS",
    "ROLLUP_FIELDS",
    "STATUS_CONTEXT_FIELDS",
    "rollup_for",
]


# A check run's (status, conclusion) -> its StatusState in the rollup.
_FAILING_CONCLUSIONS = {"failure", "timed_out", "cancelled", "action_required", "startup_failure"}
# Worst wins: the rollup's state is the most severe of its contexts'.
_SEVERITY = {"ERROR": 4, "FAILURE": 3, "PENDING": 2, "EXPECTED": 2, "SUCCESS": 1}


def _run_state(run: CheckRun) -> str:
    if run.status != "completed":
        return "PENDING"
    return "FAILURE" if run.conclusion in _FAILING_CONCLUSIONS else "SUCCESS"


def _run_rollup_state(run: CheckRun) -> str:
    """CheckRunState: the conclusion once completed, else the status."""
    if run.status == "completed" and run.conclusion:
        return run.conclusion.upper()
    return run.status.upper()


def rollup_for(info: Info, commit: CommitView) -> RollupView | None:
    """GitHub answers ``null`` for a commit with neither check runs nor statuses."""
    store = store_of(info)
    latest_runs: dict[str, CheckRun] = {}
    for run in store.check_runs(commit.repo, commit.commit.sha):  # newest first
        latest_runs.setdefault(run.name, run)
    statuses = store.latest_statuses(commit.repo, commit.commit.sha)
    contexts: list[CheckRun | CommitStatus] = [
        *sorted(latest_runs.values(), key=lambda r: r.id),
        *statuses,
    ]
    if not contexts:
        return None
    states = [_run_state(r) for r in latest_runs.values()] + [s.state.upper() for s in statuses]
    worst = max(states, key=lambda s: _SEVERITY.get(s, 0))
    return RollupView(commit, contexts, worst)


def _commit_url(view: CommitView, info: Info) -> str:
    return f"{context_of(info).repo_url(view.repo)}/commit/{view.commit.sha}"


def _message_parts(view: CommitView) -> tuple[str, str]:
    headline, _, body = view.commit.message.partition("\n")
    return headline, body.strip("\n")


def _stat(view: CommitView, info: Info) -> DiffStat:
    # against the first parent, from the same cached diff as pull request files
    return diff_stat(store_of(info).commit_files(view.repo, view.commit))


def _authors(view: CommitView, info: Info, **args: Any) -> Page:
    """The git author (name and email as in the commit), with the user it maps to."""
    commit = view.commit
    login = commit.author_login
    user = store_of(info).user(login) if login else None
    actor = {"name": commit.author_name, "email": commit.author_email, "user": user}
    return paginate([actor], **args)


COMMIT_FIELDS = {
    "id": lambda c, _: f"C_kwDO{c.commit.id:06X}",
    "oid": lambda c, _: c.commit.sha,
    "abbreviatedOid": lambda c, _: c.commit.sha[:7],
    "message": lambda c, _: c.commit.message,
    "messageHeadline": lambda c, _: _message_parts(c)[0],
    "messageBody": lambda c, _: _message_parts(c)[1],
    "committedDate": lambda c, _: iso(c.commit.committed_at),
    "authoredDate": lambda c, _: iso(c.commit.created_at),
    "additions": lambda c, info: _stat(c, info).additions,
    "deletions": lambda c, info: _stat(c, info).deletions,
    "changedFilesIfAvailable": lambda c, info: _stat(c, info).changed_files,
    "url": _commit_url,
    "commitUrl": _commit_url,
    "repository": lambda c, _: c.repo,
    "authors": _authors,
    "statusCheckRollup": lambda c, info: rollup_for(info, c),
}

ROLLUP_FIELDS = {
    "id": lambda r, _: f"SCR_kwDO{r.commit.commit.id:06X}",
    "commit": lambda r, _: r.commit,
    "state": lambda r, _: r.state,
    "contexts": lambda r, _, **args: paginate(r.contexts, **args),
}


def _is_check_run(context: object) -> bool:
    return type(context).__name__ == "CheckRun"


def _run_counts(page: Page, _: Info) -> list[dict[str, Any]]:
    counts = Counter(_run_rollup_state(c) for c in page.all_items if _is_check_run(c))
    return [{"state": state, "count": n} for state, n in sorted(counts.items())]


def _status_counts(page: Page, _: Info) -> list[dict[str, Any]]:
    counts = Counter(c.state.upper() for c in page.all_items if not _is_check_run(c))
    return [{"state": state, "count": n} for state, n in sorted(counts.items())]


CONTEXT_CONNECTION_FIELDS = {
    "checkRunCount": lambda p, _: sum(1 for c in p.all_items if _is_check_run(c)),
    "statusContextCount": lambda p, _: sum(1 for c in p.all_items if not _is_check_run(c)),
    "checkRunCountsByState": _run_counts,
    "statusContextCountsByState": _status_counts,
}


def _run_url(run: CheckRun, info: Info) -> str:
    repo = store_of(info).repos[run.repo_id]
    return f"{context_of(info).repo_url(repo)}/runs/{run.id}"


CHECK_RUN_FIELDS = {
    "id": lambda r, _: r.node_id,
    "databaseId": lambda r, _: r.id,
    "name": lambda r, _: r.name,
    "status": lambda r, _: r.status.upper(),
    "conclusion": lambda r, _: r.conclusion.upper() if r.conclusion else None,
    "detailsUrl": lambda r, info: r.details_url or _run_url(r, info),
    "url": _run_url,
    "permalink": _run_url,
    "startedAt": lambda r, _: iso(r.started_at),
    "completedAt": lambda r, _: iso(r.completed_at),
    "title": lambda r, _: r.output_title,
    "summary": lambda r, _: r.output_summary,
    "isRequired": lambda r, _, **_a: False,
    "checkSuite": lambda r, _: CheckSuiteView(r),
}

CHECK_SUITE_FIELDS = {
    "id": lambda s, _: f"CS_kwDO{s.run.id:06X}",
    "status": lambda s, _: s.run.status.upper(),
    "conclusion": lambda s, _: s.run.conclusion.upper() if s.run.conclusion else None,
    "app": lambda s, _: {
        "id": "A_kwDOAAA3ZQ",
        "databaseId": 15368,
        "name": "GitHub Actions",
        "slug": "github-actions",
    },
    "workflowRun": lambda s, _: None,
}

STATUS_CONTEXT_FIELDS = {
    "id": lambda s, _: s.node_id,
    "context": lambda s, _: s.context,
    "state": lambda s, _: s.state.upper(),
    "targetUrl": lambda s, _: s.target_url,
    "description": lambda s, _: s.description,
    "createdAt": lambda s, _: iso(s.created_at),
    "avatarUrl": lambda s, _, **_a: None,
    "creator": lambda s, info: store_of(info).users.get(s.creator_id),
    "isRequired": lambda s, _, **_a: False,
    "commit": lambda s, _: None,
}
