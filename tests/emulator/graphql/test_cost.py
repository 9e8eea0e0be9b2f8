"""GitHub's GraphQL cost formula (pure: schema + AST + variables); the limits over its
report are ``test_limits.py``'s."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from graphql import GraphQLSchema, OperationDefinitionNode, build_schema, parse
from graphql_queries import REVIEW_THREADS_QUERY, batch_query
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.emulator.graphql.cost import CostReport, analyze_cost, points_for
from ghbench.emulator.graphql.limits import check_limits
from ghbench.emulator.graphql.schema import load_schema

# The docs' example needs viewer.repositories.issues.labels, which our GitHub subset
# does not serve; the formula only looks at connection types, so a tiny schema does.
_DOCS_SDL = """
type Query { viewer: User! }
type User { login: String! repositories(first: Int, last: Int): RepositoryConnection! }
type RepositoryConnection { edges: [RepositoryEdge] totalCount: Int! }
type RepositoryEdge { node: Repository }
type Repository { id: ID! issues(first: Int, last: Int): IssueConnection! }
type IssueConnection { edges: [IssueEdge] totalCount: Int! }
type IssueEdge { node: Issue }
type Issue { id: ID! labels(first: Int, last: Int): LabelConnection }
type LabelConnection { edges: [LabelEdge] }
type LabelEdge { node: Label }
type Label { name: String! }
"""
_DOCS_QUERY = """
query { viewer { login repositories(first: REPOS) { edges { node { id
  issues(first: ISSUES) { totalCount edges { node { id
    labels(first: LABELS) { edges { node { name } } } } } } } } } } }
"""


@cache
def _docs_schema() -> GraphQLSchema:
    return build_schema(_DOCS_SDL)


def _cost(
    query: str,
    variables: dict[str, Any] | None = None,
    schema: GraphQLSchema | None = None,
    rule: str = "page-size",
) -> CostReport:
    document = parse(query)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    return analyze_cost(schema or load_schema(), document, operation, variables or {}, rule)


def _docs(repos: int, issues: int, labels: int) -> CostReport:
    text = (
        _DOCS_QUERY.replace("REPOS", str(repos))
        .replace("ISSUES", str(issues))
        .replace("LABELS", str(labels))
    )
    return _cost(text, schema=_docs_schema())


def test_docs_example_costs_51_points() -> None:
    report = _docs(100, 50, 60)
    assert report.requests == 1 + 100 + 5_000
    assert report.cost == 51
    assert report.node_count == 100 + 100 * 50 + 100 * 50 * 60


@pytest.mark.parametrize(("requests", "points"), [(0, 1), (49, 1), (149, 1), (150, 2), (5101, 51)])
def test_points_round_half_up_with_minimum_one(requests: int, points: int) -> None:
    assert points_for(requests) == points


def test_rate_limit_only_query_costs_one_point() -> None:
    report = _cost("{ rateLimit { cost limit remaining used resetAt nodeCount } }")
    assert (report.requests, report.cost, report.node_count) == (0, 1, 0)


def test_25_alias_primary_key_batch_costs_one_point() -> None:
    aliases = "\n".join(
        f'pr{i}: repository(owner: "acme", name: "todo") {{ pullRequest(number: {i + 1}) '
        "{ title state headRefOid } }"
        for i in range(25)
    )
    report = _cost("{ " + aliases + " }")
    assert (report.requests, report.cost, report.node_count) == (0, 1, 0)


@pytest.mark.parametrize("sessions", [1, 5, 15, 25])
@pytest.mark.parametrize("contexts", [20, 100])
def test_ao_batch_query_costs_one_point(sessions: int, contexts: int) -> None:
    query, variables = batch_query([("acme", "todo", n + 1) for n in range(sessions)], contexts)
    report = _cost(query, variables)
    # Per PR: reviews(last: 5), commits(last: 1) and contexts under one commit.
    assert report.requests == 3 * sessions
    assert report.cost == 1
    assert report.node_count == sessions * (5 + 1 + contexts)


def test_review_threads_query_costs_one_point() -> None:
    report = _cost(REVIEW_THREADS_QUERY, {"owner": "acme", "name": "todo", "number": 1})
    # reviewThreads 1 + comments once per thread 100 + reviews 1.
    assert report.requests == 102
    assert report.cost == 1
    assert report.node_count == 100 + 100 + 20


def test_page_sizes_come_from_variables() -> None:
    query = """query($n: Int!) { repository(owner: "a", name: "b") {
        pullRequests(first: $n) { nodes { reviews(first: $n) { nodes { id } } } } } }"""
    assert _cost(query, {"n": 100}).requests == 101
    assert _cost(query, {"n": 10}).requests == 11


def test_fragments_count_once_per_use() -> None:
    query = """
    query { repository(owner: "a", name: "b") { ...prs } }
    fragment prs on Repository { pullRequests(first: 100) { nodes { ...reviews } } }
    fragment reviews on PullRequest { reviews(first: 100) { nodes { id } } }
    """
    report = _cost(query)
    assert report.requests == 101
    assert report.node_count == 100 + 100 * 100


def test_mutation_costs_one_point() -> None:
    query = """mutation { mergePullRequest(input: {pullRequestId: "PR_1"}) {
        pullRequest { reviews(first: 100) { nodes { comments: body } } } } }"""
    assert _cost(query).cost == 1


def _limit_types(query: str, schema: GraphQLSchema | None = None) -> list[object]:
    return [e["type"] for e in check_limits(_cost(query, schema=schema))]


def test_only_a_connection_that_lists_items_needs_a_page_size() -> None:
    listed = '{ repository(owner: "a", name: "b") { pullRequests { nodes { id } } } }'
    counted = '{ repository(owner: "a", name: "b") { pullRequests(states: OPEN) { totalCount } } }'
    assert _limit_types(listed) == ["MISSING_PAGINATION_BOUNDARIES"]
    assert _limit_types(counted) == []
    assert _docs(100, 100, 100).node_count == 1_010_100  # over the node limit (test_limits)


def test_the_two_rules_for_a_connection_without_a_page_size() -> None:
    """gh's shape: 100 PRs x 100 comments, each comment's 8 reaction groups asking
    ``users { totalCount }``. page-size: 1 + 100 requests; every-connection: + 10,000
    (a reaction group is a list, not a connection, so it multiplies nothing)."""
    query = (
        '{ repository(owner: "a", name: "b") { pullRequests(first: 100) { nodes {'
        " comments(first: 100) { nodes { reactionGroups { users { totalCount } } } } } } } }"
    )
    paged = _cost(query)
    every = _cost(query, rule="every-connection")
    assert (paged.requests, paged.cost) == (101, 1)
    assert (every.requests, every.cost) == (10_101, 101)
    assert paged.node_count == every.node_count == 100 + 100 * 100


_page = st.integers(min_value=1, max_value=100)


@settings(max_examples=60, deadline=None)
@given(repos=_page, issues=_page, labels=_page, grow=st.sampled_from(["repos", "issues", "labels"]))
def test_cost_is_at_least_one_and_monotone_in_page_sizes(
    repos: int, issues: int, labels: int, grow: str
) -> None:
    base = _docs(repos, issues, labels)
    sizes = {"repos": repos, "issues": issues, "labels": labels}
    sizes[grow] = min(100, sizes[grow] + 1)
    bigger = _docs(**sizes)
    assert base.cost >= 1
    assert base.requests == 1 + repos + repos * issues
    assert bigger.cost >= base.cost
    assert bigger.node_count >= base.node_count
