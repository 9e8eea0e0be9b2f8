"""REST ``GET /search/issues`` through the emulator core in-process: the same answers as
the store's search and GraphQL's ``search``, GitHub's 422s, and the 1,000-result cap."""

from __future__ import annotations

import httpx
import pytest
from search_helpers import NUMBERS_QUERY, found, graphql, graphql_numbers, rest_numbers

from ghbench.emulator.core import Emulator
from ghbench.emulator.search.query import (
    INVALID_SYNTAX,
    TOO_LONG,
    TOO_MANY_OPERATORS,
    UNSEARCHABLE_USERS,
)


@pytest.mark.parametrize(
    "query",
    [
        "repo:acme/todo",
        "repo:acme/todo is:pr is:open",
        "label:bug",
        "author:alice OR author:bob",
        "fix OR crash",
        "repo:acme/todo sort:created-asc",
        "-label:bug is:issue",
        "status:failure review:approved",
        "is:merged",
        "nothing-matches-this",
    ],
)
def test_rest_and_graphql_agree(search_world: Emulator, api: httpx.Client, query: str) -> None:
    rest = rest_numbers(api, query, per_page=100)
    assert rest == graphql_numbers(api, query)
    assert rest[1] == found(search_world, query)


def test_rest_answers_githubs_422s_and_graphql_an_empty_result(
    search_world: Emulator, api: httpx.Client
) -> None:
    refused = api.get("/search/issues", params={"q": "author:nobody"})
    assert refused.status_code == 422
    assert refused.json() == {
        "message": "Validation Failed",
        "errors": [
            {"message": UNSEARCHABLE_USERS, "resource": "Search", "field": "q", "code": "invalid"}
        ],
        "documentation_url": "https://docs.github.com/v3/search/",
    }
    assert refused.headers["x-ratelimit-resource"] == "search"
    assert api.get("/search/issues", params={"q": "is:open ("}).json()["errors"][0]["message"] == (
        INVALID_SYNTAX
    )
    empty = graphql(api, NUMBERS_QUERY, q="author:nobody", first=10)
    assert empty.json() == {
        "data": {
            "search": {
                "issueCount": 0,
                "nodes": [],
                "pageInfo": {"hasNextPage": False, "endCursor": None},
            }
        }
    }
    assert empty.headers["x-ratelimit-used"] == "1"  # charged like any query


def test_only_the_first_thousand_results_are_reachable(
    emulator: Emulator, api: httpx.Client
) -> None:
    with emulator.lock, emulator.db.transaction():
        repo = emulator.store.repo("acme", "todo")
        assert repo is not None
        octo = emulator.store.ensure_user("octo")
        for n in range(1005):
            emulator.store.create_issue(repo, octo, f"Task {n}")
    total, names = rest_numbers(api, "repo:acme/todo", per_page=100, page=10)
    assert total == 1005 and len(names) == 100
    assert names[-1] == "todo#6"  # newest first: #1005 ... #6 are the first 1,000
    beyond = api.get("/search/issues", params={"q": "repo:acme/todo", "per_page": 100, "page": 11})
    assert beyond.status_code == 422
    assert beyond.json()["message"] == "Only the first 1000 search results are available"
    # per_page 30: page 34 starts at result 991 and runs past 1,000, as on github.com.
    assert len(rest_numbers(api, "repo:acme/todo", per_page=30, page=34)[1]) == 15
    nodes = 0
    after = None
    while True:
        search = graphql(api, NUMBERS_QUERY, q="repo:acme/todo", first=100, after=after).json()[
            "data"
        ]["search"]
        assert search["issueCount"] == 1005
        nodes += len(search["nodes"])
        if not search["pageInfo"]["hasNextPage"]:
            break
        after = search["pageInfo"]["endCursor"]
    assert nodes == 1000


@pytest.mark.parametrize(
    ("q", "message"),
    [
        ("(" * 1000 + "bug" + ")" * 1000, TOO_LONG),
        ("NOT " * 2000 + "bug", TOO_MANY_OPERATORS),
    ],
)
def test_deep_queries_are_githubs_422_over_rest_and_empty_over_graphql(
    search_world: Emulator, api: httpx.Client, q: str, message: str
) -> None:
    """Issue 12 case 9: REST answered 500 (RecursionError), GraphQL "maximum recursion
    depth exceeded"; REST is now GitHub's 422, GraphQL an empty result as for any
    query GitHub's REST refuses."""
    rest = api.get("/search/issues", params={"q": q})
    assert rest.status_code == 422
    assert rest.json()["errors"] == [
        {"message": message, "resource": "Search", "field": "q", "code": "invalid"}
    ]
    query = "query($q: String!) { search(query: $q, type: ISSUE, first: 5) { issueCount } }"
    answer = graphql(api, query, q=q)
    assert answer.json() == {"data": {"search": {"issueCount": 0}}}
