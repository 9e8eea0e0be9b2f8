"""``Query.search`` as a connection: the type asked for is the only count, ``last``
without ``before`` pages forward (gh's IssueSearch), a query REST refuses finds nothing."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_SEARCH = """query($q: String!, $type: SearchType!, $last: Int, $after: String) {
  search(query: $q, type: $type, last: $last, after: $after) {
    issueCount repositoryCount userCount discussionCount
    nodes { __typename ... on Issue { number } ... on Repository { name } ... on User { login } }
    pageInfo { hasNextPage endCursor } } }"""


def _search(emulator: Emulator, query: str, kind: str, **page: Any) -> Any:
    return graphql(emulator, _SEARCH, q=query, type=kind, **page)["data"]["search"]


def test_issue_search_pages_forward_with_last_and_counts_only_issues(emulator: Emulator) -> None:
    for n in range(3):
        emulator.create_issue("acme/todo", f"bug {n}", author="octo")
    first = _search(emulator, "repo:acme/todo is:issue", "ISSUE", last=2)
    assert first["issueCount"] == 3
    assert (first["repositoryCount"], first["userCount"], first["discussionCount"]) == (0, 0, 0)
    assert len(first["nodes"]) == 2 and first["pageInfo"]["hasNextPage"]
    rest = _search(emulator, "repo:acme/todo is:issue", "ISSUE", last=2,
                   after=first["pageInfo"]["endCursor"])  # fmt: skip
    seen = {n["number"] for n in first["nodes"] + rest["nodes"]}
    assert seen == {1, 2, 3} and not rest["pageInfo"]["hasNextPage"]


def test_repositories_and_users_by_name(emulator: Emulator) -> None:
    repos = _search(emulator, "todo", "REPOSITORY", last=5)
    assert repos["repositoryCount"] == 1 and repos["nodes"] == [
        {"__typename": "Repository", "name": "todo"}
    ]
    users = _search(emulator, "octo", "USER", last=5)
    assert users["userCount"] == 1 and users["nodes"][0]["login"] == "octo"


def test_what_rest_would_refuse_and_discussions_find_nothing(emulator: Emulator) -> None:
    emulator.create_issue("acme/todo", "bug", author="octo")
    for query, kind in (("", "ISSUE"), ("author:ghost-nobody", "ISSUE"), ("bug", "DISCUSSION")):
        found = _search(emulator, query, kind, last=5)
        assert found["nodes"] == [] and found["issueCount"] == 0, query
