"""Comments by id: issue comments (what sticky-comment bots edit in place) and pull
request review comments (edits, deletions, replies), and their repository-wide lists.

Every user account may edit and delete any comment (every user is a collaborator with
write access here, and GitHub lets those edit others' comments).
"""

from __future__ import annotations

from typing import TypeVar

from ghbench.emulator.errors import NotFound, found, invalid_field
from ghbench.emulator.rest.common import body_field, paginate, pull_of, repo_of, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import IssueComment, Repo, ReviewComment
from ghbench.timefmt import parse_iso

__all__ = ["ROUTES"]

C = TypeVar("C", IssueComment, ReviewComment)


def _since(call: Call) -> float | None:
    raw = call.query.get("since")
    if not raw:
        return None
    try:
        return parse_iso(raw)
    except ValueError as exc:
        raise invalid_field("Comment", "since") from exc


def _ordered(call: Call, comments: list[C]) -> list[C]:
    """`sort` created (default) or updated, `direction` asc (default) or desc, `since`
    (updated at or after)."""
    since = _since(call)
    kept = [c for c in comments if since is None or c.updated_at >= since]
    key = "updated_at" if call.query.get("sort") == "updated" else "created_at"
    kept.sort(key=lambda c: (getattr(c, key), c.id), reverse=call.query.get("direction") == "desc")
    return kept


# -- issue comments ------------------------------------------------------------------
def _issue_comment(call: Call) -> tuple[Repo, IssueComment]:
    repo = repo_of(call)
    comment = found(call.store.issue_comment(repo, call.param_int("comment_id")))
    return repo, comment


def list_repo_issue_comments(call: Call) -> Reply:
    """Every issue and pull request comment of the repository: `sort`, `direction`,
    `since`, `per_page`, `page`."""
    repo = repo_of(call)
    every = [c for c in call.store.issue_comments_by_id.values() if c.repo_id == repo.id]
    page, headers = paginate(call, _ordered(call, every))
    return Reply([call.render.issue_comment(call.store, repo, c) for c in page], headers=headers)


def get_issue_comment(call: Call) -> Reply:
    """One issue or pull request comment by id."""
    repo, comment = _issue_comment(call)
    return Reply(call.render.issue_comment(call.store, repo, comment))


def update_issue_comment(call: Call) -> Reply:
    """A new `body`."""
    viewer(call)
    repo, comment = _issue_comment(call)
    call.store.edit_issue_comment(comment, body_field(call, "IssueComment", "body", str))
    return Reply(call.render.issue_comment(call.store, repo, comment))


def delete_issue_comment(call: Call) -> Reply:
    """204."""
    viewer(call)
    _, comment = _issue_comment(call)
    call.store.delete_issue_comment(comment)
    return Reply(None, status=204)


# -- review comments -----------------------------------------------------------------
def _review_comment(call: Call) -> tuple[Repo, ReviewComment]:
    repo = repo_of(call)
    comment = call.store.review_comments_by_id.get(call.param_int("comment_id"))
    if comment is None or comment.repo_id != repo.id:
        raise NotFound()
    return repo, comment


def list_repo_review_comments(call: Call) -> Reply:
    """Every review comment of the repository: `sort`, `direction`, `since`,
    `per_page`, `page`."""
    repo = repo_of(call)
    every = [c for c in call.store.review_comments_by_id.values() if c.repo_id == repo.id]
    page, headers = paginate(call, _ordered(call, every))
    return Reply([call.render.review_comment(call.store, repo, c) for c in page], headers=headers)


def get_review_comment(call: Call) -> Reply:
    """One review comment by id."""
    repo, comment = _review_comment(call)
    return Reply(call.render.review_comment(call.store, repo, comment))


def update_review_comment(call: Call) -> Reply:
    """A new `body`."""
    viewer(call)
    repo, comment = _review_comment(call)
    body = body_field(call, "PullRequestReviewComment", "body", str)
    call.store.edit_review_comment(comment, body)
    return Reply(call.render.review_comment(call.store, repo, comment))


def delete_review_comment(call: Call) -> Reply:
    """204; the thread goes with its last comment."""
    viewer(call)
    _, comment = _review_comment(call)
    call.store.delete_review_comment(comment)
    return Reply(None, status=204)


def reply_to_review_comment(call: Call) -> Reply:
    """A reply in the comment's thread (a reply to a reply answers its thread's first
    comment, as GitHub does); 404 when the comment is not this pull request's."""
    repo, pull = pull_of(call)
    parent = call.store.review_comments_by_id.get(call.param_int("comment_id"))
    if parent is None or parent.pull_id != pull.id:
        raise NotFound()
    first = parent.in_reply_to_id or parent.id
    comment = call.store.add_review_comment(
        pull,
        viewer(call),
        body_field(call, "PullRequestReviewComment", "body", str),
        in_reply_to=first,
    )
    return Reply(call.render.review_comment(call.store, repo, comment), status=201)


_IC = "/repos/{owner}/{repo}/issues/comments"
_PC = "/repos/{owner}/{repo}/pulls/comments"
ROUTES = [
    Route("GET", _IC, list_repo_issue_comments, etag=True),
    Route("GET", _IC + "/{comment_id}", get_issue_comment, etag=True),
    Route("PATCH", _IC + "/{comment_id}", update_issue_comment, anonymous=False),
    Route("DELETE", _IC + "/{comment_id}", delete_issue_comment, anonymous=False),
    Route("GET", _PC, list_repo_review_comments, etag=True),
    Route("GET", _PC + "/{comment_id}", get_review_comment, etag=True),
    Route("PATCH", _PC + "/{comment_id}", update_review_comment, anonymous=False),
    Route("DELETE", _PC + "/{comment_id}", delete_review_comment, anonymous=False),
    Route(
        "POST",
        "/repos/{owner}/{repo}/pulls/{number}/comments/{comment_id}/replies",
        reply_to_review_comment,
        creates_content=True,
        anonymous=False,
    ),
]
