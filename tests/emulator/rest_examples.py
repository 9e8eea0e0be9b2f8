"""One example call for every REST route the emulator serves, run in this order
against :func:`seeded` (the conformance test validates each answer against GitHub's
OpenAPI description). ``{name}`` in a path or body is a value of the seeded state
(:func:`placeholders`). A new route without an example fails the conformance test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from emu_helpers import new_emulator

from ghbench.emulator.core import Emulator

R = "/repos/acme/todo"


@dataclass(frozen=True)
class Example:
    route: str  # the route's name, e.g. "GET /repos/{owner}/{repo}/pulls"
    path: str
    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


def seeded() -> Emulator:
    """acme/todo with issue 1 (labelled, a reaction), PR 2 (labelled, failing CI, a review
    comment and an issue comment, each with a reaction), PR 3 (passing CI) and a branch
    feat/c without a PR."""
    emulator = new_emulator()
    emulator.create_user("hubot")
    emulator.create_issue("acme/todo", "Bug", body="details", author="octo", labels=["bug"])
    emulator.create_pull("acme/todo", "feat/a", title="Feature A", labels=["bug"])
    emulator.set_ci("acme/todo", "failure", pr=2)
    emulator.add_review_comments("acme/todo", count=1, prs=[2], author="hubot")
    emulator.create_pull("acme/todo", "feat/b", title="Feature B")
    emulator.set_ci("acme/todo", "success", pr=3)
    emulator.push("acme/todo", "feat/c", "C", files={"c.txt": "c\n"})
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    hubot = store.user("hubot")
    assert hubot is not None
    comment = store.add_issue_comment(repo, 2, hubot, "a remark")
    review_comment = store.review_comments(store.pulls_by_number[(repo.id, 2)])[0]
    issue = store.issue(repo, 1)
    assert issue is not None
    for node_id in (issue.node_id, comment.node_id, review_comment.node_id):
        store.react(repo.id, node_id, hubot, "rocket")
    return emulator


def placeholders(emulator: Emulator) -> dict[str, str]:
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    pull = store.pull(repo, 2)
    assert pull is not None
    run = store.check_runs(repo, pull.head_sha)[0]
    comment = store.review_comments(pull)[0]
    workflow_run = store.runs(repo)[-1]  # PR 2's: the oldest
    main = store.commit(repo, store.branch_sha(repo, "main") or "")
    assert main is not None
    issue = store.issue(repo, 1)
    assert issue is not None
    remark = store.issue_comments(repo, 2)[0]
    return {
        "issue_comment": str(remark.id),
        "reaction": str(store.reactions(issue.node_id)[0].id),
        "remark_reaction": str(store.reactions(remark.node_id)[0].id),
        "review_reaction": str(store.reactions(comment.node_id)[0].id),
        "tree": main.tree_sha,
        "blob": store.tree(repo, main.sha)["README.md"][1],
        "main": store.branch_sha(repo, "main") or "",
        "head": pull.head_sha,
        "run": str(run.id),
        "suite": str(workflow_run.suite_id),
        "wfrun": str(workflow_run.id),
        "job": str(store.jobs(workflow_run)[0].id),
        "workflow": str(workflow_run.workflow_id),
        "comment": str(comment.id),
    }


EXAMPLES: list[Example] = [
    Example("GET /", "/"),
    Example("GET /user", "/user"),
    Example("GET /users/{username}", "/users/hubot"),
    Example("GET /rate_limit", "/rate_limit"),
    Example("GET /repos/{owner}/{repo}", R),
    Example("PATCH /repos/{owner}/{repo}", R, {"allow_auto_merge": True, "has_wiki": False}),
    Example("GET /repos/{owner}/{repo}/git/ref/{ref}", R + "/git/ref/heads/main"),
    Example("GET /repos/{owner}/{repo}/git/refs", R + "/git/refs"),
    Example("GET /repos/{owner}/{repo}/git/refs/{ref}", R + "/git/refs/heads"),
    Example(
        "POST /repos/{owner}/{repo}/git/refs",
        R + "/git/refs",
        {"ref": "refs/heads/tmp", "sha": "{main}"},
        201,
    ),
    Example(
        "PATCH /repos/{owner}/{repo}/git/refs/{ref}", R + "/git/refs/heads/tmp", {"sha": "{head}"}
    ),
    Example("DELETE /repos/{owner}/{repo}/git/refs/{ref}", R + "/git/refs/heads/tmp", None, 204),
    Example("GET /repos/{owner}/{repo}/pulls", R + "/pulls?state=all"),
    Example(
        "POST /repos/{owner}/{repo}/pulls",
        R + "/pulls",
        {"head": "feat/c", "base": "main", "title": "Feature C", "draft": True},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/pulls/{number}", R + "/pulls/2"),
    Example("PATCH /repos/{owner}/{repo}/pulls/{number}", R + "/pulls/2", {"title": "Feature A!"}),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/files", R + "/pulls/2/files"),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/comments", R + "/pulls/2/comments"),
    Example(
        "POST /repos/{owner}/{repo}/pulls/{number}/comments",
        R + "/pulls/2/comments",
        {"body": "a reply", "in_reply_to": "{comment}"},
        201,
    ),
    Example(
        "POST /repos/{owner}/{repo}/pulls/{number}/reviews",
        R + "/pulls/2/reviews",
        {"event": "APPROVE", "body": "ok"},
    ),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/reviews", R + "/pulls/2/reviews"),
    Example("GET /repos/{owner}/{repo}/issues", R + "/issues?state=all"),
    Example("POST /repos/{owner}/{repo}/issues", R + "/issues", {"title": "New", "body": "x"}, 201),
    Example("GET /repos/{owner}/{repo}/issues/{number}", R + "/issues/1"),
    Example("PATCH /repos/{owner}/{repo}/issues/{number}", R + "/issues/1", {"state": "closed"}),
    Example(
        "POST /repos/{owner}/{repo}/issues/{number}/comments",
        R + "/issues/2/comments",
        {"body": "hello"},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/issues/{number}/comments", R + "/issues/2/comments"),
    Example("GET /repos/{owner}/{repo}/issues/{number}/events", R + "/issues/1/events"),
    # comments by id, replies, reactions
    Example("GET /repos/{owner}/{repo}/issues/comments", R + "/issues/comments?sort=updated"),
    Example(
        "GET /repos/{owner}/{repo}/issues/comments/{comment_id}",
        R + "/issues/comments/{issue_comment}",
    ),
    Example(
        "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
        R + "/issues/comments/{issue_comment}",
        {"body": "edited"},
    ),
    Example(
        "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
        R + "/issues/comments/{issue_comment}/reactions",
        {"content": "heart"},
        201,
    ),
    Example(
        "GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
        R + "/issues/comments/{issue_comment}/reactions",
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}",
        R + "/issues/comments/{issue_comment}/reactions/{remark_reaction}",
        None,
        204,
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}",
        R + "/issues/comments/{issue_comment}",
        None,
        204,
    ),
    Example(
        "POST /repos/{owner}/{repo}/issues/{number}/reactions",
        R + "/issues/1/reactions",
        {"content": "+1"},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/issues/{number}/reactions", R + "/issues/1/reactions"),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/{number}/reactions/{reaction_id}",
        R + "/issues/1/reactions/{reaction}",
        None,
        204,
    ),
    Example("GET /repos/{owner}/{repo}/pulls/comments", R + "/pulls/comments"),
    Example(
        "GET /repos/{owner}/{repo}/pulls/comments/{comment_id}", R + "/pulls/comments/{comment}"
    ),
    Example(
        "PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}",
        R + "/pulls/comments/{comment}",
        {"body": "edited"},
    ),
    Example(
        "POST /repos/{owner}/{repo}/pulls/{number}/comments/{comment_id}/replies",
        R + "/pulls/2/comments/{comment}/replies",
        {"body": "thanks"},
        201,
    ),
    Example(
        "POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions",
        R + "/pulls/comments/{comment}/reactions",
        {"content": "eyes"},
        201,
    ),
    Example(
        "GET /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions",
        R + "/pulls/comments/{comment}/reactions",
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions/{reaction_id}",
        R + "/pulls/comments/{comment}/reactions/{review_reaction}",
        None,
        204,
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}",
        R + "/pulls/comments/{comment}",
        None,
        204,
    ),
    # locks, milestones, a collaborator's permission
    Example(
        "PUT /repos/{owner}/{repo}/issues/{number}/lock",
        R + "/issues/1/lock",
        {"lock_reason": "resolved"},
        204,
    ),
    Example("DELETE /repos/{owner}/{repo}/issues/{number}/lock", R + "/issues/1/lock", None, 204),
    Example("GET /repos/{owner}/{repo}/milestones", R + "/milestones"),
    Example(
        "GET /repos/{owner}/{repo}/milestones/{milestone_number}", R + "/milestones/1", None, 404
    ),
    Example(
        "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
        R + "/collaborators/hubot/permission",
    ),
    Example("GET /repos/{owner}/{repo}/issues/{number}/timeline", R + "/issues/2/timeline"),
    # git content
    Example("GET /repos/{owner}/{repo}/commits", R + "/commits?sha=feat/c&per_page=2"),
    Example("GET /repos/{owner}/{repo}/commits/{ref}", R + "/commits/feat/c"),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/commits", R + "/pulls/2/commits"),
    Example("GET /repos/{owner}/{repo}/compare/{basehead}", R + "/compare/main...feat/c"),
    Example("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", R + "/git/trees/{tree}?recursive=1"),
    Example("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", R + "/git/commits/{main}"),
    Example("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", R + "/git/blobs/{blob}"),
    Example("GET /repos/{owner}/{repo}/tags", R + "/tags"),
    Example("GET /repos/{owner}/{repo}/compare/{basehead}", R + "/compare/feat/c...main"),
    Example("GET /repos/{owner}/{repo}/branches", R + "/branches"),
    Example("GET /repos/{owner}/{repo}/branches/{branch}", R + "/branches/feat%2Fc"),
    Example(
        "GET /repos/{owner}/{repo}/git/matching-refs/{ref}", R + "/git/matching-refs/heads/feat"
    ),
    Example("GET /repos/{owner}/{repo}/contents", R + "/contents?ref=feat/c"),
    Example("GET /repos/{owner}/{repo}/contents/{path}", R + "/contents/c.txt?ref=feat/c"),
    Example("GET /repos/{owner}/{repo}/commits/{ref}/status", R + "/commits/feat/a/status"),
    Example("GET /repos/{owner}/{repo}/commits/{ref}/statuses", R + "/commits/{head}/statuses"),
    Example(
        "POST /repos/{owner}/{repo}/statuses/{sha}",
        R + "/statuses/{head}",
        {"state": "success", "context": "lint"},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", R + "/commits/{head}/check-runs"),
    Example(
        "POST /repos/{owner}/{repo}/check-runs",
        R + "/check-runs",
        {"name": "build", "head_sha": "{head}", "status": "in_progress"},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/check-runs/{run_id}", R + "/check-runs/{run}"),
    Example(
        "PATCH /repos/{owner}/{repo}/check-runs/{run_id}",
        R + "/check-runs/{run}",
        {"conclusion": "success"},
    ),
    Example(
        "PUT /repos/{owner}/{repo}/contents/{path}",
        R + "/contents/docs/new.md",
        {"message": "add", "content": "aGVsbG8K", "branch": "feat/b"},
        201,
    ),
    Example(
        "PUT /repos/{owner}/{repo}/pulls/{number}/update-branch",
        R + "/pulls/3/update-branch",
        {},
        202,
    ),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/merge", R + "/pulls/3/merge", None, 404),
    Example(
        "PUT /repos/{owner}/{repo}/pulls/{number}/merge",
        R + "/pulls/3/merge",
        {"merge_method": "squash"},
    ),
    Example("GET /repos/{owner}/{repo}/pulls/{number}/merge", R + "/pulls/3/merge", None, 204),
    Example("GET /search/issues", "/search/issues?q=repo:acme/todo+is:open"),
    Example("GET /search/repositories", "/search/repositories?q=todo"),
    Example("GET /search/commits", "/search/commits?q=repo:acme/todo+merge:true"),
    Example("GET /search/users", "/search/users?q=hub"),
    # labels
    Example("GET /repos/{owner}/{repo}/labels", R + "/labels"),
    Example(
        "POST /repos/{owner}/{repo}/labels",
        R + "/labels",
        {"name": "needs triage", "color": "#00ff00", "description": "new"},
        201,
    ),
    Example("GET /repos/{owner}/{repo}/labels/{name}", R + "/labels/needs%20triage"),
    Example(
        "PATCH /repos/{owner}/{repo}/labels/{name}",
        R + "/labels/needs%20triage",
        {"new_name": "triage", "color": "ff0000"},
    ),
    Example(
        "POST /repos/{owner}/{repo}/issues/{number}/labels",
        R + "/issues/1/labels",
        {"labels": ["triage", "question"]},
    ),
    Example("PUT /repos/{owner}/{repo}/issues/{number}/labels", R + "/issues/2/labels", ["triage"]),
    Example("GET /repos/{owner}/{repo}/issues/{number}/labels", R + "/issues/2/labels"),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/{number}/labels/{name}",
        R + "/issues/1/labels/question",
    ),
    Example("DELETE /repos/{owner}/{repo}/labels/{name}", R + "/labels/triage", None, 204),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/{number}/labels", R + "/issues/2/labels", None, 204
    ),
    # assignees and review requests
    Example("GET /repos/{owner}/{repo}/assignees", R + "/assignees"),
    Example("GET /repos/{owner}/{repo}/assignees/{assignee}", R + "/assignees/hubot", None, 204),
    Example(
        "POST /repos/{owner}/{repo}/issues/{number}/assignees",
        R + "/issues/2/assignees",
        {"assignees": ["hubot", "octo"]},
        201,
    ),
    Example(
        "GET /repos/{owner}/{repo}/issues/{number}/assignees/{assignee}",
        R + "/issues/2/assignees/octo",
        None,
        204,
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/issues/{number}/assignees",
        R + "/issues/2/assignees",
        {"assignees": ["octo"]},
    ),
    Example(
        "POST /repos/{owner}/{repo}/pulls/{number}/requested_reviewers",
        R + "/pulls/2/requested_reviewers",
        {"reviewers": ["hubot"]},
        201,
    ),
    Example(
        "GET /repos/{owner}/{repo}/pulls/{number}/requested_reviewers",
        R + "/pulls/2/requested_reviewers",
    ),
    Example(
        "DELETE /repos/{owner}/{repo}/pulls/{number}/requested_reviewers",
        R + "/pulls/2/requested_reviewers",
        {"reviewers": ["hubot"]},
    ),
    # accounts
    Example("GET /user/repos", "/user/repos"),
    Example("GET /users/{username}/repos", "/users/acme/repos"),
    Example("GET /orgs/{org}/repos", "/orgs/acme/repos", None, 404),
    Example("GET /notifications", "/notifications?all=true"),
    Example("GET /users/{username}/received_events", "/users/octo/received_events"),
    Example("GET /users/{username}/events", "/users/octo/events"),
    # Actions (the runs set_ci made), checks; releases: a repository with none
    Example("GET /repos/{owner}/{repo}/actions/runs", R + "/actions/runs?per_page=20"),
    Example("GET /repos/{owner}/{repo}/actions/runs/{run_id}", R + "/actions/runs/{wfrun}"),
    Example("GET /repos/{owner}/{repo}/actions/runs/{run_id}", R + "/actions/runs/5", None, 404),
    Example(
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs", R + "/actions/runs/{wfrun}/jobs"
    ),
    Example(
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs",
        R + "/actions/runs/{wfrun}/logs",
        None,
        302,
    ),
    Example(
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
        R + "/actions/runs/{wfrun}/artifacts",
    ),
    Example("GET /repos/{owner}/{repo}/actions/jobs/{job_id}", R + "/actions/jobs/{job}"),
    Example(
        "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
        R + "/actions/jobs/{job}/logs",
        None,
        302,
    ),
    Example("GET /repos/{owner}/{repo}/actions/workflows", R + "/actions/workflows"),
    Example(
        "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}",
        R + "/actions/workflows/ci.yml",
    ),
    Example(
        "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
        R + "/actions/workflows/{workflow}/runs?status=failure",
    ),
    Example(
        "GET /repos/{owner}/{repo}/check-runs/{run_id}/annotations",
        R + "/check-runs/{run}/annotations",
    ),
    Example("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}", R + "/check-suites/{suite}"),
    Example(
        "GET /repos/{owner}/{repo}/commits/{ref}/check-suites", R + "/commits/{head}/check-suites"
    ),
    Example("GET /repos/{owner}/{repo}/commits/{ref}/pulls", R + "/commits/{head}/pulls"),
    Example("GET /repos/{owner}/{repo}/commits/{ref}/comments", R + "/commits/{head}/comments"),
    Example("GET /repos/{owner}/{repo}/commits/{ref}", R + "/commits/{head}/unknown", None, 404),
    # branch protection
    Example(
        "GET /repos/{owner}/{repo}/branches/{branch}/protection",
        R + "/branches/main/protection",
        None,
        404,
    ),
    Example(
        "PUT /repos/{owner}/{repo}/branches/{branch}/protection",
        R + "/branches/main/protection",
        {
            "required_status_checks": {"strict": True, "contexts": ["ci"]},
            "enforce_admins": False,
            "required_pull_request_reviews": {"required_approving_review_count": 1},
            "restrictions": None,
        },
    ),
    Example(
        "GET /repos/{owner}/{repo}/branches/{branch}/protection", R + "/branches/main/protection"
    ),
    Example("GET /repos/{owner}/{repo}/branches/{branch}", R + "/branches/main"),
    Example(
        "DELETE /repos/{owner}/{repo}/branches/{branch}/protection",
        R + "/branches/main/protection",
        None,
        204,
    ),
    Example("GET /repos/{owner}/{repo}/releases", R + "/releases"),
    Example("GET /repos/{owner}/{repo}/releases/latest", R + "/releases/latest", None, 404),
    Example("GET /repos/{owner}/{repo}/releases/tags/{tag}", R + "/releases/tags/v1", None, 404),
]

# Routes GitHub still answers though its OpenAPI description has no such operation.
# (route, media type) -> where GitHub documents it though its OpenAPI description does not
MEDIA_IN_PROSE = {
    ("GET /repos/{owner}/{repo}/pulls/{number}", "application/vnd.github.diff"): (
        "docs.github.com/rest/pulls/pulls#get-a-pull-request, custom media types"
    ),
    ("GET /repos/{owner}/{repo}/pulls/{number}", "application/vnd.github.patch"): (
        "docs.github.com/rest/pulls/pulls#get-a-pull-request, custom media types"
    ),
    ("GET /repos/{owner}/{repo}/contents/{path}", "application/vnd.github.raw"): (
        "docs.github.com/rest/repos/contents#get-repository-content, custom media types"
    ),
}

UNDOCUMENTED = {
    "GET /repos/{owner}/{repo}/contents": "the root directory: GitHub's {path} left empty",
    "GET /repos/{owner}/{repo}/git/refs": "the legacy list of all refs (GitHub answers it)",
    "GET /repos/{owner}/{repo}/git/refs/{ref}": "legacy prefix listing; matching-refs replaced it",
    "POST /graphql": "GraphQL: checked against GitHub's schema instead",
}
