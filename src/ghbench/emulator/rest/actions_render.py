"""GitHub's JSON for Actions and checks: apps, check suites, workflows, workflow runs
and jobs (the records are in ``state/actions.py``)."""

from __future__ import annotations

from typing import Any

from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.state import CheckRun, CheckSuite, PullRequest, Repo, Store, Workflow
from ghbench.emulator.state import WorkflowRun as Run
from ghbench.emulator.state.actions import ACTIONS_APP, APPS
from ghbench.timefmt import iso_s

__all__ = [
    "app",
    "check_run",
    "check_suite",
    "job",
    "pull_minimal",
    "workflow",
    "workflow_run",
]

Json = dict[str, Any]


def app(render: RestRenderer, slug: str) -> Json:
    """A check suite's app (``integration``)."""
    known = APPS[slug]
    owner = known["owner"]
    return {
        "id": known["id"],
        "slug": slug,
        "node_id": known["node_id"],
        "owner": {
            "login": owner,
            "id": known["owner_id"],
            "node_id": f"MDEyOk9yZ2FuaXphdGlvbj{known['owner_id']}",
            "avatar_url": f"https://avatars.githubusercontent.com/u/{known['owner_id']}?v=4",
            "gravatar_id": "",
            "url": f"{render.api}/users/{owner}",
            "html_url": f"{render.web}/{owner}",
            "followers_url": f"{render.api}/users/{owner}/followers",
            "following_url": f"{render.api}/users/{owner}/following{{/other_user}}",
            "gists_url": f"{render.api}/users/{owner}/gists{{/gist_id}}",
            "starred_url": f"{render.api}/users/{owner}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{render.api}/users/{owner}/subscriptions",
            "organizations_url": f"{render.api}/users/{owner}/orgs",
            "repos_url": f"{render.api}/users/{owner}/repos",
            "events_url": f"{render.api}/users/{owner}/events{{/privacy}}",
            "received_events_url": f"{render.api}/users/{owner}/received_events",
            "type": "Organization",
            "site_admin": False,
        },
        "name": known["name"],
        "description": known["description"],
        "external_url": f"{render.web}/features/actions" if slug == ACTIONS_APP else render.web,
        "html_url": f"{render.web}/apps/{slug}",
        "created_at": "2018-07-30T09:30:17Z",
        "updated_at": "2024-04-10T20:33:16Z",
        "permissions": {"checks": "write", "metadata": "read", "statuses": "write"},
        "events": ["check_run", "check_suite", "pull_request", "push"],
    }


def pull_minimal(render: RestRenderer, repo: Repo, pull: PullRequest) -> Json:
    """``pull-request-minimal``: what check runs, suites and workflow runs list."""
    ref = {"id": repo.id, "url": render.repo_url(repo), "name": repo.name}
    return {
        "id": pull.id,
        "number": pull.number,
        "url": f"{render.repo_url(repo)}/pulls/{pull.number}",
        "head": {"ref": pull.head_ref, "sha": pull.head_sha, "repo": ref},
        "base": {"ref": pull.base_ref, "sha": pull.base_sha, "repo": ref},
    }


def _open_pulls(render: RestRenderer, store: Store, repo: Repo, sha: str) -> list[Json]:
    return [pull_minimal(render, repo, p) for p in store.pulls(repo, "open") if p.head_sha == sha]


def _simple_commit(store: Store, repo: Repo, sha: str) -> Json | None:
    commit = store.commit(repo, sha)
    if commit is None:
        return None
    return {
        "id": commit.sha,
        "tree_id": commit.tree_sha,
        "message": commit.message,
        "timestamp": iso_s(commit.committed_at or commit.created_at),
        "author": {"name": commit.author_name, "email": commit.author_email},
        "committer": {"name": commit.committer_name, "email": commit.committer_email},
    }


def check_run(render: RestRenderer, store: Store, repo: Repo, run: CheckRun) -> Json:
    """``check-run``, in its suite, by its suite's app."""
    url = f"{render.repo_url(repo)}/check-runs/{run.id}"
    suite = store.suite_of(run)
    html = f"{render.web}/{repo.full_name}/runs/{run.id}"
    if run.run_id is not None:
        html = f"{render.web}/{repo.full_name}/actions/runs/{run.run_id}/job/{run.id}"
    return {
        "id": run.id,
        "head_sha": run.head_sha,
        "node_id": run.node_id,
        "external_id": run.external_id or "",
        "url": url,
        "html_url": html,
        "details_url": run.details_url or html,
        "status": run.status,
        "conclusion": run.conclusion,
        "started_at": iso_s(run.started_at),
        "completed_at": iso_s(run.completed_at) if run.completed_at is not None else None,
        "output": {
            "title": run.output_title,
            "summary": run.output_summary,
            "text": None,
            "annotations_count": 0,
            "annotations_url": url + "/annotations",
        },
        "name": run.name,
        "check_suite": {"id": suite.id},
        "app": app(render, suite.app),
        "pull_requests": _open_pulls(render, store, repo, run.head_sha),
    }


def check_suite(render: RestRenderer, store: Store, repo: Repo, suite: CheckSuite) -> Json:
    """``check-suite``: status and conclusion follow its check runs."""
    runs = store.suite_runs(suite)
    status, conclusion = store.combined(runs)
    url = f"{render.repo_url(repo)}/check-suites/{suite.id}"
    return {
        "id": suite.id,
        "node_id": suite.node_id,
        "head_branch": suite.head_branch,
        "head_sha": suite.head_sha,
        "status": status,
        "conclusion": conclusion,
        "url": url,
        "before": None,
        "after": suite.head_sha,
        "pull_requests": _open_pulls(render, store, repo, suite.head_sha),
        "app": app(render, suite.app),
        "repository": render.minimal_repo(store, repo),
        "created_at": iso_s(suite.created_at),
        "updated_at": iso_s(suite.updated_at),
        "head_commit": _simple_commit(store, repo, suite.head_sha),
        "latest_check_runs_count": len({r.name for r in runs}),
        "check_runs_url": url + "/check-runs",
        "rerequestable": True,
        "runs_rerequestable": True,
    }


def workflow(render: RestRenderer, repo: Repo, flow: Workflow) -> Json:
    api = render.repo_url(repo)
    html = f"{render.web}/{repo.full_name}"
    return {
        "id": flow.id,
        "node_id": flow.node_id,
        "name": flow.name,
        "path": flow.path,
        "state": "active",
        "created_at": iso_s(flow.created_at),
        "updated_at": iso_s(flow.created_at),
        "url": f"{api}/actions/workflows/{flow.id}",
        "html_url": f"{html}/blob/{repo.default_branch}/{flow.path}",
        "badge_url": f"{html}/workflows/{flow.name}/badge.svg",
    }


def workflow_run(render: RestRenderer, store: Store, repo: Repo, run: Run) -> Json:
    """``workflow-run``: status and conclusion follow its jobs."""
    status, conclusion = store.run_state(run)
    flow = next(w for w in store.workflows(repo) if w.id == run.workflow_id)
    suite = store.suites[run.suite_id]
    api = render.repo_url(repo)
    url = f"{api}/actions/runs/{run.id}"
    commit = store.commit(repo, run.head_sha)
    actor = render.user(store.user_by_id(run.actor_id))
    minimal = render.minimal_repo(store, repo)
    return {
        "id": run.id,
        "name": flow.name,
        "node_id": run.node_id,
        "check_suite_id": suite.id,
        "check_suite_node_id": suite.node_id,
        "head_branch": run.head_branch,
        "head_sha": run.head_sha,
        "path": flow.path,
        "run_number": run.run_number,
        "run_attempt": 1,
        "referenced_workflows": [],
        "event": run.event,
        "status": status,
        "conclusion": conclusion,
        "workflow_id": flow.id,
        "url": url,
        "html_url": f"{render.web}/{repo.full_name}/actions/runs/{run.id}",
        "pull_requests": _open_pulls(render, store, repo, run.head_sha),
        "created_at": iso_s(run.created_at),
        "updated_at": iso_s(run.updated_at),
        "actor": actor,
        "triggering_actor": actor,
        "run_started_at": iso_s(run.created_at),
        "jobs_url": url + "/jobs",
        "logs_url": url + "/logs",
        "check_suite_url": f"{api}/check-suites/{suite.id}",
        "artifacts_url": url + "/artifacts",
        "cancel_url": url + "/cancel",
        "rerun_url": url + "/rerun",
        "previous_attempt_url": None,
        "workflow_url": f"{api}/actions/workflows/{flow.id}",
        "head_commit": _simple_commit(store, repo, run.head_sha),
        "repository": minimal,
        "head_repository": minimal,
        "head_repository_id": repo.id,
        "display_title": commit.message.split("\n", 1)[0] if commit else flow.name,
    }


def job(render: RestRenderer, store: Store, repo: Repo, run: CheckRun) -> Json:
    """``job``: an Actions job, which is its check run."""
    assert run.run_id is not None
    workflow_run_ = store.workflow_runs[run.run_id]
    flow = next(w for w in store.workflows(repo) if w.id == workflow_run_.workflow_id)
    api = render.repo_url(repo)
    started = iso_s(run.started_at)
    done = iso_s(run.completed_at) if run.completed_at is not None else None
    return {
        "id": run.id,
        "run_id": run.run_id,
        "run_url": f"{api}/actions/runs/{run.run_id}",
        "run_attempt": 1,
        "node_id": run.node_id,
        "head_sha": run.head_sha,
        "url": f"{api}/actions/jobs/{run.id}",
        "html_url": f"{render.web}/{repo.full_name}/actions/runs/{run.run_id}/job/{run.id}",
        "status": run.status,
        "conclusion": run.conclusion,
        "created_at": started,
        "started_at": started,
        "completed_at": done,
        "name": run.name,
        "steps": [
            {
                "name": step.name,
                "status": step.status,
                "conclusion": step.conclusion,
                "number": step.number,
                "started_at": started if step.status != "queued" else None,
                "completed_at": done if step.status == "completed" else None,
            }
            for step in store.steps(run)
        ],
        "check_run_url": f"{api}/check-runs/{run.id}",
        "labels": ["ubuntu-latest"],
        "runner_id": 1 if run.status != "queued" else None,
        "runner_name": "GitHub Actions 1" if run.status != "queued" else None,
        "runner_group_id": 0 if run.status != "queued" else None,
        "runner_group_name": "GitHub Actions" if run.status != "queued" else None,
        "workflow_name": flow.name,
        "head_branch": workflow_run_.head_branch,
    }
