"""Reactions: ``reactionGroups``, ``reactions`` (``Reactable``) and the
``addReaction``/``removeReaction`` mutations, over the store's reaction records."""

from __future__ import annotations

from typing import Any

from ghbench.emulator.graphql.resolvers.connections import Page, paginate
from ghbench.emulator.graphql.resolvers.context import Info, context_of, iso, store_of
from ghbench.emulator.graphql.resolvers.nodes import node_of, payload
from ghbench.emulator.graphql.resolvers.views import ReactionGroupView
from ghbench.emulator.state.reactions import REACTION_CONTENTS

__all__ = [
    "REACTABLE_FIELDS",
    "REACTION_CONNECTION_FIELDS",
    "REACTION_FIELDS",
    "REACTION_GROUP_FIELDS",
    "REACTION_MUTATIONS",
    "reaction_groups",
]

# GraphQL's ReactionContent -> REST's content
_CONTENTS = {graphql: rest for rest, graphql in REACTION_CONTENTS.items()}
# the GraphQL types a reaction may be on
_REACTABLE = (
    "Issue",
    "PullRequest",
    "IssueComment",
    "PullRequestReview",
    "PullRequestReviewComment",
)


def reaction_groups(subject: Any, _: Info) -> list[ReactionGroupView]:
    """Every content, GitHub's order, whether anyone reacted so or not."""
    return [ReactionGroupView(content, subject.node_id) for content in REACTION_CONTENTS.values()]


def _group_users(group: ReactionGroupView, info: Info, **args: Any) -> Page:
    store = store_of(info)
    found = store.reactions(group.subject_id, _CONTENTS[group.content])
    return paginate([store.users[r.user_id] for r in found], **args)


def _viewer_reacted(group: ReactionGroupView, info: Info) -> bool:
    viewer = context_of(info).viewer.id
    found = store_of(info).reactions(group.subject_id, _CONTENTS[group.content])
    return any(r.user_id == viewer for r in found)


REACTION_GROUP_FIELDS: dict[str, Any] = {
    "content": lambda g, _: g.content,
    "users": _group_users,
    "viewerHasReacted": _viewer_reacted,
}


def _reactions(subject: Any, info: Info, content: str | None = None, **args: Any) -> Page:
    found = store_of(info).reactions(subject.node_id, _CONTENTS[content] if content else None)
    if args.get("orderBy") and args["orderBy"].get("direction") == "DESC":
        found = list(reversed(found))
    return paginate(found, **args)


REACTABLE_FIELDS: dict[str, Any] = {
    "reactionGroups": reaction_groups,
    "reactions": _reactions,
    "viewerCanReact": lambda _s, _i: True,
}

REACTION_CONNECTION_FIELDS: dict[str, Any] = {
    "viewerHasReacted": lambda page, info: any(
        r.user_id == context_of(info).viewer.id for r in page.all_items
    ),
}

REACTION_FIELDS: dict[str, Any] = {
    "id": lambda r, _: r.node_id,
    "databaseId": lambda r, _: r.id,
    "content": lambda r, _: REACTION_CONTENTS[r.content],
    "createdAt": lambda r, _: iso(r.created_at),
    "user": lambda r, info: store_of(info).users.get(r.user_id),
    "reactable": lambda r, info: store_of(info).node(r.subject_id),
}


def _add_reaction(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    subject = node_of(info, input["subjectId"], *_REACTABLE)
    store = store_of(info)
    content = _CONTENTS[input["content"]]
    reaction, _new = store.react(subject.repo_id, subject.node_id, context_of(info).viewer, content)
    groups = reaction_groups(subject, info)
    return payload(input, reaction=reaction, subject=subject, reactionGroups=groups)


def _remove_reaction(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    subject = node_of(info, input["subjectId"], *_REACTABLE)
    store = store_of(info)
    viewer = context_of(info).viewer
    gone = None
    for reaction in store.reactions(subject.node_id, _CONTENTS[input["content"]]):
        if reaction.user_id == viewer.id:
            store.unreact(reaction)
            gone = reaction
    groups = reaction_groups(subject, info)
    return payload(input, reaction=gone, subject=subject, reactionGroups=groups)


REACTION_MUTATIONS: dict[str, Any] = {
    "addReaction": _add_reaction,
    "removeReaction": _remove_reaction,
}
