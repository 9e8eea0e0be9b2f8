"""GitHub's published GraphQL cost formula, read from a request (``ghbench.trace.graphql_cost``).

Held to the docs' own example, to gh's real queries against the emulator's schema-based
count of the same rule, and to GitHub's schema: the estimator treats a field with
``first``/``last`` as a connection, which holds only if GitHub puts those arguments on
connections alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from graphql import (
    InterfaceTypeDefinitionNode,
    NamedTypeNode,
    ObjectTypeDefinitionNode,
    parse,
)

from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.schema import load_schema
from ghbench.record.rows import graphql_cost_estimate
from ghbench.trace.graphql_cost import NOT_CONNECTIONS, estimate_graphql_cost, points_for

sys.path.append(str(Path(__file__).resolve().parents[1] / "emulator"))
from github_descriptions import graphql_sdl

DOCS_EXAMPLE = """
query {
  viewer {
    repositories(first: 100) {
      nodes { issues(first: 50) { nodes { labels(first: 60) { nodes { name } } } } }
    }
  }
}
"""

GH_QUERIES = [
    # gh 2.23's pr view fragment, reduced: comments, reviews, checks
    """query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) {
      repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) {
        id number state title body
        comments(first: 100) { nodes { body reactionGroups { users { totalCount } } } }
        reviews(first: 100) { nodes { state } }
        commits(last: 1) { nodes { commit { statusCheckRollup {
          contexts(first: 100) { nodes { __typename } } } } } }
      } } }""",
    """query PullRequestList($owner: String!, $repo: String!, $limit: Int!) {
      repository(owner: $owner, name: $repo) {
        pullRequests(first: $limit, states: OPEN) { totalCount nodes { number title } }
      } }""",
    """fragment f on PullRequest { labels(first: 30) { nodes { name } } }
    query Q { repository(owner: "acme", name: "todo") {
      pullRequests(first: 50) { nodes { ...f } } } }""",
]


def test_the_docs_example_is_51_points() -> None:
    assert estimate_graphql_cost(DOCS_EXAMPLE) == 51  # 1 + 100 + 5,000 = 5,101 requests


def test_rounding_mutations_variables_and_unreadable_requests() -> None:
    assert [points_for(n) for n in (0, 1, 49, 50, 149, 150, 5101)] == [1, 1, 1, 1, 1, 2, 51]
    assert estimate_graphql_cost("mutation { addComment(input: {}) { clientMutationId } }") == 1
    query = "query($n: Int = 10) { viewer { repositories(first: $n) { nodes { name } } } }"
    assert estimate_graphql_cost(query) == 1
    assert estimate_graphql_cost(query.replace("first: $n", "first: 100") + " ") == 1
    assert estimate_graphql_cost("{ viewer { login } }") == 1
    assert estimate_graphql_cost("not graphql {") is None
    assert estimate_graphql_cost("query A { a } query B { b }") is None  # which one?
    assert estimate_graphql_cost("query A { a } query B { b }", operation_name="B") == 1


def test_gh_logged_requests_are_read_in_both_forms() -> None:
    logged = 'GraphQL query:\nquery { viewer { login } }\nGraphQL variables: {"a":1}'
    assert graphql_cost_estimate(logged) == 1
    assert graphql_cost_estimate('{"query": "{ viewer { login } }"}') == 1
    assert graphql_cost_estimate("GraphQL query:\nquery { viewer {") is None  # cut short


@pytest.mark.parametrize("query", GH_QUERIES)
def test_equals_the_emulators_schema_based_count(query: str) -> None:
    schema = load_schema()
    document = parse(query)
    (operation,) = [d for d in document.definitions if d.kind == "operation_definition"]
    variables = {"owner": "acme", "repo": "todo", "pr_number": 1, "limit": 100}
    expected = analyze_cost(schema, document, operation, variables).cost  # type: ignore[arg-type]
    assert estimate_graphql_cost(query, variables) == expected


def _named(type_node: object) -> str:
    while not isinstance(type_node, NamedTypeNode):
        type_node = type_node.type  # type: ignore[attr-defined]
    return type_node.name.value


def test_github_puts_first_and_last_on_connections_only_but_the_known_lists() -> None:
    document = parse(graphql_sdl(), no_location=True)
    offenders = [
        f"{definition.name.value}.{field.name.value}"
        for definition in document.definitions
        if isinstance(definition, ObjectTypeDefinitionNode | InterfaceTypeDefinitionNode)
        for field in definition.fields or ()
        if {"first", "last"} & {a.name.value for a in field.arguments or ()}
        and not _named(field.type).endswith("Connection")
    ]
    assert {o.split(".")[1] for o in offenders} == NOT_CONNECTIONS
    assert estimate_graphql_cost('{ topic(name: "x") { relatedTopics(first: 100) { name } } }') == 1
