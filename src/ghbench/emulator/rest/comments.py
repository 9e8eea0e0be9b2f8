"""Comments by id: issue comments (what sticky-comment bots edit in place) and pull
request review comments (edits, deletions, replies), and their repository-wide lists.

Every user account may edit and delete any comment (every user is a collaborator with
write access here, and GitHub lets those edit others' comments).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from ghbench.emulator.errors import NotFound, invalid_field
from ghbench.emulator.rest.common import body_field, paginate, pull_of, repo_of, viewer
from ghbench.emulator.rest.render import Json, RestRenderer
from ghbench.emulator.rest.routing import Call, Handler, Reply, Route
from ghbench.emulator.state import IssueComment, Repo, ReviewComment, Store
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


@dataclass(frozen=True)
class _Kind(Generic[C]):
    """A kind of comment the API serves by id: its records, its JSON, its GitHub
    resource name (for a body field's error), and how a store deletes one (an edit is
    the same for each: ``Store.edit_comment``)."""

    resource: str
    noun: str  # "one ... by id", in the routes' notes (docs/emulator.md)
    every: str  # "every ... of the repository"
    deleted: str  # what a deletion answers and takes with it
    records: Callable[[Store], Mapping[int, C]]
    render: Callable[[RestRenderer, Store, Repo, C], Json]
    delete: Callable[[Store, C], None]

    def one(self, call: Call) -> tuple[Repo, C]:
        """The comment ``{comment_id}`` names, of this repository, or GitHub's 404."""
        repo = repo_of(call)
        comment = self.records(call.store).get(call.param_int("comment_id"))
        if comment is None or comment.repo_id != repo.id:
            raise NotFound()
        return repo, comment

    def list_repo(self, call: Call) -> Reply:
        repo = repo_of(call)
        every = [c for c in self.records(call.store).values() if c.repo_id == repo.id]
        page, headers = paginate(call, _ordered(call, every))
        return Reply([self.render(call.render, call.store, repo, c) for c in page], headers=headers)

    def get(self, call: Call) -> Reply:
        repo, comment = self.one(call)
        return Reply(self.render(call.render, call.store, repo, comment))

    def update(self, call: Call) -> Reply:
        viewer(call)
        repo, comment = self.one(call)
        call.store.edit_comment(comment, body_field(call, self.resource, "body", str))
        return Reply(self.render(call.render, call.store, repo, comment))

    def remove(self, call: Call) -> Reply:
        viewer(call)
        _, comment = self.one(call)
        self.delete(call.store, comment)
        return Reply(None, status=204)

    def routes(self, path: str) -> list[Route]:
        """List, get, edit and delete under ``path``, each noted as the kind says."""
        every = f"Every {self.every} of the repository: `sort`, `direction`, `since`,"
        one = f"{path}/{{comment_id}}"
        return [
            Route("GET", path, _noted(self.list_repo, every + " `per_page`, `page`."), etag=True),
            Route("GET", one, _noted(self.get, f"One {self.noun} by id."), etag=True),
            Route("PATCH", one, _noted(self.update, "A new `body`."), anonymous=False),
            Route("DELETE", one, _noted(self.remove, self.deleted), anonymous=False),
        ]


def _noted(handler: Handler, note: str) -> Handler:
    """``handler`` with ``note`` as its docstring: what docs/emulator.md says of its route."""

    def noted(call: Call) -> Reply:
        return handler(call)

    noted.__doc__ = note
    return noted


# issue and pull request comments (what sticky-comment bots edit in place)
_ISSUE = _Kind[IssueComment](
    "IssueComment",
    "issue or pull request comment",
    "issue and pull request comment",
    "204.",
    lambda store: store.issue_comments_by_id,
    RestRenderer.issue_comment,
    Store.delete_issue_comment,
)
_REVIEW = _Kind[ReviewComment](
    "PullRequestReviewComment",
    "review comment",
    "review comment",
    "204; the thread goes with its last comment.",
    lambda store: store.review_comments_by_id,
    RestRenderer.review_comment,
    Store.delete_review_comment,
)


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


ROUTES = [
    *_ISSUE.routes("/repos/{owner}/{repo}/issues/comments"),
    *_REVIEW.routes("/repos/{owner}/{repo}/pulls/comments"),
]
ROUTES.append(
    Route(
        "POST",
        "/repos/{owner}/{repo}/pulls/{number}/comments/{comment_id}/replies",
        reply_to_review_comment,
        creates_content=True,
        anonymous=False,
    )
)
