"""GraphQL objects that have no record of their own in the store.

A pull request's commit, a commit's status rollup, a check run's suite, a review
request or a reaction group are derived from records on the fly; these small classes carry
what their resolvers need, and ``TYPENAME`` tells abstract types what they are.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ghbench.emulator.state import CheckRun, Commit, CommitStatus, PullRequest, Repo, User

__all__ = [
    "CommitView",
    "PullCommitView",
    "ReactionGroupView",
    "RefView",
    "ReviewRequestView",
    "RollupView",
    "synthetic_id",
]


def synthetic_id(prefix: str, key: str) -> str:
    """A stable global id for a derived object (not resolvable with ``node``)."""
    return f"{prefix}_kwDO{zlib.crc32(key.encode()):08X}"


@dataclass(frozen=True)
class CommitView:
    TYPENAME: ClassVar[str] = "Commit"
    repo: Repo
    commit: Commit


@dataclass(frozen=True)
class PullCommitView:
    TYPENAME: ClassVar[str] = "PullRequestCommit"
    pull: PullRequest
    commit: CommitView


@dataclass(frozen=True)
class RollupView:
    """A commit's combined check runs and statuses (latest per name/context)."""

    TYPENAME: ClassVar[str] = "StatusCheckRollup"
    commit: CommitView
    contexts: list[CheckRun | CommitStatus] = field(default_factory=list)
    state: str = "SUCCESS"


@dataclass(frozen=True)
class ReactionGroupView:
    TYPENAME: ClassVar[str] = "ReactionGroup"
    content: str  # GraphQL's ReactionContent
    subject_id: str  # the node id of what was reacted to


@dataclass(frozen=True)
class RefView:
    TYPENAME: ClassVar[str] = "Ref"
    repo: Repo
    name: str  # branch name
    sha: str | None


@dataclass(frozen=True)
class ReviewRequestView:
    """A request for ``reviewer`` (a user) to review ``pull``."""

    TYPENAME: ClassVar[str] = "ReviewRequest"
    pull: PullRequest
    reviewer: User
