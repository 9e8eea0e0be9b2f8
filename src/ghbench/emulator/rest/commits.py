"""A commit's CI (statuses, check runs, check suites), its pull requests and comments."""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, found, invalid_field
from ghbench.emulator.rest import actions_render
from ghbench.emulator.rest.common import (
    body_field,
    counted_page,
    numbered,
    paginate,
    repo_of,
    viewer,
)
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Repo
from ghbench.emulator.state.actions import APPS

__all__ = ["ROUTES"]

_STATUS_STATES = ("error", "failure", "pending", "success")
_RUN_STATUSES = ("queued", "in_progress", "completed")
_CONCLUSIONS = (
    "action_required",
    "cancelled",
    "failure",
    "neutral",
    "success",
    "skipped",
    "stale",
    "timed_out",
)


def _sha(call: Call, repo: Repo) -> str:
    """``{ref}``: a sha, a branch or tag name (``/`` in it, encoded or not), ``heads/x``."""
    ref = call.params["ref"]
    sha = call.store.resolve(repo, ref)
    if sha is None:
        raise NotFound("No commit found for SHA: " + ref)
    return sha


def combined_status(call: Call) -> Reply:
    """The worst of the latest status per context; `{ref}` a sha, branch or tag (`/`
    in names, encoded or not)."""
    repo = repo_of(call)
    return Reply(call.render.combined_status(call.store, repo, _sha(call, repo)))


def list_statuses(call: Call) -> Reply:
    """Newest first."""
    repo = repo_of(call)
    page, headers = paginate(call, call.store.statuses(repo, _sha(call, repo)))
    return Reply(
        [call.render.status(call.store, repo, s, creator=True) for s in page], headers=headers
    )


def create_status(call: Call) -> Reply:
    """`state`, `context` (default "default"), `description`, `target_url`."""
    repo = repo_of(call)
    sha = call.params["sha"]
    if call.store.commit(repo, sha) is None:
        raise invalid_field("Status", "sha", f"No commit found for SHA: {sha}")
    state = body_field(call, "Status", "state", str)
    if state not in _STATUS_STATES:
        raise invalid_field("Status", "state")
    status = call.store.add_status(
        repo,
        sha,
        state,
        viewer(call),
        context=body_field(call, "Status", "context", str, default="default"),
        description=body_field(call, "Status", "description", str, default="") or None,
        target_url=body_field(call, "Status", "target_url", str, default="") or None,
    )
    return Reply(call.render.status(call.store, repo, status, creator=True), status=201)


def list_check_runs(call: Call) -> Reply:
    """`per_page`, `check_name`, `status`."""
    repo = repo_of(call)
    runs = call.store.check_runs(repo, _sha(call, repo))
    if name := call.query.get("check_name"):
        runs = [r for r in runs if r.name == name]
    if status := call.query.get("status"):
        runs = [r for r in runs if r.status == status]
    return counted_page(
        call,
        "check_runs",
        runs,
        lambda r: actions_render.check_run(call.render, call.store, repo, r),
    )


def _run_fields(call: Call) -> tuple[str | None, str | None]:
    status = body_field(call, "CheckRun", "status", str, default="") or None
    conclusion = body_field(call, "CheckRun", "conclusion", str, default="") or None
    if status is not None and status not in _RUN_STATUSES:
        raise invalid_field("CheckRun", "status")
    if conclusion is not None and conclusion not in _CONCLUSIONS:
        raise invalid_field("CheckRun", "conclusion")
    return status, conclusion


def create_check_run(call: Call) -> Reply:
    """A conclusion completes the run."""
    repo = repo_of(call)
    viewer(call)
    head_sha = body_field(call, "CheckRun", "head_sha", str)
    if call.store.commit(repo, head_sha) is None:
        raise invalid_field("CheckRun", "head_sha", "No commit found for SHA: " + head_sha)
    status, conclusion = _run_fields(call)
    output = call.body.get("output") if isinstance(call.body, dict) else None
    output = output if isinstance(output, dict) else {}
    run = call.store.create_check_run(
        repo,
        head_sha,
        body_field(call, "CheckRun", "name", str),
        status=status or "queued",
        conclusion=conclusion,
        details_url=body_field(call, "CheckRun", "details_url", str, default="") or None,
        external_id=body_field(call, "CheckRun", "external_id", str, default="") or None,
        output_title=str(output.get("title")) if output.get("title") else None,
        output_summary=str(output.get("summary")) if output.get("summary") else None,
    )
    return Reply(actions_render.check_run(call.render, call.store, repo, run), status=201)


def get_check_run(call: Call) -> Reply:
    """One check run."""
    repo, run = numbered(call, call.store.check_run, "run_id")
    return Reply(actions_render.check_run(call.render, call.store, repo, run))


def update_check_run(call: Call) -> Reply:
    """A conclusion completes the run."""
    repo = repo_of(call)
    viewer(call)
    run = found(call.store.check_run(repo, call.param_int("run_id")))
    status, conclusion = _run_fields(call)
    call.store.update_check_run(run, status=status, conclusion=conclusion)
    return Reply(actions_render.check_run(call.render, call.store, repo, run))


def list_check_suites(call: Call) -> Reply:
    """The commit's check suites (an Actions run's; the `ghbench` app's for check runs
    made through the API): `app_id`, `check_name`, `per_page`, `page`."""
    repo = repo_of(call)
    suites = call.store.check_suites(repo, _sha(call, repo))
    if (app_id := call.query.get("app_id", "")).isdigit():
        suites = [s for s in suites if APPS[s.app]["id"] == int(app_id)]
    if name := call.query.get("check_name"):
        suites = [s for s in suites if any(r.name == name for r in call.store.suite_runs(s))]
    return counted_page(
        call,
        "check_suites",
        suites,
        lambda s: actions_render.check_suite(call.render, call.store, repo, s),
    )


def commit_pulls(call: Call) -> Reply:
    """The pull requests the commit belongs to: open ones that contain it, and the
    merged one that brought it to its base (GitHub: "the merged pull request that
    introduced the commit", else open ones only)."""
    repo = repo_of(call)
    sha = _sha(call, repo)
    store = call.store
    found = []
    for pull in store.pulls(repo, "all"):
        if pull.state == "open" or pull.merged:
            shas = {c.sha for c in store.pull_commits(pull)} | {pull.merge_commit_sha}
            if sha in shas:
                found.append(pull)
    merged = [p for p in found if p.merged]
    chosen = merged if merged else found
    page, headers = paginate(call, chosen)
    return Reply([call.render.pull(store, repo, p) for p in page], headers=headers)


def commit_comments(call: Call) -> Reply:
    """None: commit comments are not modelled (a commit without any)."""
    repo = repo_of(call)
    _sha(call, repo)
    return Reply([])


_R = "/repos/{owner}/{repo}"
ROUTES = [
    Route("GET", _R + "/commits/{ref:path}/check-suites", list_check_suites, etag=True),
    Route("GET", _R + "/commits/{ref:path}/pulls", commit_pulls, etag=True),
    Route("GET", _R + "/commits/{ref:path}/comments", commit_comments, etag=True),
    Route("GET", _R + "/commits/{ref:path}/status", combined_status, etag=True),
    Route("GET", _R + "/commits/{ref:path}/statuses", list_statuses, etag=True),
    Route("POST", _R + "/statuses/{sha}", create_status, anonymous=False),
    Route("GET", _R + "/commits/{ref:path}/check-runs", list_check_runs, etag=True),
    Route("POST", _R + "/check-runs", create_check_run, anonymous=False),
    Route("GET", _R + "/check-runs/{run_id}", get_check_run, etag=True),
    Route("PATCH", _R + "/check-runs/{run_id}", update_check_run, anonymous=False),
]
