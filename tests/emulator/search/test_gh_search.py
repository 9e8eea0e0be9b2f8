"""Real gh (2.23 and 2.102) over a socket: the list commands that become a GraphQL
``search``.

``pr list --author/--label/--search/--draft/--app`` send ``PullRequestSearch``;
``issue list --label/--search/--milestone`` send ``IssueSearch`` (``issue list
--author/--assignee/--mention`` alone send ``IssueList`` with ``filterBy``). gh 2.102
first asks which search types exist (``SearchType_enumValues``, once: gh caches it)
and, finding ``ISSUE_ADVANCED``, searches with it; its queries cost what 2.23's do.
Each test checks the listed numbers, that every ledger entry costs what the published
formula gives for gh's exact query, and that gh's headers and ``rateLimit`` equal the
ledger.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gh_helpers import assert_ledger_matches_gh, gh, ok, rows
from graphql import OperationDefinitionNode, parse
from graphql_queries import GH_ISSUE_SEARCH, GH_PR_SEARCH, HEAVY_SEARCH

from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.schema import load_schema
from tools import GhBuild

pytestmark = pytest.mark.gh

REPO = "acme/todo"
# what gh asks before its first search: nothing (2.23), or the search types (2.102)
DETECTION = {"2.23.0": [], "2.102.0": [("SearchType_enumValues", 1)]}


def formula_cost(query: str, variables: dict[str, Any]) -> int:
    document = parse(query)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    return analyze_cost(load_schema(), document, operation, variables).cost


def charges(server: Any) -> list[tuple[str, int]]:
    return [(e.endpoint, e.cost) for e in server.emulator.ledger_entries(resource="graphql")]


def numbers(output: str) -> list[int]:
    return [int(row[0]) for row in rows(output)]


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    """acme/todo, a minute apart: 1 issue "Bug one" (octo, bug); 2 PR "Fix the parser"
    (alice, bug+ui); 3 draft PR "Docs" (octo); 4 issue "Feature two" (alice, "fix
    needed, cc @alice"); 5 merged PR "Prefix handling" (octo); 6 closed issue "Old bug"
    (bob, bug)."""
    emu = emulator_server.emulator
    store = emu.store
    emu.create_issue(REPO, "Bug one", body="crash", author="octo", labels=["bug"])
    emu.advance_clock(60)
    emu.create_pull(
        REPO, "feat/parser", title="Fix the parser", author="alice", labels=["bug", "ui"]
    )
    emu.advance_clock(60)
    emu.create_pull(REPO, "feat/docs", title="Docs", author="octo", draft=True)
    emu.advance_clock(60)
    emu.create_issue(REPO, "Feature two", body="fix needed, cc @alice", author="alice")
    emu.advance_clock(60)
    emu.create_pull(REPO, "feat/prefix", title="Prefix handling", author="octo")
    repo = store.repo("acme", "todo")
    with emu.lock, emu.db.transaction():
        store.merge_pull(store.pull(repo, 5), store.user("octo"))
    emu.advance_clock(60)
    emu.create_issue(REPO, "Old bug", author="bob", labels=["bug"])
    with emu.lock, emu.db.transaction():
        store.set_issue_state(store.issue(repo, 6), "closed", "completed")
    emu.advance_clock(60)
    return emulator_server


@pytest.mark.slow
def test_gh_pr_list_by_author_label_search_draft_and_app(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    def listed(*flags: str) -> list[int]:
        return numbers(ok(gh_env, "pr", "list", "--repo", REPO, *flags))

    assert listed("--author", "alice") == [2]
    assert listed("--label", "bug") == [2]
    assert listed("--label", "BUG", "--label", "ui") == [2]
    assert listed("--search", "parser") == [2]
    assert listed("--search", "prefix in:title", "--state", "all") == [5]
    assert listed("--draft") == [3]
    assert listed("--author", "octo", "--state", "merged") == [5]
    assert listed("--author", "octo", "--state", "all") == [5, 3]
    assert listed("--app", "dependabot") == []
    row = rows(ok(gh_env, "pr", "list", "--repo", REPO, "--author", "alice"))[0]
    assert row[1:4] == ["Fix the parser", "feat/parser", "OPEN"]
    as_json = json.loads(
        ok(gh_env, "pr", "list", "--repo", REPO, "--label", "ui", "--json", "number,labels")
    )
    assert as_json == [
        {
            "number": 2,
            "labels": [
                {  # one of GitHub's default labels
                    "id": as_json[0]["labels"][0]["id"],
                    "name": "bug",
                    "description": "Something isn't working",
                    "color": "d73a4a",
                },
                {
                    "id": as_json[0]["labels"][1]["id"],
                    "name": "ui",
                    "description": "",
                    "color": "ededed",
                },
            ],
        }
    ]
    # search(first: 30) and no nested connection: 1 request, so 1 point per call.
    cost = formula_cost(GH_PR_SEARCH, {"q": "x", "limit": 30})
    assert cost == 1
    assert charges(seeded) == DETECTION[gh_build.version] + [("PullRequestSearch", cost)] * 11
    assert_ledger_matches_gh(gh_env, seeded)


@pytest.mark.slow
def test_gh_issue_list_by_label_author_and_search(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    def listed(*flags: str) -> list[int]:
        return numbers(ok(gh_env, "issue", "list", "--repo", REPO, *flags))

    assert listed("--label", "bug") == [1]
    assert listed("--label", "bug", "--state", "all") == [6, 1]
    assert listed("--label", "bug", "--author", "bob", "--state", "all") == [6]
    assert listed("--search", "fix") == [4]  # the body; "Fix the parser" is a PR
    assert listed("--search", "bug in:title", "--state", "closed") == [6]
    assert listed("--search", "label:ui") == []
    row = rows(ok(gh_env, "issue", "list", "--repo", REPO, "--label", "bug"))[0]
    assert row[1:4] == ["OPEN", "Bug one", "bug"]
    # --author/--mention alone: IssueList with filterBy, not a search.
    assert listed("--author", "alice") == [4]
    assert listed("--author", "bob", "--state", "all") == [6]
    assert listed("--mention", "alice") == [4]
    assert listed("--author", "nobody") == []
    # search(last: 30) + labels(first: 100) under each node: 31 requests, 1 point.
    search_cost = formula_cost(GH_ISSUE_SEARCH, {"query": "x", "limit": 30})
    assert search_cost == 1
    searches = [("IssueSearch", search_cost)] * 7 + [("IssueList", 1)] * 4
    assert charges(seeded) == DETECTION[gh_build.version] + searches
    assert_ledger_matches_gh(gh_env, seeded)


def test_gh_pages_through_a_search_with_a_large_limit(
    gh_env: dict[str, str], emulator_server: Any, gh_build: GhBuild
) -> None:
    emu = emulator_server.emulator
    store = emu.store
    repo = store.repo("acme", "todo")
    with emu.lock, emu.db.transaction():
        octo = store.ensure_user("octo")
        for n in range(105):
            store.create_issue(repo, octo, f"Task {n}", labels=["bulk"])
            pull = store.create_pull(
                repo, octo, f"Change {n}", f"feat/{n}", "main", create_head=True
            )
            store.update_pull(pull, labels=["bulk"])
    issues = numbers(ok(gh_env, "issue", "list", "--repo", REPO, "--label", "bulk", "-L", "150"))
    assert issues == list(range(209, 0, -2))  # newest first; issues are the odd numbers
    pulls = numbers(ok(gh_env, "pr", "list", "--repo", REPO, "--label", "bulk", "-L", "150"))
    assert pulls == list(range(210, 0, -2))
    # gh asks for 100, then the rest after the cursor: IssueSearch keeps last: 100
    # (1 + 100 label connections = 101 requests), PullRequestSearch asks first: 50.
    assert charges(emulator_server) == [
        *DETECTION[gh_build.version],
        ("IssueSearch", formula_cost(GH_ISSUE_SEARCH, {"query": "x", "limit": 100})),
        ("IssueSearch", formula_cost(GH_ISSUE_SEARCH, {"query": "x", "limit": 100})),
        ("PullRequestSearch", formula_cost(GH_PR_SEARCH, {"q": "x", "limit": 100})),
        ("PullRequestSearch", formula_cost(GH_PR_SEARCH, {"q": "x", "limit": 50})),
    ]
    assert_ledger_matches_gh(gh_env, emulator_server)


def test_rest_and_graphql_search_agree_through_gh(gh_env: dict[str, str], seeded: Any) -> None:
    numbers_query = (
        "query($q: String!) { search(query: $q, type: ISSUE, first: 100) { issueCount "
        "nodes { ... on Issue { number } ... on PullRequest { number } } } }"
    )
    for q in ("repo:acme/todo label:bug", "repo:acme/todo is:pr OR author:bob", "fix"):
        rest = json.loads(ok(gh_env, "api", "-X", "GET", "search/issues", "-f", f"q={q}"))
        graph = json.loads(
            ok(gh_env, "api", "graphql", "-f", f"query={numbers_query}", "-f", f"q={q}")
        )["data"]["search"]
        assert graph["issueCount"] == rest["total_count"]
        assert [n["number"] for n in graph["nodes"]] == [i["number"] for i in rest["items"]]
    ledger = seeded.emulator.ledger_totals()
    assert ledger == {"search": 3, "graphql": 3}  # REST: the search bucket; GraphQL: points
    # A heavier search by the formula: 1 + 100 x 2 nested connections = 201 -> 2 points.
    out = ok(
        gh_env, "api", "-i", "graphql", "-f", f"query={HEAVY_SEARCH}", "-f", "q=repo:acme/todo"
    )
    head, _, body = out.partition("\n\n")
    assert "X-Ratelimit-Resource: graphql" in head.splitlines()
    assert json.loads(body)["data"]["rateLimit"]["cost"] == 2
    assert charges(seeded)[-1] == ("Heavy", formula_cost(HEAVY_SEARCH, {"q": "x"})) == ("Heavy", 2)
    refused = gh(gh_env, "api", "-X", "GET", "search/issues", "-f", "q=author:nobody")
    assert refused.returncode == 1
    assert "The listed users cannot be searched" in refused.stderr + refused.stdout
    assert_ledger_matches_gh(gh_env, seeded)
