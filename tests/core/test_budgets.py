"""GitHub's documented figures per kind of token (docs/budgets.md), what a budget says
of itself, and ``parse_budget``'s one-line refusals naming the flag."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.budgets import MAX_COUNT, PAT, RULES, Budget, HourlyLimits, parse_budget
from ghbench.errors import UsageError


@pytest.mark.parametrize(
    ("budget", "core", "graphql"),
    [
        (Budget(), 5_000, 5_000),
        (Budget(kind="app", repos=20, users=20), 5_000, 5_000),  # more than 20 adds
        (Budget(kind="app", repos=40), 6_000, 6_000),
        (Budget(kind="app", repos=21, users=30), 5_550, 5_550),
        (Budget(kind="app", repos=200, users=1_000), 12_500, 12_500),
        (Budget(kind="app-enterprise"), 15_000, 10_000),
        (Budget(kind="actions"), 1_000, 1_000),
        (Budget(kind="custom", rest=900), 900, 5_000),
    ],
)
def test_githubs_figures(budget: Budget, core: int, graphql: int) -> None:
    limits = budget.limits()
    assert (limits.core, limits.graphql) == (core, graphql)
    assert limits.per_repository == (budget.kind == "actions")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000), st.integers(0, 100_000), st.integers(0, 100_000))
def test_an_installation_never_has_less_than_a_user_nor_more_than_the_cap(
    repos: int, users: int, more: int
) -> None:
    small, large = (
        Budget(kind="app", repos=repos, users=users),
        Budget(kind="app", repos=repos + more, users=users),
    )
    assert 5_000 <= small.limits().core <= large.limits().core <= 12_500


def test_each_kind_says_where_github_documents_it() -> None:
    assert all(rule.source.startswith("https://docs.github.com/") for rule in RULES.values())


def test_the_default_budget_is_a_users_token() -> None:
    assert Budget() == PAT and PAT.limits() == HourlyLimits(5_000, 5_000)
    assert (PAT.label, PAT.flags) == ("pat", " --budget pat")


def test_a_limit_is_known_only_for_the_buckets_a_token_sizes() -> None:
    limits = Budget(kind="app-enterprise").limits()
    assert (limits.get("core"), limits.get("graphql"), limits.get("search")) == (
        15_000,
        10_000,
        None,
    )


def test_a_custom_budget_keeps_its_numbers_and_the_default_for_the_other() -> None:
    budget = Budget(kind="custom", graphql=0)
    assert (budget.limits().core, budget.limits().graphql) == (5_000, 0)  # 0 is a number
    assert budget.label == "custom (REST 5,000/h, GraphQL 0/h)"
    assert budget.flags == " --budget custom --graphql 0"


def test_a_budget_describes_itself_in_words() -> None:
    app = Budget(kind="app", repos=40, users=25)
    assert app.label == "app (40 repositories, 25 users)"
    assert app.describe() == (
        "GitHub App installation, 40 repositories, 25 users: 6,250 REST core requests"
        " and 6,250 GraphQL points an hour"
    )
    assert Budget(kind="actions").describe().endswith(" an hour per repository")


@pytest.mark.parametrize(
    ("kind", "sizes", "expected"),
    [
        ("pat", {}, Budget()),
        ("app", {"repos": 40}, Budget(kind="app", repos=40)),
        ("app", {"repos": 0, "users": MAX_COUNT}, Budget(kind="app", repos=0, users=MAX_COUNT)),
        ("custom", {"rest": 900}, Budget(kind="custom", rest=900)),
    ],
)
def test_parse_budget_gives_the_budget_the_flags_name(
    kind: str, sizes: dict[str, int], expected: Budget
) -> None:
    parsed = parse_budget(kind, **sizes)
    assert parsed == expected
    words = parsed.flags.split()  # " --budget app --repos 40": its flags read back
    again = {words[i].removeprefix("--"): int(words[i + 1]) for i in range(2, len(words), 2)}
    assert words[:2] == ["--budget", kind] and parse_budget(kind, **again) == parsed


@pytest.mark.parametrize(
    ("kind", "sizes", "message"),
    [
        ("team", {}, "--budget team: use one of pat, app, app-enterprise, actions, custom"),
        ("pat", {"users": 3}, "--users applies to --budget app, not --budget pat"),
        ("actions", {"rest": 3}, "--rest applies to --budget custom, not --budget actions"),
        ("app", {"repos": -1}, "--repos -1: use a whole number from 0 to 10,000,000"),
        ("app", {"users": MAX_COUNT + 1}, "--users 10000001: use a whole number"),
        ("custom", {}, "--budget custom: give --rest N and/or --graphql N (per hour)"),
    ],
)
def test_parse_budget_refuses_in_one_line_naming_the_flag(
    kind: str, sizes: dict[str, int], message: str
) -> None:
    with pytest.raises(UsageError) as info:
        parse_budget(kind, **sizes)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)
