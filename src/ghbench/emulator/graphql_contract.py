"""The contract between the emulator core and the GraphQL layer (``emulator.graphql``).

The core owns transport, authentication, rate-limit headers and the ledger; the
GraphQL layer owns parsing, validation, cost, resolution and error formatting.
The core calls::

    from ghbench.emulator.graphql import handle_graphql
    result = handle_graphql(body, ctx)   # body: the raw POST bytes

``ctx.charge(cost, operation_name)`` charges the caller's ``graphql`` bucket and
writes the ledger entry; it raises :class:`RateLimited` (charging nothing) when
``remaining < cost``, and the GraphQL layer turns that into GitHub's 200 +
``errors: [{"type": "RATE_LIMITED", ...}]`` body. ``ctx.peek()`` reads the bucket
without charging (for ``rateLimit { ... }`` and ``dryRun``).

After the call the core sets the ``x-ratelimit-*`` headers from the bucket,
counts secondary-limit points (1 per query, 5 per mutation; a mutation also
counts as content creation) and commits the state before responding.

``ctx.state`` is the :class:`ghbench.emulator.state.Store`; its module docstring
lists the read and write methods (repository, pull requests, issues, statuses,
check runs, reviews, review threads, create and merge a PR).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from ghbench.clock import Clock

if TYPE_CHECKING:
    from ghbench.emulator.state import Store, User

__all__ = [
    "COST_RULES",
    "DEFAULT_COST_RULE",
    "BucketView",
    "CostRule",
    "GraphQLRequestContext",
    "GraphQLResult",
    "KnownAnswer",
    "KnownAnswers",
    "RateLimited",
]

# How a connection without first/last counts (graphql/cost.py explains both).
CostRule = Literal["page-size", "every-connection"]
COST_RULES: tuple[str, ...] = get_args(CostRule)
DEFAULT_COST_RULE: CostRule = "page-size"


@dataclass(frozen=True)
class BucketView:
    """One rate-limit bucket as the caller sees it right now."""

    resource: str
    limit: int
    remaining: int
    used: int
    reset: int  # epoch seconds


class RateLimited(Exception):
    """The bucket has fewer points left than the request costs; nothing was charged."""

    def __init__(self, bucket: BucketView) -> None:
        super().__init__(f"{bucket.resource} rate limit exceeded")
        self.bucket = bucket


def _nothing() -> None:
    return None


@dataclass
class GraphQLRequestContext:
    """Everything a GraphQL request may use; built by the core for each request."""

    state: Store
    viewer: User
    clock: Clock
    rng: random.Random
    peek: Callable[[], BucketView]
    charge: Callable[[int, str | None], BucketView]
    headers: dict[str, str] = field(default_factory=dict)  # lower-cased request headers
    cost_rule: str = DEFAULT_COST_RULE
    # Called between fields as execution goes: raises the core's timeout past the
    # deadline and lets other clients take a turn (emulator/fairness.py).
    checkpoint: Callable[[], None] = _nothing
    # Each top-level mutation field runs inside one of these (a database transaction).
    mutation_scope: Callable[[], AbstractContextManager[Any]] = nullcontext


@dataclass
class GraphQLResult:
    """What the GraphQL layer answers; ``body`` is serialized by the core."""

    status: int
    body: dict[str, Any]
    operation_name: str | None
    is_mutation: bool
    cost: int
    # the same request answers the same while no record changes: a query that ran (not
    # a dry run), asked nothing of the bucket (``rateLimit``), read no clock and changed
    # no record
    reusable: bool = False
    # refused for the rate limit (``RATE_LIMITED``): nothing charged, nothing run
    refused: bool = False


@dataclass(frozen=True)
class KnownAnswer:
    """A request's cost and, once it ran, its reusable answer (``GraphQLResult.
    reusable``), encoded; and the store's change count they hold for. A query only ever
    refused for the rate limit is known by its cost alone (``payload`` None)."""

    changes: int
    cost: int
    operation: str | None
    payload: bytes | None


class KnownAnswers:
    """Reusable answers by (body, viewer id, cost rule); forgotten all at once when full
    (a cold memo only costs executing again)."""

    def __init__(self, size: int = 50_000) -> None:
        self.size = size
        self._answers: dict[tuple[bytes, int, str], KnownAnswer] = {}

    def get(self, key: tuple[bytes, int, str]) -> KnownAnswer | None:
        return self._answers.get(key)

    def put(self, key: tuple[bytes, int, str], answer: KnownAnswer) -> None:
        if len(self._answers) >= self.size:
            self._answers.clear()
        self._answers[key] = answer
