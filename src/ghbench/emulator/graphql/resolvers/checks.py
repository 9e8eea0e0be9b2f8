"""Commits and their CI: ``statusCheckRollup`` over check runs and commit statuses."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import Page, paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    iso,
    repo_url_of,
    store_of,
)
from ghbench.emulator.graphql.resolvers.views import CommitView, RollupView
from ghbench.emulator.state.actions import APPS
from ghbench.emulator.state.trees import DiffStat, diff_stat

if TYPE_CHECKING:
    from ghbench.emulator.state import CheckRun, CheckSuite, CommitStatus, WorkflowRun

__all__ = [
    "CHECK_RUN_FIELDS",
    "CHECK_SUITE_FIELDS",
    "COMMIT_FIELDS",
    "CONTEXT_CONNECTION_FIELDS",
    "ROLLUP_FIELDS",
    "STATUS_CONTEXT_FIELDS",
    "WORKFLOW_FIELDS",
    "WORKFLOW_RUN_FIELDS",
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


def _history(view: CommitView, info: Info, **args: Any) -> Page:
    """The commits reachable from this one, as ``git rev-list`` walks them (``path``
    with git's history simplification, ``since``, ``until``); ``author.emails`` keeps
    those by an author."""
    store = store_of(info)
    shas = store.log(
        view.repo,
        view.commit.sha,
        path=args.get("path"),
        since=args.get("since"),
        until=args.get("until"),
    )
    commits = [store.commits[(view.repo.id, sha)] for sha in shas]
    emails = {e.lower() for e in (args.get("author") or {}).get("emails") or ()}
    if emails:
        commits = [c for c in commits if c.author_email.lower() in emails]
    return paginate([CommitView(view.repo, c) for c in commits], **args)


def _parents(view: CommitView, info: Info, **args: Any) -> Page:
    store = store_of(info)
    found = [store.commits.get((view.repo.id, sha)) for sha in view.commit.parents]
    return paginate([CommitView(view.repo, c) for c in found if c is not None], **args)


def _check_suites(view: CommitView, info: Info, **args: Any) -> Page:
    """The commit's check suites; ``filterBy.appId`` and ``checkName`` keep some."""
    store = store_of(info)
    suites = store.check_suites(view.repo, view.commit.sha)
    wanted = args.get("filterBy") or {}
    if wanted.get("appId") is not None:
        suites = [s for s in suites if APPS[s.app]["id"] == wanted["appId"]]
    if wanted.get("checkName"):
        name = wanted["checkName"]
        suites = [s for s in suites if any(r.name == name for r in store.suite_runs(s))]
    return paginate(suites, **args)


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
    "history": _history,
    "parents": _parents,
    "checkSuites": _check_suites,
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
    return f"{repo_url_of(info, run.repo_id)}/runs/{run.id}"


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
    "checkSuite": lambda r, info: store_of(info).suite_of(r),
}


def _app(suite: CheckSuite, _: Info) -> dict[str, Any]:
    known = APPS[suite.app]
    return {
        "id": known["node_id"],
        "databaseId": known["id"],
        "name": known["name"],
        "slug": suite.app,
    }


def _suite_state(suite: CheckSuite, info: Info) -> tuple[str, str | None]:
    store = store_of(info)
    return store.combined(store.suite_runs(suite))


def _suite_url(suite: CheckSuite, info: Info) -> str:
    commit = f"{repo_url_of(info, suite.repo_id)}/commit/{suite.head_sha}"
    return f"{commit}/checks?check_suite_id={suite.id}"


def _suite_check_runs(suite: CheckSuite, info: Info, **args: Any) -> Page:
    runs = store_of(info).suite_runs(suite)
    wanted = args.get("filterBy") or {}
    if wanted.get("checkName"):
        runs = [r for r in runs if r.name == wanted["checkName"]]
    if wanted.get("status"):
        runs = [r for r in runs if r.status.upper() == wanted["status"]]
    return paginate(sorted(runs, key=lambda r: r.id), **args)


def _suite_commit(suite: CheckSuite, info: Info) -> CommitView:
    store = store_of(info)
    repo = store.repos[suite.repo_id]
    return CommitView(repo, store.commits[(repo.id, suite.head_sha)])


CHECK_SUITE_FIELDS = {
    "id": lambda s, _: s.node_id,
    "databaseId": lambda s, _: s.id,
    "status": lambda s, info: _suite_state(s, info)[0].upper(),
    "conclusion": lambda s, info: (_suite_state(s, info)[1] or "").upper() or None,
    "app": _app,
    "workflowRun": lambda s, info: store_of(info).run_of_suite(s),
    "checkRuns": _suite_check_runs,
    "commit": _suite_commit,
    "createdAt": lambda s, _: iso(s.created_at),
    "updatedAt": lambda s, _: iso(s.updated_at),
    "repository": lambda s, info: store_of(info).repos[s.repo_id],
    "url": _suite_url,
    "resourcePath": lambda s, info: _suite_url(s, info).removeprefix(context_of(info).web_url),
}


def _workflow_of(run: WorkflowRun, info: Info) -> Any:
    store = store_of(info)
    return next(w for w in store.workflows(store.repos[run.repo_id]) if w.id == run.workflow_id)


WORKFLOW_RUN_FIELDS = {
    # gh 2.102's feature detection looks for this field (PullRequest_fields2) and asks
    # for it in ``pr checks`` once it exists, as on github.com
    "event": lambda r, _: r.event,
    "id": lambda r, _: r.node_id,
    "runNumber": lambda r, _: r.run_number,
    "workflow": _workflow_of,
}


WORKFLOW_FIELDS = {
    "id": lambda w, _: w.node_id,
    "name": lambda w, _: w.name,
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
