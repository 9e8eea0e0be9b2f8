"""Search: the shared query language, REST ``/search/issues`` and GraphQL ``search``.

The language is tested on the store; REST and GraphQL go through the emulator core
in-process (httpx over ``EmulatorTransport``), including a check that both answer the
same query alike. Real gh over a socket is in ``test_gh_search.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from graphql import OperationDefinitionNode, parse
from graphql_queries import GH_ISSUE_SEARCH, GH_PR_SEARCH, HEAVY_SEARCH
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.limits import check_limits
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.search import SearchProblem, parse_query, search_issues
from ghbench.emulator.search.query import (
    INVALID_SYNTAX,
    TOO_LONG,
    TOO_MANY_OPERATORS,
    UNSEARCHABLE_REPOS,
    UNSEARCHABLE_USERS,
)

NUMBERS_QUERY = """query Numbers($q: String!, $first: Int, $last: Int, $after: String) {
  search(query: $q, type: ISSUE, first: $first, last: $last, after: $after) {
    issueCount
    nodes { __typename ... on Issue { number repository { nameWithOwner } }
            ... on PullRequest { number repository { nameWithOwner } } }
    pageInfo { hasNextPage endCursor }
  }
}"""


@pytest.fixture
def world(emulator: Emulator) -> Emulator:
    """Issues and PRs a minute apart (creation order = number order within a repo).

    acme/todo: 1 issue "Bug one" (octo, bug); 2 PR "Fix the parser" (alice, bug+ui,
    failing CI, approved by bob, bob comments "@octo please look"); 3 draft PR "Docs"
    (octo); 4 issue "Feature two" (alice, body mentions @alice); 5 merged PR "Prefix
    handling" (octo, success CI); 6 issue "Old idea" (bob, closed not planned).
    acme/other: 1 issue "Bug elsewhere" (octo, label "Bug"). bob/tools: 1 PR "Tooling".
    """
    emu = emulator
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


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("repo:acme/todo", ["todo#6", "todo#5", "todo#4", "todo#3", "todo#2", "todo#1"]),
        ("repo:acme/todo is:pr", ["todo#5", "todo#3", "todo#2"]),
        ("repo:acme/todo type:issue state:closed", ["todo#6"]),
        ("repo:acme/todo is:pr is:open", ["todo#3", "todo#2"]),
        ("repo:acme/todo is:merged", ["todo#5"]),
        ("repo:acme/todo is:unmerged", ["todo#3", "todo#2"]),
        ("repo:acme/todo draft:true", ["todo#3"]),
        ("repo:acme/todo is:pr draft:false", ["todo#5", "todo#2"]),
        ("author:alice", ["todo#4", "todo#2"]),
        ("author:@me type:pr", ["todo#5", "todo#3"]),
        ("label:bug", ["other#1", "todo#2", "todo#1"]),  # names compare case-insensitively
        ("label:bug label:ui", ["todo#2"]),  # repeated label: both
        ("label:ui,Bug repo:acme/todo", ["todo#2", "todo#1"]),  # a comma: either
        ("-label:bug repo:acme/todo", ["todo#6", "todo#5", "todo#4", "todo#3"]),
        ("no:label user:acme", ["todo#6", "todo#5", "todo#4", "todo#3"]),
        ("org:bob", ["tools#1"]),
        ("repo:acme/other repo:bob/tools", ["tools#1", "other#1"]),  # repeated scope: either
        ("status:failure", ["todo#2"]),
        ("status:success", ["todo#5"]),
        ("review:approved", ["todo#2"]),
        ("review:none is:pr", ["tools#1", "todo#5", "todo#3"]),
        ("reviewed-by:bob", ["todo#2"]),
        ("commenter:bob", ["todo#2"]),
        ("mentions:octo", ["todo#2"]),  # in a comment
        ("involves:alice", ["todo#4", "todo#2"]),  # author, or mentioned in the body
        ("reason:not_planned", ["todo#6"]),
        ('reason:"not planned"', ["todo#6"]),
        ("head:feat/docs", ["todo#3"]),
        ("base:main repo:bob/tools", ["tools#1"]),
        ("comments:>0", ["todo#2"]),
        ("comments:0 repo:acme/other", ["other#1"]),
        # Words: at a word start, in the title, body or comments; in: narrows.
        ("fix", ["todo#2"]),
        ("fix in:body", []),
        ("crash", ["todo#1"]),
        ("crash in:title", []),
        ("please in:comments", ["todo#2"]),
        ('"the parser"', ["todo#2"]),
        ("refix", []),
        # Not modelled, so nothing carries them (and their negations match all).
        ("assignee:octo", []),
        ("milestone:v1", []),
        ("review-requested:octo", []),
        ("-assignee:octo repo:acme/other", ["other#1"]),
        ("no:assignee repo:acme/other", ["other#1"]),
        # A key GitHub does not have is plain text.
        ("foo:bar", []),
        ("stars:>5 repo:acme/other", []),  # a repository qualifier: text in issue search
        ("-stars:>5 repo:acme/other", ["other#1"]),
    ],
)
def test_qualifiers_match_like_github(world: Emulator, query: str, expected: list[str]) -> None:
    assert found(world, query) == expected


def test_boolean_operators_and_grouping(world: Emulator) -> None:
    # OR binds loosest: the repository stays on the left (cli/cli#11774's reading).
    assert found(world, "repo:bob/tools is:pr OR label:ui") == ["tools#1", "todo#2"]
    assert found(world, "repo:acme/todo (author:bob OR author:alice) is:issue") == [
        "todo#6",
        "todo#4",
    ]
    assert found(world, "repo:acme/todo NOT bug") == found(world, "repo:acme/todo -bug")
    assert found(world, "repo:acme/todo author:alice AND is:pr") == ["todo#2"]
    assert found(world, "author:alice author:bob is:issue") == ["todo#6", "todo#4"]
    assert found(world, "-author:octo -author:alice") == ["tools#1", "todo#6"]


def test_dates_sorting_and_the_merged_date(world: Emulator) -> None:
    store = world.store
    repo = store.repo("acme", "todo")
    assert repo is not None
    first = store.issue(repo, 1)
    assert first is not None
    start = first.created_at
    day = datetime.fromtimestamp(start, UTC)
    date = day.strftime("%Y-%m-%d")
    assert len(found(world, f"created:{date}")) == 8
    assert found(world, f"created:<{date}") == []
    assert found(world, f"created:>={date} is:merged") == ["todo#5"]
    assert found(world, f"merged:{date}") == ["todo#5"]
    assert found(world, f"closed:{date}..*") == ["todo#6", "todo#5"]
    stamp = day.strftime("%Y-%m-%dT%H:%M:%S")
    assert found(world, f"repo:acme/todo created:<={stamp}") == ["todo#1"]
    assert found(world, "repo:acme/todo sort:created-asc")[:2] == ["todo#1", "todo#2"]
    assert found(world, "repo:acme/todo sort:comments")[0] == "todo#2"
    # REST's sort/order win over the qualifier.
    assert found(world, "repo:acme/todo sort:created-asc", sort="created")[0] == "todo#6"
    assert found(world, "repo:acme/todo", sort="updated", order="asc")[0] == "todo#1"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("is:open (", INVALID_SYNTAX),
        ("is:open )", INVALID_SYNTAX),
        ("bug OR", INVALID_SYNTAX),
        ("AND bug", INVALID_SYNTAX),
        ("bug NOT", INVALID_SYNTAX),
        ("()", INVALID_SYNTAX),
        ("x" * 257, TOO_LONG),
        ("a OR b OR c OR d OR e OR f OR g", TOO_MANY_OPERATORS),
        # issue 12 case 9: these were RecursionErrors (a 500); parentheses count as text
        ("(" * 1000 + "bug" + ")" * 1000, TOO_LONG),
        ("NOT " * 2000 + "bug", TOO_MANY_OPERATORS),
        ("(" * 253 + "bug", INVALID_SYNTAX),  # 256 characters: parsed, then refused
        ("repo:nobody/nothing", UNSEARCHABLE_REPOS),
        ("user:nobody bug", UNSEARCHABLE_REPOS),
        ("author:nobody", UNSEARCHABLE_USERS),
        ("assignee:nobody is:open", UNSEARCHABLE_USERS),
    ],
)
def test_what_github_refuses(world: Emulator, query: str, message: str) -> None:
    with pytest.raises(SearchProblem) as refused:
        found(world, query)
    assert refused.value.message == message


def test_one_existing_name_is_enough(world: Emulator) -> None:
    # Measured on github.com: unknown repositories/users beside a known one are ignored.
    assert found(world, "repo:nobody/nothing repo:bob/tools") == ["tools#1"]
    assert found(world, "author:nobody author:alice is:pr") == ["todo#2"]
    assert found(world, "x" * 256) == []  # 256 characters of text are allowed
    assert found(world, "repo:acme/todo " + "label:bug " * 40) == ["todo#2", "todo#1"]


# -- REST and GraphQL -----------------------------------------------------------------
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
def test_rest_and_graphql_agree(world: Emulator, api: httpx.Client, query: str) -> None:
    rest = rest_numbers(api, query, per_page=100)
    assert rest == graphql_numbers(api, query)
    assert rest[1] == found(world, query)


def test_rest_answers_githubs_422s_and_graphql_an_empty_result(
    world: Emulator, api: httpx.Client
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


def test_graphql_search_costs_graphql_points_not_search_calls(
    world: Emulator, api: httpx.Client
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
    entries = world.ledger_entries(resource="graphql")
    assert [(e.endpoint, e.cost) for e in entries] == [("Heavy", 2)]
    assert world.ledger_totals() == {"graphql": 2}  # /rate_limit is free


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
    world: Emulator, api: httpx.Client
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
    assert seen == found(world, "repo:acme/todo")


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


def test_repository_user_and_discussion_searches(world: Emulator, api: httpx.Client) -> None:
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


def test_issue_filters_are_applied(world: Emulator, api: httpx.Client) -> None:
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


def test_labels_from_the_control_api_and_rest(world: Emulator, api: httpx.Client) -> None:
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
    assert found(world, "label:docs") == ["todo#7", "todo#3", "todo#2"]
    closed = api.patch("/repos/acme/todo/issues/7", json={"state": "closed"})
    assert closed.json()["state"] == "closed"
    assert found(world, "label:docs is:closed") == ["todo#7"]
    assert api.patch("/repos/acme/todo/issues/5", json={"state": "open"}).status_code == 422


@pytest.mark.parametrize(
    ("q", "message"),
    [
        ("(" * 1000 + "bug" + ")" * 1000, TOO_LONG),
        ("NOT " * 2000 + "bug", TOO_MANY_OPERATORS),
    ],
)
def test_deep_queries_are_githubs_422_over_rest_and_empty_over_graphql(
    world: Emulator, api: httpx.Client, q: str, message: str
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


def test_locks_reactions_and_closing_links(world: Emulator) -> None:
    store = world.store
    repo = store.get_repo("acme", "todo")
    issue = store.issue(repo, 1)
    assert issue is not None
    assert found(world, "repo:acme/todo is:locked") == []
    store.set_locked(issue, True, "resolved")
    store.react(repo.id, issue.node_id, store.ensure_user("bob"), "+1")
    assert found(world, "repo:acme/todo is:locked") == ["todo#1"]
    assert "todo#1" not in found(world, "repo:acme/todo is:unlocked")
    assert found(world, "repo:acme/todo reactions:>0") == ["todo#1"]
    assert found(world, "repo:acme/todo is:issue interactions:>=1") == ["todo#1"]
    assert found(world, "repo:acme/todo linked:issue") == []
    world.create_pull("acme/todo", "feat/fix", title="Fix", body="Closes #1", author="octo")
    assert found(world, "repo:acme/todo linked:issue") == ["todo#7"]
    assert found(world, "repo:acme/todo linked:pr") == ["todo#1"]
