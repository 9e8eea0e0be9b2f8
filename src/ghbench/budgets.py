"""A token's hourly budget, by the kind of token: the one model every command uses.

GitHub's primary limits depend on how a call is authenticated (docs/budgets.md has each
figure with its source in GitHub's documentation):

============================  ========================  ========================  ==========
``--budget``                  REST core / hour          GraphQL points / hour     buckets
============================  ========================  ========================  ==========
``pat``                       5,000                     5,000                     one per user
``app``                       5,000 + 50 per repo over  the same                  one per
                              20 + 50 per user over 20,                           installation
                              at most 12,500
``app-enterprise``            15,000                    10,000                    one per
                                                                                  installation
``actions``                   1,000                     1,000                     one per
                                                                                  repository
``custom``                    ``--rest``                ``--graphql``             one
============================  ========================  ========================  ==========

A ``Budget`` is data (a frozen msgspec struct, part of a run's spec); ``limits()`` is
what it allows per hour. Pure: no clock, no files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, get_args

import msgspec

from ghbench.errors import UsageError

__all__ = [
    "BUDGET_KINDS",
    "MAX_COUNT",
    "PAT",
    "RULES",
    "WINDOW_S",
    "Budget",
    "BudgetKind",
    "HourlyLimits",
    "KindRule",
    "parse_budget",
]

BudgetKind = Literal["pat", "app", "app-enterprise", "actions", "custom"]
BUDGET_KINDS: tuple[BudgetKind, ...] = get_args(BudgetKind)
WINDOW_S = 3600  # every budget here is per hour: the bucket's window

REST_DOC = "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api"
GRAPHQL_DOC = (
    "https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api"
)
MAX_COUNT = 10_000_000  # the most repositories, users or requests a flag may give
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]


@dataclass(frozen=True)
class KindRule:
    """What GitHub allows a kind of token per hour: a base, what each repository and user
    above ``free`` adds (an App installation's), and the most it can reach."""

    title: str
    rest: int
    graphql: int
    per_repo: int = 0  # added per repository above ``free``
    per_user: int = 0  # added per organization member above ``free``
    free: int = 20
    cap_rest: int | None = None
    cap_graphql: int | None = None
    per_repository: bool = False  # one bucket per repository (Actions' GITHUB_TOKEN)
    takes: frozenset[str] = frozenset()  # which of repos, users, rest, graphql it takes
    source: str = REST_DOC


RULES: dict[BudgetKind, KindRule] = {
    "pat": KindRule("personal access token", 5_000, 5_000),
    "app": KindRule(
        "GitHub App installation",
        5_000,
        5_000,
        per_repo=50,
        per_user=50,
        cap_rest=12_500,
        cap_graphql=12_500,
        takes=frozenset({"repos", "users"}),
    ),
    "app-enterprise": KindRule("GitHub App installation on Enterprise Cloud", 15_000, 10_000),
    "actions": KindRule("GitHub Actions' GITHUB_TOKEN", 1_000, 1_000, per_repository=True),
    "custom": KindRule("custom", 5_000, 5_000, takes=frozenset({"rest", "graphql"})),
}


@dataclass(frozen=True)
class HourlyLimits:
    """What a budget allows in one hour's window, per bucket."""

    core: int
    graphql: int
    per_repository: bool = False  # each repository a call names has a bucket of its own

    def get(self, resource: str) -> int | None:
        """The limit of ``resource`` (``core`` or ``graphql``); None for any other bucket,
        whose limit no kind of token changes."""
        return {"core": self.core, "graphql": self.graphql}.get(resource)


class Budget(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One kind of token and what sizes it: an App installation's repositories and
    organization members, a custom budget's numbers."""

    kind: BudgetKind = "pat"
    repos: Count | None = None  # app: repositories the installation is on
    users: Count | None = None  # app: members of the organization it is installed on
    rest: Count | None = None  # custom: REST core requests per hour
    graphql: Count | None = None  # custom: GraphQL points per hour

    @property
    def rule(self) -> KindRule:
        return RULES[self.kind]

    def limits(self) -> HourlyLimits:
        rule = self.rule
        extra = rule.per_repo * max(0, (self.repos or 0) - rule.free)
        extra += rule.per_user * max(0, (self.users or 0) - rule.free)
        rest, graphql = rule.rest + extra, rule.graphql + extra
        if rule.cap_rest is not None:
            rest = min(rest, rule.cap_rest)
        if rule.cap_graphql is not None:
            graphql = min(graphql, rule.cap_graphql)
        if self.kind == "custom":
            rest = rule.rest if self.rest is None else self.rest
            graphql = rule.graphql if self.graphql is None else self.graphql
        return HourlyLimits(rest, graphql, rule.per_repository)

    @property
    def label(self) -> str:
        """The budget in a few words: ``app (40 repositories)``."""
        parts = []
        if self.repos is not None:
            parts.append(f"{self.repos} repositories")
        if self.users is not None:
            parts.append(f"{self.users} users")
        if self.kind == "custom":
            limits = self.limits()
            parts.append(f"REST {limits.core:,}/h, GraphQL {limits.graphql:,}/h")
        return self.kind + (f" ({', '.join(parts)})" if parts else "")

    @property
    def flags(self) -> str:
        """The flags that give this budget: `` --budget app --repos 40``."""
        sizes = (
            ("repos", self.repos),
            ("users", self.users),
            ("rest", self.rest),
            ("graphql", self.graphql),
        )
        return f" --budget {self.kind}" + "".join(
            f" --{name} {n}" for name, n in sizes if n is not None
        )

    def describe(self) -> str:
        """What it allows, in words: ``GitHub App installation, 40 repositories: 6,000
        REST core requests and 6,000 GraphQL points an hour``."""
        limits = self.limits()
        sized = [f"{n} {w}" for n, w in ((self.repos, "repositories"), (self.users, "users")) if n]
        head = self.rule.title + (f", {', '.join(sized)}" if sized else "")
        each = " per repository" if limits.per_repository else ""
        return (
            f"{head}: {limits.core:,} REST core requests and {limits.graphql:,} GraphQL points"
            f" an hour{each}"
        )


PAT = Budget()


def parse_budget(
    kind: str,
    *,
    repos: int | None = None,
    users: int | None = None,
    rest: int | None = None,
    graphql: int | None = None,
) -> Budget:
    """The budget ``--budget KIND`` and its sizing flags name; UsageError naming the flag
    when one does not apply to the kind or a value is out of range."""
    if kind not in BUDGET_KINDS:
        raise UsageError(f"--budget {kind}: use one of {', '.join(BUDGET_KINDS)}")
    rule = RULES[kind]
    given = {"repos": repos, "users": users, "rest": rest, "graphql": graphql}
    for name, value in given.items():
        if value is None:
            continue
        if name not in rule.takes:
            takers = [k for k, r in RULES.items() if name in r.takes]
            raise UsageError(
                f"--{name} applies to --budget {' or '.join(takers)}, not --budget {kind}"
            )
        if value < 0 or value > MAX_COUNT:
            raise UsageError(f"--{name} {value}: use a whole number from 0 to {MAX_COUNT:,}")
    if kind == "custom" and rest is None and graphql is None:
        raise UsageError("--budget custom: give --rest N and/or --graphql N (per hour)")
    sized = {k: v for k, v in given.items() if v is not None}
    return msgspec.convert({"kind": kind, **sized}, Budget)
