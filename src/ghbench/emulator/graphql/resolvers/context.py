"""What every resolver sees (``info.context``) and the small helpers they share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from graphql import GraphQLError, GraphQLResolveInfo

from ghbench.emulator.graphql.cost import CostReport
from ghbench.emulator.graphql_contract import BucketView
from ghbench.timefmt import iso_s

if TYPE_CHECKING:
    from ghbench.emulator.state import Repo, Store, User

__all__ = [
    "DEFAULT_WEB_URL",
    "Info",
    "ResolveContext",
    "context_of",
    "github_error",
    "iso",
    "item_url",
    "repo_url_of",
    "resolved",
    "store_of",
]

DEFAULT_WEB_URL = "https://github.com"
# What resolvers receive; only ``.context`` is guaranteed (see executor.py).
Info = GraphQLResolveInfo[Any]


@dataclass
class ResolveContext:
    """Per-request state for resolvers: the store, who asks, and what was charged."""

    store: Store
    viewer: User
    report: CostReport
    bucket: BucketView
    web_url: str = DEFAULT_WEB_URL

    def repo_url(self, repo: Repo) -> str:
        return f"{self.web_url}/{repo.owner_login}/{repo.name}"

    def user_url(self, login: str) -> str:
        return f"{self.web_url}/{login}"


def store_of(info: Info) -> Store:
    context: ResolveContext = info.context
    return context.store


def repo_url_of(info: Info, repo_id: int) -> str:
    """The web page of repository ``repo_id`` (the one a record belongs to)."""
    return context_of(info).repo_url(store_of(info).repos[repo_id])


def item_url(info: Info, repo_id: int, number: int) -> str:
    """The web page of issue or pull request ``number``: ``…/issues/7`` or ``…/pull/8``."""
    kind = "pull" if (repo_id, number) in store_of(info).pulls_by_number else "issues"
    return f"{repo_url_of(info, repo_id)}/{kind}/{number}"


def iso(epoch: float | None) -> str | None:
    """GitHub's DateTime: whole seconds, UTC, ``Z``."""
    return None if epoch is None else iso_s(epoch)


def github_error(kind: str, message: str) -> GraphQLError:
    """An execution error that GitHub reports with a top-level ``type``."""
    return GraphQLError(message, extensions={"type": kind})


T = TypeVar("T")


def resolved(value: T | None, what: str) -> T:
    """``value``, or GitHub's ``NOT_FOUND``: "Could not resolve to ``what``"."""
    if value is None:
        raise github_error("NOT_FOUND", f"Could not resolve to {what}")
    return value


def context_of(info: Info) -> ResolveContext:
    context: ResolveContext = info.context
    return context
