"""Reactions on issues, pull requests (through their issue), issue comments and review
comments: list (`content` filters), create (201, or 200 with the reaction the user
already left), delete."""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, invalid_field
from ghbench.emulator.rest.common import body_field, issue_or_pull, paginate, repo_of, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import IssueComment, Reaction, Repo, ReviewComment
from ghbench.emulator.state.reactions import REACTION_CONTENTS
from ghbench.timefmt import iso_s

__all__ = ["ROUTES", "render_reaction"]


def _subject(call: Call) -> tuple[Repo, str]:
    """The repository and the node id of what the URL names."""
    if "number" in call.params:
        repo, item = issue_or_pull(call)
        return repo, item.node_id
    repo = repo_of(call)
    comment_id = call.param_int("comment_id")
    found: IssueComment | ReviewComment | None
    if "/issues/comments/" in call.path:
        found = call.store.issue_comment(repo, comment_id)
    else:
        found = call.store.review_comments_by_id.get(comment_id)
    if found is None or found.repo_id != repo.id:
        raise NotFound()
    return repo, found.node_id


def render_reaction(call: Call, reaction: Reaction) -> dict[str, object]:
    return {
        "id": reaction.id,
        "node_id": reaction.node_id,
        "user": call.render.user(call.store.user_by_id(reaction.user_id)),
        "content": reaction.content,
        "created_at": iso_s(reaction.created_at),
    }


def list_reactions(call: Call) -> Reply:
    """Oldest first; `content` filters; `per_page`, `page`."""
    _, node_id = _subject(call)
    found = call.store.reactions(node_id, call.query.get("content") or None)
    page, headers = paginate(call, found)
    return Reply([render_reaction(call, r) for r in page], headers=headers)


def create_reaction(call: Call) -> Reply:
    """`content`: +1, -1, laugh, confused, heart, hooray, rocket or eyes; 201 for a new
    reaction, 200 with the existing one."""
    repo, node_id = _subject(call)
    content = body_field(call, "Reaction", "content", str)
    if content not in REACTION_CONTENTS:
        raise invalid_field("Reaction", "content")
    reaction, new = call.store.react(repo.id, node_id, viewer(call), content)
    return Reply(render_reaction(call, reaction), status=201 if new else 200)


def delete_reaction(call: Call) -> Reply:
    """204; 404 for a reaction that is not on it."""
    viewer(call)
    _, node_id = _subject(call)
    wanted = call.param_int("reaction_id")
    for reaction in call.store.reactions(node_id):
        if reaction.id == wanted:
            call.store.unreact(reaction)
            return Reply(None, status=204)
    raise NotFound()


_R = "/repos/{owner}/{repo}"
ROUTES = []
for _base in (
    _R + "/issues/{number}/reactions",
    _R + "/issues/comments/{comment_id}/reactions",
    _R + "/pulls/comments/{comment_id}/reactions",
):
    ROUTES += [
        Route("GET", _base, list_reactions, etag=True),
        Route("POST", _base, create_reaction, anonymous=False),
        Route("DELETE", _base + "/{reaction_id}", delete_reaction, anonymous=False),
    ]
