"""The control API's request bodies and query, declared once: shape, defaults, limits.

Each is a msgspec struct that refuses unknown keys; ``ghbench.validation.convert``
turns a mismatch into one line naming the key and what is allowed, which the control
API answers with 400 (the only errors it maps to 400). Counts are bounded so that no
single request can ask the emulator for unbounded work.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ghbench.budgets import Budget
from ghbench.emulator.config import REPO_NAME

__all__ = [
    "CiBody",
    "ClockBody",
    "IssueBody",
    "LabelsBody",
    "LedgerQuery",
    "LimitsBody",
    "PullBody",
    "PushBody",
    "ReviewCommentsBody",
    "SeedRepo",
    "SeedSpec",
    "UserBody",
]

MAX_SEEDED = 100_000  # issues or pulls per repository in one seed
MAX_BURST = 1_000  # review comments per PR in one burst
Name = Annotated[str, Meta(min_length=1, max_length=255)]
Number = Annotated[int, Meta(ge=1)]
Labels = Annotated[list[Name], Meta(max_length=100)]
CiState = Literal["pending", "queued", "success", "failure", "error", "cancelled"]
# finite, within years 1970..9999
Epoch = Annotated[float, Meta(ge=0, le=253_402_300_799)]


class _Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class UserBody(_Body):
    login: Name
    tokens: list[Name] = msgspec.field(default_factory=list)
    scopes: str | None = None  # a classic token's scopes, comma-separated
    # the kind of token (``ghbench.budgets``: pat, app, app-enterprise, actions, custom,
    # with repos, users, rest, graphql) and what it belongs to: an App installation's
    # name (its bucket, shared by its tokens), an Actions token's repository
    budget: Budget | None = None
    installation: Name | None = None
    repository: REPO_NAME | None = None


class SeedRepo(_Body):
    name: REPO_NAME
    issues: Annotated[int, Meta(ge=0, le=MAX_SEEDED)] = 0
    pulls: Annotated[int, Meta(ge=0, le=MAX_SEEDED)] = 0
    ci: CiState | None = None
    default_branch: Name = "main"


class SeedSpec(_Body):
    """``{"users": {login: [tokens]}, "repos": ["o/r" | {name, issues, pulls, ci}]}``."""

    users: dict[Name, list[Name]] = msgspec.field(default_factory=dict)
    repos: list[SeedRepo | REPO_NAME] = msgspec.field(default_factory=list)


class PullBody(_Body):
    head: Name
    base: Name | None = None
    title: str | None = None
    body: str | None = None
    author: Name | None = None
    draft: bool = False
    labels: Labels = msgspec.field(default_factory=list)


class IssueBody(_Body):
    title: str
    body: str | None = None
    author: Name | None = None
    labels: Labels = msgspec.field(default_factory=list)


class LabelsBody(_Body):
    number: Number
    labels: Labels = msgspec.field(default_factory=list)


class CiBody(_Body):
    state: CiState
    sha: Annotated[str, Meta(pattern="^[0-9a-f]{40}$", description="a 40-hex sha")] | None = None
    pr: Number | None = None
    name: Name = "ci"
    # the job's output (its log), bounded like a body of text GitHub keeps
    log: Annotated[str, Meta(max_length=1_000_000)] | None = None


class PushBody(_Body):
    branch: Name
    message: str = "Update"
    files: dict[Name, str] | None = None  # path -> text


class ReviewCommentsBody(_Body):
    count: Annotated[int, Meta(ge=0, le=MAX_BURST)] = 1
    prs: list[Number] | None = None  # default: every open PR
    author: Name = "reviewer"


class ClockBody(_Body):
    advance: Annotated[float, Meta(ge=0, le=10 * 365 * 86400)] | None = None
    set: Epoch | None = None


class LimitsBody(_Body):
    resource: Name
    limit: Annotated[int, Meta(ge=0)]
    window_s: Annotated[int, Meta(gt=0)] = 3600
    owner: Name | None = None


class LedgerQuery(_Body):
    """``?since=&until=&token=&resource=`` (epoch seconds; token: a login or token id)."""

    since: Epoch | None = None
    until: Epoch | None = None
    token: Name | None = None
    resource: Name | None = None
