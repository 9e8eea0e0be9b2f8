"""GraphQL objects that have no record of their own in the store.

A pull request's commit, a commit's status rollup, a check run's suite, a label or
a reaction group are derived from records on the fly; these small classes carry
what their resolvers need, and ``TYPENAME`` tells abstract types what they are.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ghbench.emulator.state import CheckRun, Commit, CommitStatus, PullRequest, Repo

__all__ = [
    "CheckSuiteView",
    "CommitView",
    "LabelView",
    "PullCommitView",
    "ReactionGroupView",
    "RefView",
    "RollupView",
    "synthetic_id",
]

REACTIONS = (
    "THUMBS_UP",
    "THUMBS_DOWN",
    "LAUGH",
    "HOORAY",
    "CONFUSED",
    "HEART",
    "ROCKET",
    "EYES",
)


def synthetic_id(prefix: str, key: str) -> str:
    """A stable global id for a derived object (not resolvable with ``node``).

    For labels this equals the REST ``node_id`` (``rest/render.py``: crc32 of the same key).
    """
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
class CheckSuiteView:
    TYPENAME: ClassVar[str] = "CheckSuite"
    run: CheckRun


@dataclass(frozen=True)
class LabelView:
    TYPENAME: ClassVar[str] = "Label"
    repo: Repo
    name: str

    @property
    def node_id(self) -> str:
        return synthetic_id("LA", f"{self.repo.id}:{self.name}")

    # GitHub's colour for a label made implicitly by naming it; REST renders the same.
    color: ClassVar[str] = "ededed"


@dataclass(frozen=True)
class ReactionGroupView:
    TYPENAME: ClassVar[str] = "ReactionGroup"
    content: str


@dataclass(frozen=True)
class RefView:
    TYPENAME: ClassVar[str] = "Ref"
    repo: Repo
    name: str  # branch name
    sha: str | None
