"""GitHub Actions and releases, answered as for a repository that has none.

The emulator runs no workflows (CI is commit statuses and check runs set through the
control API) and publishes no releases, so the lists are empty and a run, workflow or
release asked for by id or tag is GitHub's 404: what ``gh run list``, ``gh workflow
list``, ``gh run view ID`` and ``gh release view`` see on such a repository.
"""

from __future__ import annotations

from ghbench.emulator.errors import NotFound
from ghbench.emulator.rest.common import repo_of
from ghbench.emulator.rest.routing import Call, Reply, Route

__all__ = ["ROUTES"]


def list_runs(call: Call) -> Reply:
    """No workflow runs (filters accepted and change nothing)."""
    repo_of(call)
    return Reply({"total_count": 0, "workflow_runs": []})


def list_workflows(call: Call) -> Reply:
    """No workflows."""
    repo_of(call)
    return Reply({"total_count": 0, "workflows": []})


def list_releases(call: Call) -> Reply:
    """No releases."""
    repo_of(call)
    return Reply([])


def not_found(call: Call) -> Reply:
    """404: there is no such run, workflow, job or release."""
    repo_of(call)
    raise NotFound()


_A = "/repos/{owner}/{repo}/actions"
_REL = "/repos/{owner}/{repo}/releases"
ROUTES = [
    Route("GET", _A + "/runs", list_runs, etag=True),
    Route("GET", _A + "/runs/{run_id}", not_found, etag=True),
    Route("GET", _A + "/runs/{run_id}/jobs", not_found, etag=True),
    Route("GET", _A + "/workflows", list_workflows, etag=True),
    Route("GET", _A + "/workflows/{workflow_id}", not_found, etag=True),
    Route("GET", _A + "/workflows/{workflow_id}/runs", not_found, etag=True),
    Route("GET", _REL, list_releases, etag=True),
    Route("GET", _REL + "/latest", not_found, etag=True),
    Route("GET", _REL + "/tags/{tag}", not_found, etag=True),
]
