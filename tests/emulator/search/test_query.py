"""Search: the shared query language and GraphQL ``search`` (its cost, paging, other
search types and the issue filters), through the emulator core in-process (httpx over
``EmulatorTransport``). The store's search is in ``test_issues.py``, REST's in
``rest/test_search.py``; real gh over a socket is in ``test_gh_search.py``."""

from __future__ import annotations

from typing import Any

import httpx
from graphql import OperationDefinitionNode, parse
from graphql_queries import GH_ISSUE_SEARCH, GH_PR_SEARCH, HEAVY_SEARCH
from hypothesis import given, settings
from hypothesis import strategies as st
from search_helpers import NUMBERS_QUERY, found, graphql

from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.limits import check_limits
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.search import SearchProblem, parse_query


def test_graphql_search_costs_graphql_points_not_search_calls(
    search_world: Emulator, api: httpx.Client
) -> None:
    response = graphql(api, HEAVY_SEARCH, q="repo:acme/todo")
    body = response.json()["data"]
    # 1 search + 100 possible PRs x (labels + comments) = 201 requests -> 2 points.
    assert body["rateLimit"] == {"cost": 2, "nodeCount": 100 + 100 * 100 * 2}
    assert body["search"]["issueCount"] == 6
    assert response.headers["x-ratelimit-resource"] == "graphql"
    assert response.headers["x-ratelimit-used"] == "2"
    resources = api.get("/rate_limit").json()["resources"]
    assert resources["search"]["used"] == 0
    assert resources["graphql"]["used"] == 2
    entries = search_world.ledger_entries(resource="graphql")
    assert [(e.endpoint, e.cost) for e in entries] == [("Heavy", 2)]
    assert search_world.ledger_totals() == {"graphql": 2}  # /rate_limit is free


def test_gh_queries_cost_by_the_published_formula() -> None:
    schema = load_schema()

    def cost(query: str, variables: dict[str, Any]) -> tuple[int, int, int]:
        document = parse(query)
        operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
        report = analyze_cost(schema, document, operation, variables)
        assert check_limits(report) == []
        return report.requests, report.cost, report.node_count

    # PullRequestSearch: one connection, no nested ones.
    assert cost(GH_PR_SEARCH, {"q": "x", "limit": 30}) == (1, 1, 30)
    # IssueSearch: search(last: 30) + labels(first: 100) under each of its 30 nodes.
    assert cost(GH_ISSUE_SEARCH, {"query": "x", "limit": 30}) == (31, 1, 30 + 30 * 100)
    assert cost(GH_ISSUE_SEARCH, {"query": "x", "limit": 100}) == (101, 1, 100 + 100 * 100)
    assert cost(HEAVY_SEARCH, {"q": "x"}) == (201, 2, 20_100)
    # A search asks for a page size like every connection.
    unbounded = '{ search(query: "x", type: ISSUE) { nodes { __typename } } }'
    document = parse(unbounded)
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    report = analyze_cost(schema, document, operation, {})
    assert [e["type"] for e in check_limits(report)] == ["MISSING_PAGINATION_BOUNDARIES"]
    counted = parse('{ search(query: "x", type: ISSUE) { issueCount } }')
    operation = counted.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    assert check_limits(analyze_cost(schema, counted, operation, {})) == []


def test_last_without_before_pages_forward_as_gh_expects(
    search_world: Emulator, api: httpx.Client
) -> None:
    seen: list[str] = []
    after = None
    for _ in range(5):
        page = graphql(api, NUMBERS_QUERY, q="repo:acme/todo", last=4, after=after).json()
        search = page["data"]["search"]
        seen += [f"todo#{n['number']}" for n in search["nodes"]]
        if not search["pageInfo"]["hasNextPage"]:
            break
        after = search["pageInfo"]["endCursor"]
    assert seen == found(search_world, "repo:acme/todo")


def test_repository_user_and_discussion_searches(search_world: Emulator, api: httpx.Client) -> None:
    query = """query($q: String!, $type: SearchType!) { search(query: $q, type: $type, first: 10) {
      issueCount repositoryCount userCount discussionCount codeCount wikiCount
      edges { cursor node { __typename ... on Repository { nameWithOwner }
                            ... on User { login } } } } }"""
    repos = graphql(api, query, q="user:acme", type="REPOSITORY").json()["data"]["search"]
    assert repos["repositoryCount"] == 2 and repos["issueCount"] == 0
    assert [e["node"]["nameWithOwner"] for e in repos["edges"]] == ["acme/other", "acme/todo"]
    users = graphql(api, query, q="ali", type="USER").json()["data"]["search"]
    assert users["userCount"] == 1
    assert users["edges"][0]["node"] == {"__typename": "User", "login": "alice"}
    discussions = graphql(api, query, q="bug", type="DISCUSSION").json()["data"]["search"]
    assert discussions["discussionCount"] == 0 and discussions["edges"] == []


def test_issue_filters_are_applied(search_world: Emulator, api: httpx.Client) -> None:
    # gh's `issue list --author/--assignee/--mention` (IssueList, filterBy).
    query = """query($filters: IssueFilters) { repository(owner: "acme", name: "todo") {
      issues(first: 10, states: [OPEN, CLOSED], filterBy: $filters) { nodes { number } } } }"""

    def numbers(**filters: Any) -> list[int]:
        data = graphql(api, query, filters=filters).json()["data"]
        return [n["number"] for n in data["repository"]["issues"]["nodes"]]

    assert numbers() == [1, 4, 6]
    assert numbers(createdBy="ALICE") == [4]
    assert numbers(mentioned="alice") == [4]
    assert numbers(assignee="octo") == []
    assert numbers(labels=["BUG"]) == [1]
    assert numbers(milestone="none") == [1, 4, 6]
    assert numbers(viewerSubscribed=True) == [1]
    assert numbers(since="2999-01-01T00:00:00Z") == []
    assert numbers(since="2000-01-01T00:00:00Z") == [1, 4, 6]


def test_labels_from_the_control_api_and_rest(search_world: Emulator, api: httpx.Client) -> None:
    set_labels = api.post(
        "/_ghbench/repos/acme/todo/labels", json={"number": 3, "labels": ["docs"]}
    )
    assert set_labels.status_code == 200
    created = api.post(
        "/_ghbench/repos/acme/todo/pulls",
        json={"head": "feat/more", "title": "More docs", "labels": ["docs"]},
    )
    assert created.json() == {"number": 7}
    patched = api.patch("/repos/acme/todo/issues/2", json={"labels": [{"name": "docs"}]})
    assert [x["name"] for x in patched.json()["labels"]] == ["docs"]
    assert found(search_world, "label:docs") == ["todo#7", "todo#3", "todo#2"]
    closed = api.patch("/repos/acme/todo/issues/7", json={"state": "closed"})
    assert closed.json()["state"] == "closed"
    assert found(search_world, "label:docs is:closed") == ["todo#7"]
    assert api.patch("/repos/acme/todo/issues/5", json={"state": "open"}).status_code == 422


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["(", ")", " ", "NOT ", "AND ", "OR ", "bug", "is:open", '"', "-"]),
        max_size=400,
    ).map("".join)
)
def test_any_query_parses_or_is_refused(q: str) -> None:
    try:
        parsed = parse_query(q)
    except SearchProblem:
        return
    assert parsed.text_length <= 256 and parsed.operators <= 5
