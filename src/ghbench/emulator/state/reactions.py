"""Emoji reactions on issues, pull requests and comments.

A reaction names its subject by node id, so one index serves every kind of subject.
REST names the eight contents ``+1 -1 laugh confused heart hooray rocket eyes``,
GraphQL ``THUMBS_UP THUMBS_DOWN LAUGH CONFUSED HEART HOORAY ROCKET EYES``; a user
reacts once per content and subject (GitHub answers the existing reaction again).
"""

from __future__ import annotations

from collections import defaultdict

from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import Reaction, Record, User

__all__ = ["REACTION_CONTENTS", "ReactionOps"]

# REST content -> GraphQL ReactionContent, in GitHub's order
REACTION_CONTENTS = {
    "+1": "THUMBS_UP",
    "-1": "THUMBS_DOWN",
    "laugh": "LAUGH",
    "hooray": "HOORAY",
    "confused": "CONFUSED",
    "heart": "HEART",
    "rocket": "ROCKET",
    "eyes": "EYES",
}


class ReactionOps(StoreBase):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        self.reactions_by_subject: dict[str, list[Reaction]] = defaultdict(list)

    def _index(self, record: Record) -> None:
        super()._index(record)
        if isinstance(record, Reaction):
            self.reactions_by_subject[record.subject_id].append(record)

    def reactions(self, subject_id: str, content: str | None = None) -> list[Reaction]:
        """Reactions on the node ``subject_id``, oldest first (``content``: REST's)."""
        found = self.reactions_by_subject.get(subject_id, [])
        return [r for r in found if content is None or r.content == content]

    def react(
        self, repo_id: int, subject_id: str, user: User, content: str
    ) -> tuple[Reaction, bool]:
        """``user``'s ``content`` reaction on the subject, and whether it is new."""
        for existing in self.reactions(subject_id, content):
            if existing.user_id == user.id:
                return existing, False
        reaction = self.create(
            Reaction,
            "REA",
            now=("created_at",),
            repo_id=repo_id,
            subject_id=subject_id,
            user_id=user.id,
            content=content,
        )
        return reaction, True

    def unreact(self, reaction: Reaction) -> None:
        found = self.reactions_by_subject.get(reaction.subject_id, [])
        if reaction in found:
            found.remove(reaction)
        self.remove(reaction)
