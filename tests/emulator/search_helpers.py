"""Search tests' shared world and helpers (a unique module name: never shadowed).

``build_world`` fills an emulator with issues and pull requests the search tests query
(the ``search_world`` fixture); ``found`` asks the store's search, ``rest_numbers`` and
``graphql_numbers`` ask REST and GraphQL, each answering ``repo#number`` names.
"""

from __future__ import annotations

from typing import Any

import httpx

from ghbench.emulator.core import Emulator
from ghbench.emulator.search import search_issues

NUMBERS_QUERY = """query Numbers($q: String!, $first: Int, $last: Int, $after: String) {
  search(query: $q, type: ISSUE, first: $first, last: $last, after: $after) {
    issueCount
    nodes { __typename ... on Issue { number repository { nameWithOwner } }
            ... on PullRequest { number repository { nameWithOwner } } }
    pageInfo { hasNextPage endCursor }
  }
}"""


def build_world(emu: Emulator) -> Emulator:
    """Issues and PRs a minute apart (creation order = number order within a repo).

    acme/todo: 1 issue "Bug one" (octo, bug); 2 PR "Fix the parser" (alice, bug+ui,
    failing CI, approved by bob, bob comments "@octo please look"); 3 draft PR "Docs"
    (octo); 4 issue "Feature two" (alice, body mentions @alice); 5 merged PR "Prefix
    handling" (octo, success CI); 6 issue "Old idea" (bob, closed not planned).
    acme/other: 1 issue "Bug elsewhere" (octo, label "Bug"). bob/tools: 1 PR "Tooling".
    """
    store = emu.store

    def tick() -> None:
        emu.advance_clock(60)

    emu.create_repo("acme/other")
    emu.create_repo("bob/tools")
    emu.create_issue("acme/todo", "Bug one", body="crash on start", author="octo", labels=["bug"])
    tick()
    emu.create_pull(
        "acme/todo", "feat/parser", title="Fix the parser", author="alice", labels=["bug", "ui"]
    )
    emu.set_ci("acme/todo", "failure", pr=2)
    repo = store.repo("acme", "todo")
    assert repo is not None
    pull = store.pull(repo, 2)
    assert pull is not None
    store.add_review(pull, store.ensure_user("bob"), "APPROVED", body="ok")
    store.add_issue_comment(repo, 2, store.ensure_user("bob"), "@octo please look")
    tick()
    emu.create_pull("acme/todo", "feat/docs", title="Docs", author="octo", draft=True)
    tick()
    emu.create_issue("acme/todo", "Feature two", body="cc @alice", author="alice")
    tick()
    emu.create_pull("acme/todo", "feat/prefix", title="Prefix handling", author="octo")
    emu.set_ci("acme/todo", "success", pr=5)
    merged = store.pull(repo, 5)
    assert merged is not None
    store.merge_pull(merged, store.ensure_user("octo"))
    tick()
    emu.create_issue("acme/todo", "Old idea", author="bob")
    old = store.issue(repo, 6)
    assert old is not None
    store.set_issue_state(old, "closed", "not_planned")
    tick()
    emu.create_issue("acme/other", "Bug elsewhere", author="octo", labels=["Bug"])
    tick()
    emu.create_pull("bob/tools", "feat/tools", title="Tooling", author="bob")
    return emu


def found(emu: Emulator, query: str, **kwargs: Any) -> list[str]:
    viewer = emu.store.user("octo")
    hits = search_issues(emu.store, query, viewer, **kwargs)
    return [f"{emu.store.repos[i.repo_id].name}#{i.number}" for i in hits]


def graphql(api: httpx.Client, query: str, **variables: Any) -> httpx.Response:
    return api.post("/graphql", json={"query": query, "variables": variables})


def rest_numbers(api: httpx.Client, q: str, **params: Any) -> tuple[int, list[str]]:
    response = api.get("/search/issues", params={"q": q, **params})
    assert response.status_code == 200, response.text
    body = response.json()
    names = [f"{i['repository_url'].rsplit('/', 1)[1]}#{i['number']}" for i in body["items"]]
    return body["total_count"], names


def graphql_numbers(api: httpx.Client, q: str) -> tuple[int, list[str]]:
    data = graphql(api, NUMBERS_QUERY, q=q, first=100).json()["data"]["search"]
    names = [
        f"{n['repository']['nameWithOwner'].split('/')[1]}#{n['number']}" for n in data["nodes"]
    ]
    return data["issueCount"], names
