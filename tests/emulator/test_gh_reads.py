"""Real gh (2.23 and 2.102): the read commands beyond PRs and issues (pr status, repo view with
every --json field, repo list, release list, search repos/issues/prs/commits, run list/view,
workflow list, gh status, api user/repos), each answering as GitHub answers a
repository like the emulator's, or failing as GitHub would.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gh_helpers import gh, ok

from tools import GhBuild

pytestmark = pytest.mark.gh

REPO = "acme/todo"


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    emu.create_issue(REPO, "Bug one", body="details", author="octo", labels=["bug"])
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    emu.set_ci(REPO, "failure", pr=2)
    emu.create_pull(REPO, "feat/b", title="Feature B", author="octo", draft=True)
    emu.create_repo("acme/other")
    return emulator_server


# how many fields `gh repo view --json` offers: 2.102 adds archivedAt, projectsV2, visibility
REPO_VIEW_FIELDS = {"2.23.0": 64, "2.102.0": 67}


def test_repo_view_answers_every_json_field(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    listing = gh(gh_env, "repo", "view", REPO, "--json")
    fields = [line.strip() for line in listing.stderr.splitlines()[1:] if line.strip()]
    assert len(fields) == REPO_VIEW_FIELDS[gh_build.version] and "stargazerCount" in fields
    viewed = json.loads(ok(gh_env, "repo", "view", REPO, "--json", ",".join(fields)))
    assert sorted(viewed) == sorted(fields)
    assert viewed["nameWithOwner"] == REPO
    assert viewed["sshUrl"] == "git@github.com:acme/todo.git"
    assert viewed["stargazerCount"] == 0 and viewed["primaryLanguage"] is None
    assert viewed["issues"] == {"totalCount": 1} and viewed["pullRequests"] == {"totalCount": 2}
    assert [x["name"] for x in viewed["labels"]][:2] == ["bug", "documentation"]
    assert {u["login"] for u in viewed["assignableUsers"]} == {"acme", "octo"}
    assert viewed["viewerPermission"] == "WRITE" and viewed["isPrivate"] is False


def _json_fields(env: dict[str, str], *command: str) -> list[str]:
    """The fields ``gh COMMAND --json`` offers (gh lists them when given none)."""
    listing = gh(env, *command, "--json")
    return [line.strip() for line in listing.stderr.splitlines()[1:] if line.strip()]


# gh 2.102 offers more: pr view +autoMergeRequest, baseRefOid, closingIssuesReferences,
# fullDatabaseId, projectItems; issue view +blockedBy, blocking,
# closedByPullRequestsReferences, isPinned, issueType, parent, projectItems, stateReason,
# subIssues, subIssuesSummary
VIEW_FIELDS = {"2.23.0": (41, 17), "2.102.0": (46, 27)}


def test_pr_and_issue_view_answer_every_json_field(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    emu = seeded.emulator
    emu.push(REPO, "feat/fix", "fix")
    emu.create_pull(REPO, "feat/fix", title="Fix it", body="Closes #1", author="octo")  # 4
    pr_fields = _json_fields(gh_env, "pr", "view", "4", "-R", REPO)
    issue_fields = _json_fields(gh_env, "issue", "view", "1", "-R", REPO)
    assert (len(pr_fields), len(issue_fields)) == VIEW_FIELDS[gh_build.version]
    pull = json.loads(ok(gh_env, "pr", "view", "4", "-R", REPO, "--json", ",".join(pr_fields)))
    assert sorted(pull) == sorted(pr_fields) and pull["title"] == "Fix it"
    issue = json.loads(
        ok(gh_env, "issue", "view", "1", "-R", REPO, "--json", ",".join(issue_fields))
    )
    assert sorted(issue) == sorted(issue_fields) and issue["title"] == "Bug one"
    if gh_build.version != "2.23.0":
        assert pull["fullDatabaseId"] == str(pull["fullDatabaseId"])  # BigInt: a string
        assert [i["number"] for i in pull["closingIssuesReferences"]] == [1]
        assert [p["number"] for p in issue["closedByPullRequestsReferences"]] == [4]
        # nothing the emulator does not model: no type, parent, sub-issues, dependencies
        assert (issue["issueType"], issue["parent"]) == (None, None)
        assert issue["subIssuesSummary"] == {"total": 0, "completed": 0, "percentCompleted": 0}
        empty = {"nodes": [], "totalCount": 0}
        assert issue["subIssues"] == issue["blockedBy"] == issue["blocking"] == empty


def test_pr_status_and_search(gh_env: dict[str, str], seeded: Any) -> None:
    status = ok(gh_env, "pr", "status", "-R", REPO)
    assert "#2  Feature A [feat/a]" in status and "All checks failing" in status
    assert "#3  Feature B [feat/b]" in status
    drafts = json.loads(ok(gh_env, "search", "prs", "repo:acme/todo", "--json", "number,isDraft"))
    assert sorted((d["number"], d["isDraft"]) for d in drafts) == [(2, False), (3, True)]
    issues = json.loads(ok(gh_env, "search", "issues", "bug", "--json", "number,repository"))
    assert issues == [{"number": 1, "repository": {"name": "todo", "nameWithOwner": REPO}}]
    repos = ok(gh_env, "search", "repos", "todo").splitlines()
    assert [row.split("\t")[0] for row in repos] == [REPO]
    # commits: default branches only (PR heads are not searched), words in the message
    commits = json.loads(
        ok(gh_env, "search", "commits", "initial", "--json", "sha,repository,commit")
    )
    assert sorted(c["repository"]["fullName"] for c in commits) == ["acme/other", REPO]
    assert {c["commit"]["message"] for c in commits} == {"Initial commit"}
    assert json.loads(ok(gh_env, "search", "commits", "Feature", "--json", "sha")) == []


def test_repo_list_release_list_actions_and_status(gh_env: dict[str, str], seeded: Any) -> None:
    assert [r.split("\t")[0] for r in ok(gh_env, "repo", "list", "acme").splitlines()] == [
        "acme/other",
        "acme/todo",
    ]
    assert ok(gh_env, "release", "list", "-R", REPO) == ""
    # PR 2's CI is a run of the workflow CI (rest/test_actions.py reads it further)
    (run,) = ok(gh_env, "run", "list", "-R", REPO).splitlines()
    assert run.split("\t")[:6] == ["completed", "failure", "Feature A", "CI", "feat/a", "push"]
    assert ok(gh_env, "workflow", "list", "-R", REPO).split("\t")[:2] == ["CI", "active"]
    # a run that does not exist: GitHub's 404, as gh shows it
    missing = gh(gh_env, "run", "view", "5", "-R", REPO)
    assert missing.returncode == 1
    assert missing.stderr.startswith("failed to get run: HTTP 404: Not Found")
    status = ok(gh_env, "status")
    assert "Assigned Issues" in status and "Review Requests" in status
    names = json.loads(ok(gh_env, "api", "user/repos"))
    assert [r["full_name"] for r in names] == ["acme/other", REPO]
