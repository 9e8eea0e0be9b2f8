"""githubkit's typed REST client (pydantic models generated from GitHub's newest
description, sending ``X-GitHub-Api-Version: 2026-03-10``) against the emulator over a
socket: labelled pull requests, search, labels, assignees, review requests, CI by a
branch name with ``/``, commits, branches, contents, Actions and accounts.
"""

from __future__ import annotations

from typing import Any

import githubkit  # a dev dependency: missing is an error, never a skip
import pytest

REPO = ("acme", "todo")


@pytest.fixture
def github(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    emu.create_user("hubot")
    emu.create_issue("acme/todo", "Bug", body="details", author="octo", labels=["bug"])
    emu.create_pull("acme/todo", "feat/a", title="Feature A", author="octo", labels=["bug"])
    emu.set_ci("acme/todo", "failure", pr=2)
    github = githubkit.GitHub(
        githubkit.TokenAuthStrategy(emulator_server.token),
        base_url=emulator_server.url,
        http_cache=False,
        auto_retry=False,
    )
    return github  # the tests hold it: githubkit's namespaces keep only a weak reference


def test_labelled_pull_requests_and_search_parse(github: Any) -> None:
    rest = github.rest
    pulls = rest.pulls.list(*REPO).parsed_data
    assert [(p.number, [x.name for x in p.labels]) for p in pulls] == [(2, ["bug"])]
    assert rest.pulls.get(*REPO, 2).parsed_data.mergeable_state == "unknown"  # computing
    assert rest.pulls.get(*REPO, 2).parsed_data.mergeable_state == "unstable"
    found = rest.search.issues_and_pull_requests(q="repo:acme/todo").parsed_data
    assert found.search_type == "lexical" and [i.number for i in found.items] == [2, 1]
    assert [i.full_name for i in rest.search.repos(q="todo").parsed_data.items] == ["acme/todo"]
    commits = rest.search.commits(q="repo:acme/todo initial").parsed_data.items
    assert [c.commit.message for c in commits] == ["Initial commit"]


def test_labels_assignees_and_review_requests(github: Any) -> None:
    rest = github.rest
    names = [x.name for x in rest.issues.list_labels_for_repo(*REPO).parsed_data]
    assert names[:2] == ["bug", "documentation"]
    assert rest.issues.create_label(*REPO, name="triage", color="00ff00").parsed_data.name == (
        "triage"
    )
    added = rest.issues.add_labels(*REPO, 2, labels=["triage"]).parsed_data
    assert [x.name for x in added] == ["bug", "triage"]
    assigned = rest.issues.add_assignees(*REPO, 2, assignees=["hubot"]).parsed_data
    assert [a.login for a in assigned.assignees] == ["hubot"]
    asked = rest.pulls.request_reviewers(*REPO, 2, reviewers=["hubot"]).parsed_data
    assert [u.login for u in asked.requested_reviewers] == ["hubot"]
    listed = rest.pulls.list_requested_reviewers(*REPO, 2).parsed_data
    assert [u.login for u in listed.users] == ["hubot"] and listed.teams == []


def test_ci_by_branch_name_commits_branches_contents(github: Any) -> None:
    rest = github.rest
    # a ref with a slash, as CI pollers ask by branch name
    assert rest.repos.get_combined_status_for_ref(*REPO, "feat/a").parsed_data.state == "failure"
    runs = rest.checks.list_for_ref(*REPO, "feat/a").parsed_data.check_runs
    assert [r.conclusion for r in runs] == ["failure"]
    assert rest.repos.get_commit(*REPO, "feat/a").parsed_data.commit.message == "Feature A"
    assert [b.name for b in rest.repos.list_branches(*REPO).parsed_data] == ["feat/a", "main"]
    assert type(rest.repos.get_content(*REPO, "README.md").parsed_data).__name__ == "ContentFile"
    assert [c.commit.message for c in rest.pulls.list_commits(*REPO, 2).parsed_data] == [
        "Feature A"
    ]


def test_actions_releases_and_accounts(github: Any) -> None:
    rest = github.rest
    runs = rest.actions.list_workflow_runs_for_repo(*REPO).parsed_data.workflow_runs
    assert [(r.name, r.head_branch, r.conclusion) for r in runs] == [("CI", "feat/a", "failure")]
    jobs = rest.actions.list_jobs_for_workflow_run(*REPO, runs[0].id).parsed_data.jobs
    assert [(j.name, [s.conclusion for s in j.steps or []]) for j in jobs] == [
        ("ci", ["success", "failure", "success"])
    ]
    flows = rest.actions.list_repo_workflows(*REPO).parsed_data.workflows
    assert [(w.name, w.path) for w in flows] == [("CI", ".github/workflows/ci.yml")]
    assert rest.repos.list_releases(*REPO).parsed_data == []
    assert rest.users.get_by_username("hubot").parsed_data.login == "hubot"
    mine = rest.repos.list_for_authenticated_user().parsed_data
    assert [r.full_name for r in mine] == ["acme/todo"]
    assert rest.activity.list_notifications_for_authenticated_user().parsed_data == []
