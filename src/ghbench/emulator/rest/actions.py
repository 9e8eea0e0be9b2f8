"""GitHub Actions (workflows, runs, jobs and their logs; ``state/actions.py``) and
releases (none are published: GitHub's answers for a repository without any).

Logs are answered as GitHub answers them: ``302`` to a short-lived, signed download
URL (``blobs.py``), a plain-text job log or a run's zip of them; the download is not
the API (free, no token needed), the ``302`` is.
"""

from __future__ import annotations

from ghbench.emulator.blobs import blob_url
from ghbench.emulator.errors import NotFound
from ghbench.emulator.rest import actions_render
from ghbench.emulator.rest.common import counted_page, none_in_repo, not_in_repo, numbered, repo_of
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import CheckRun, Repo, Workflow, WorkflowRun

__all__ = ["ROUTES"]


def _runs(call: Call, repo: Repo, runs: list[WorkflowRun]) -> Reply:
    """Newest first; `branch`, `event`, `head_sha`, `actor`, `status` (a status or a
    conclusion) filter; `per_page`, `page`."""
    q = call.query
    store = call.store
    kept = []
    for run in runs:
        have = {
            "branch": run.head_branch,
            "event": run.event,
            "head_sha": run.head_sha,
            "actor": store.user_by_id(run.actor_id).login,
        }
        if any(q.get(key) not in (None, "", value) for key, value in have.items()):
            continue
        if q.get("status") and q["status"] not in store.run_state(run):
            continue
        kept.append(run)
    return counted_page(
        call,
        "workflow_runs",
        kept,
        lambda r: actions_render.workflow_run(call.render, store, repo, r),
    )


def list_runs(call: Call) -> Reply:
    """Workflow runs, newest first: `branch`, `event`, `head_sha`, `actor`, `status`
    (a status or a conclusion), `per_page`, `page`."""
    repo = repo_of(call)
    return _runs(call, repo, call.store.runs(repo))


def _run(call: Call) -> tuple[Repo, WorkflowRun]:
    return numbered(call, call.store.workflow_run, "run_id")


def get_run(call: Call) -> Reply:
    """One workflow run; status and conclusion follow its jobs."""
    repo, run = _run(call)
    return Reply(actions_render.workflow_run(call.render, call.store, repo, run))


def list_jobs(call: Call) -> Reply:
    """The run's jobs (its check runs) with their steps; `per_page`, `page`."""
    repo, run = _run(call)
    return counted_page(
        call,
        "jobs",
        call.store.jobs(run),
        lambda j: actions_render.job(call.render, call.store, repo, j),
    )


def run_artifacts(call: Call) -> Reply:
    """None: no run uploads artifacts (`gh run view` asks)."""
    _run(call)
    return Reply({"total_count": 0, "artifacts": []})


def run_logs(call: Call) -> Reply:
    """302 to a zip of the run's logs (`N_JOB.txt`, and `JOB/N_STEP.txt` per step),
    downloadable for a minute without a token."""
    repo, run = _run(call)
    return _redirect(call, f"runs/{repo.id}/{run.id}.zip")


def _job(call: Call) -> tuple[Repo, CheckRun]:
    return numbered(call, call.store.job, "job_id")


def get_job(call: Call) -> Reply:
    """One job (a check run's id) with its steps."""
    repo, job = _job(call)
    return Reply(actions_render.job(call.render, call.store, repo, job))


def job_logs(call: Call) -> Reply:
    """302 to the job's log (plain text, a timestamp on every line), downloadable for
    a minute without a token."""
    repo, job = _job(call)
    return _redirect(call, f"jobs/{repo.id}/{job.id}.txt")


def _redirect(call: Call, name: str) -> Reply:
    url = blob_url(call.emulator, call.render.api, name)
    return Reply(None, status=302, headers={"location": url})


def list_workflows(call: Call) -> Reply:
    """The repository's workflows (one, `CI`, once it has run)."""
    repo = repo_of(call)
    return counted_page(
        call,
        "workflows",
        call.store.workflows(repo),
        lambda w: actions_render.workflow(call.render, repo, w),
    )


def _workflow(call: Call) -> tuple[Repo, Workflow]:
    repo = repo_of(call)
    wanted = call.params["workflow_id"]
    for flow in call.store.workflows(repo):
        if wanted in (str(flow.id), flow.path.rsplit("/", 1)[-1]):
            return repo, flow
    raise NotFound()


def get_workflow(call: Call) -> Reply:
    """A workflow by id or file name (`ci.yml`)."""
    repo, flow = _workflow(call)
    return Reply(actions_render.workflow(call.render, repo, flow))


def workflow_runs(call: Call) -> Reply:
    """A workflow's runs, filtered as the repository's are."""
    repo, flow = _workflow(call)
    runs = [r for r in call.store.runs(repo) if r.workflow_id == flow.id]
    return _runs(call, repo, runs)


def list_annotations(call: Call) -> Reply:
    """None: no run writes annotations (`gh run view` asks for a failed job's)."""
    repo = repo_of(call)
    if call.store.check_run(repo, call.param_int("run_id")) is None:
        raise NotFound()
    return Reply([])


def get_check_suite(call: Call) -> Reply:
    """One check suite; status and conclusion follow its check runs."""
    repo = repo_of(call)
    suite = call.store.suites.get(call.param_int("check_suite_id"))
    if suite is None or suite.repo_id != repo.id:
        raise NotFound()
    return Reply(actions_render.check_suite(call.render, call.store, repo, suite))


_R = "/repos/{owner}/{repo}"
_A = _R + "/actions"
_REL = _R + "/releases"
ROUTES = [
    Route("GET", _A + "/runs", list_runs, etag=True),
    Route("GET", _A + "/runs/{run_id}", get_run, etag=True),
    Route("GET", _A + "/runs/{run_id}/jobs", list_jobs, etag=True),
    Route("GET", _A + "/runs/{run_id}/logs", run_logs),
    Route("GET", _A + "/runs/{run_id}/artifacts", run_artifacts, etag=True),
    Route("GET", _A + "/jobs/{job_id}", get_job, etag=True),
    Route("GET", _A + "/jobs/{job_id}/logs", job_logs),
    Route("GET", _A + "/workflows", list_workflows, etag=True),
    Route("GET", _A + "/workflows/{workflow_id}", get_workflow, etag=True),
    Route("GET", _A + "/workflows/{workflow_id}/runs", workflow_runs, etag=True),
    Route("GET", _R + "/check-runs/{run_id}/annotations", list_annotations, etag=True),
    Route("GET", _R + "/check-suites/{check_suite_id}", get_check_suite, etag=True),
    Route("GET", _REL, none_in_repo, etag=True),
    Route("GET", _REL + "/latest", not_in_repo, etag=True),
    Route("GET", _REL + "/tags/{tag}", not_in_repo, etag=True),
]
