"""Issues and issue comments (issue comments work on pull requests too)."""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, found, invalid_field
from ghbench.emulator.rest.common import (
    body_field,
    issue_or_pull,
    none_in_repo,
    not_in_repo,
    paginate,
    repo_of,
    viewer,
)
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Issue, PullRequest, Repo, User

__all__ = ["ROUTES"]


def list_issues(call: Call) -> Reply:
    """Issues *and* pull requests, newest first, as GitHub lists them."""
    repo = repo_of(call)
    state = call.query.get("state", "open")
    if state not in ("open", "closed", "all"):
        raise invalid_field("Issue", "state")
    store = call.store
    items = [(i.created_at, i.id, i.number) for i in store.issues(repo, state)]
    items += [(p.created_at, p.id, p.number) for p in store.pulls(repo, state)]
    items.sort(reverse=call.query.get("direction", "desc") == "desc")
    page, headers = paginate(call, items)
    out = []
    for _, _, number in page:
        issue = store.issue(repo, number)
        if issue is not None:
            out.append(call.render.issue(store, repo, issue))
        else:
            out.append(pull_as_issue(call, repo, number))
    return Reply(out, headers=headers)


def pull_as_issue(call: Call, repo: Repo, number: int) -> dict[str, object]:
    """A pull request in the issues API's shape (with its ``pull_request`` links)."""
    pull = found(call.store.pull(repo, number))
    rendered = call.render.pull(call.store, repo, pull)
    base = f"{call.render.repo_url(repo)}/issues/{number}"
    return {
        "id": pull.id,
        "node_id": pull.node_id,
        "url": base,
        "repository_url": call.render.repo_url(repo),
        "labels_url": base + "/labels{/name}",
        "comments_url": base + "/comments",
        "events_url": base + "/events",
        "html_url": rendered["html_url"],
        "number": number,
        "state": pull.state,
        "title": pull.title,
        "body": pull.body,
        "user": rendered["user"],
        "labels": rendered["labels"],
        "assignee": rendered["assignee"],
        "assignees": rendered["assignees"],
        "milestone": None,
        "locked": pull.locked,
        "active_lock_reason": pull.lock_reason,
        "comments": len(call.store.issue_comments(repo, number)),
        "pull_request": {
            "url": rendered["url"],
            "html_url": rendered["html_url"],
            "diff_url": rendered["diff_url"],
            "patch_url": rendered["patch_url"],
            "merged_at": rendered["merged_at"],
        },
        "closed_at": rendered["closed_at"],
        "created_at": rendered["created_at"],
        "updated_at": rendered["updated_at"],
        "author_association": rendered["author_association"],
        "draft": pull.draft,
    }


def get_issue(call: Call) -> Reply:
    """A PR number answers the PR in issue shape."""
    repo = repo_of(call)
    number = call.param_int("number")
    issue = call.store.issue(repo, number)
    if issue is None:
        return Reply(pull_as_issue(call, repo, number))
    return Reply(call.render.issue(call.store, repo, issue))


def issue_or_pull_json(call: Call, repo: Repo, item: Issue | PullRequest) -> dict[str, object]:
    """An issue, or a pull request in the issue shape."""
    if isinstance(item, PullRequest):
        return pull_as_issue(call, repo, item.number)
    return call.render.issue(call.store, repo, item)


def _assignees(call: Call) -> list[User] | None:
    """``assignees`` (logins; ``assignee`` alone also works), None when neither is
    given; users who cannot be assigned are dropped, as GitHub drops them."""
    body = call.body if isinstance(call.body, dict) else {}
    if body.get("assignees") is not None:
        logins = [str(x) for x in body_field(call, "Issue", "assignees", list)]
    elif "assignee" in body and call.api_version == "2022-11-28":  # gone in 2026-03-10
        single = body["assignee"]
        logins = [] if single is None else [str(single)]
    else:
        return None
    found = (call.store.user(login) for login in logins)
    return [user for user in found if user is not None]


def create_issue(call: Call) -> Reply:
    """`title` (422 when blank), `body`, `labels` (missing ones are created),
    `assignees`."""
    repo = repo_of(call)
    title = body_field(call, "Issue", "title", str)
    if not title:
        raise invalid_field("Issue", "title")
    issue = call.store.create_issue(
        repo,
        viewer(call),
        title,
        body=body_field(call, "Issue", "body", str, default="") or None,
        labels=_labels_field(call) or [],
        assignees=_assignees(call) or [],
    )
    return Reply(call.render.issue(call.store, repo, issue), status=201)


def _labels_field(call: Call) -> list[str] | None:
    """``labels``: names, or ``{"name": ...}`` objects as GitHub also accepts; None if absent."""
    if not isinstance(call.body, dict) or call.body.get("labels") is None:
        return None
    labels = body_field(call, "Issue", "labels", list)
    return [str(x.get("name", "") if isinstance(x, dict) else x) for x in labels]


_REASONS = ("completed", "not_planned", "duplicate", "reopened")


def update_issue(call: Call) -> Reply:
    """`title`, `body`, `state` (with `state_reason`), `labels` and `assignees`
    (both replace) of an issue, or of a pull request through its issue."""
    repo = repo_of(call)
    number = call.param_int("number")
    item: Issue | PullRequest | None = call.store.issue(repo, number) or call.store.pull(
        repo, number
    )
    if item is None:
        raise NotFound()
    state = body_field(call, "Issue", "state", str, default=item.state)
    merged = isinstance(item, PullRequest) and item.merged
    if state not in ("open", "closed") or (merged and state != item.state):
        raise invalid_field("Issue", "state")
    reason = body_field(call, "Issue", "state_reason", str, default="") or None
    if reason is not None and reason not in _REASONS:
        raise invalid_field("Issue", "state_reason")
    title = body_field(call, "Issue", "title", str, default="") or None
    text = body_field(call, "Issue", "body", str, default="")  # "" clears it
    given = isinstance(call.body, dict) and call.body.get("body") is not None
    store = call.store
    if isinstance(item, PullRequest):
        changes = {"title": title, "body": text if given else None}
        store.update_pull(item, **{k: v for k, v in changes.items() if v is not None})
    else:
        store.edit_issue(item, title=title, body=text if given else None)
    labels, assignees = _labels_field(call), _assignees(call)
    if labels is not None:
        store.set_labels(item, labels)
    if assignees is not None:
        store.set_assignees(item, assignees)
    if isinstance(item, PullRequest):
        if state == "closed" and item.state == "open":
            store.close_pull(item)
        elif state == "open" and item.state == "closed":
            store.update_pull(item, state="open", closed_at=None)
    elif state != item.state:
        default = "completed" if state == "closed" else "reopened"
        store.set_issue_state(item, state, reason or default)
    return Reply(issue_or_pull_json(call, repo, item))


def _target_exists(call: Call) -> tuple[int, bool]:
    repo = repo_of(call)
    number = call.param_int("number")
    return number, (
        call.store.issue(repo, number) is not None or call.store.pull(repo, number) is not None
    )


def list_issue_comments(call: Call) -> Reply:
    """Works on PRs too."""
    repo = repo_of(call)
    number, exists = _target_exists(call)
    if not exists:
        raise NotFound()
    page, headers = paginate(call, call.store.issue_comments(repo, number))
    return Reply([call.render.issue_comment(call.store, repo, c) for c in page], headers=headers)


def create_issue_comment(call: Call) -> Reply:
    """Works on PRs too."""
    repo = repo_of(call)
    number, exists = _target_exists(call)
    if not exists:
        raise NotFound()
    body = body_field(call, "IssueComment", "body", str)
    comment = call.store.add_issue_comment(repo, number, viewer(call), body)
    return Reply(call.render.issue_comment(call.store, repo, comment), status=201)


_LOCK_REASONS = ("off-topic", "too heated", "resolved", "spam")


def lock(call: Call) -> Reply:
    """Locks an issue's or pull request's conversation (`lock_reason`: off-topic, too
    heated, resolved, spam): 204."""
    viewer(call)
    _, item = issue_or_pull(call)
    reason = body_field(call, "Issue", "lock_reason", str, default="") or None
    if reason is not None and reason not in _LOCK_REASONS:
        raise invalid_field("Issue", "lock_reason")
    call.store.set_locked(item, True, reason)
    return Reply(None, status=204)


def unlock(call: Call) -> Reply:
    """204; 404 when it is not locked."""
    viewer(call)
    _, item = issue_or_pull(call)
    if not item.locked:
        raise NotFound()
    call.store.set_locked(item, False)
    return Reply(None, status=204)


_I = "/repos/{owner}/{repo}/issues"
_M = "/repos/{owner}/{repo}/milestones"
ROUTES = [
    Route("GET", _I, list_issues, etag=True),
    Route("POST", _I, create_issue, creates_content=True, anonymous=False),
    Route("GET", _I + "/{number}", get_issue, etag=True),
    Route("PATCH", _I + "/{number}", update_issue, anonymous=False),
    Route("GET", _I + "/{number}/comments", list_issue_comments, etag=True),
    Route("PUT", _I + "/{number}/lock", lock, anonymous=False),
    Route("DELETE", _I + "/{number}/lock", unlock, anonymous=False),
    Route("GET", _M, none_in_repo, etag=True),
    Route("GET", _M + "/{milestone_number}", not_in_repo, etag=True),
    Route(
        "POST",
        _I + "/{number}/comments",
        create_issue_comment,
        creates_content=True,
        anonymous=False,
    ),
]
