"""``POST /graphql`` (``handler.py``) through the emulator core in-process: its stages
answer as GitHub does (data, errors, limits, charging, the ledger)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from graphql_queries import REVIEW_THREADS_QUERY, batch_query

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest, EmuResponse

TOKEN = "ghp_graphqltest0000000000000000000000"


@pytest.fixture
def emu() -> Emulator:
    emulator = Emulator(clock=VirtualClock(), seed=7)
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    for n in range(25):
        number = emulator.create_pull("acme/todo", f"feat/{n}", title=f"Feature {n}", author="octo")
        emulator.set_ci("acme/todo", "success" if n % 2 else "pending", pr=number)
    emulator.create_issue("acme/todo", "A bug", body="details", author="octo")  # number 26
    return emulator


def post(emu: Emulator, query: str, variables: dict[str, Any] | None = None) -> EmuResponse:
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = EmuRequest.build(
        "POST", "http://api.github.localhost/graphql", {"Authorization": f"token {TOKEN}"}, body
    )
    return emu.handle(request)


def body_of(response: EmuResponse) -> dict[str, Any]:
    payload = response.json()
    assert isinstance(payload, dict)
    return payload


def used(response: EmuResponse) -> int:
    return int(response.headers["x-ratelimit-used"])


def test_rate_limit_reports_the_bucket_after_the_charge(emu: Emulator) -> None:
    response = post(emu, "{ rateLimit { cost limit remaining used resetAt nodeCount } }")
    rate = body_of(response)["data"]["rateLimit"]
    assert rate["cost"] == 1 and rate["nodeCount"] == 0
    assert (rate["limit"], rate["remaining"], rate["used"]) == (5000, 4999, 1)
    assert rate["resetAt"].endswith("Z")
    assert response.headers["x-ratelimit-resource"] == "graphql"
    assert used(response) == 1


def test_ao_batch_of_25_prs_costs_one_point_and_answers_every_alias(emu: Emulator) -> None:
    query, variables = batch_query([("acme", "todo", n) for n in range(1, 26)])
    response = post(emu, query, variables)
    payload = body_of(response)
    assert "errors" not in payload
    data = payload["data"]
    assert len(data) == 25
    pr = data["pr1"]["pullRequest"]
    assert pr["title"] == "Feature 1" and pr["state"] == "OPEN"
    rollup = pr["commits"]["nodes"][0]["commit"]["statusCheckRollup"]
    assert rollup["state"] == "SUCCESS"
    assert {n.get("name") or n.get("context") for n in rollup["contexts"]["nodes"]} == {"ci"}
    assert (
        data["pr0"]["pullRequest"]["commits"]["nodes"][0]["commit"]["statusCheckRollup"]["state"]
        == "PENDING"
    )
    assert used(response) == 1
    assert emu.ledger_totals(resource="graphql") == {"graphql": 1}


def test_review_threads_and_reviews(emu: Emulator) -> None:
    emu.add_review_comments("acme/todo", prs=[3], count=2)
    response = post(emu, REVIEW_THREADS_QUERY, {"owner": "acme", "name": "todo", "number": 3})
    pull = body_of(response)["data"]["repository"]["pullRequest"]
    threads = pull["reviewThreads"]["nodes"]
    assert len(threads) == 2
    assert all(t["isResolved"] is False for t in threads)
    assert threads[0]["comments"]["nodes"][0]["url"].startswith(
        "https://github.com/acme/todo/pull/3#discussion_r"
    )


def test_missing_repository_is_github_not_found(emu: Emulator) -> None:
    response = post(emu, '{ repository(owner: "acme", name: "nope") { name } }')
    assert response.status == 200
    assert body_of(response) == {
        "data": {"repository": None},
        "errors": [
            {
                "type": "NOT_FOUND",
                "path": ["repository"],
                "locations": [{"line": 1, "column": 3}],
                "message": "Could not resolve to a Repository with the name 'acme/nope'.",
            }
        ],
    }


def test_unknown_field_is_a_github_validation_error_and_free(emu: Emulator) -> None:
    response = post(emu, 'query Q { repository(owner: "acme", name: "todo") { nope } }')
    assert body_of(response) == {
        "errors": [
            {
                "path": ["query Q", "repository", "nope"],
                "extensions": {
                    "code": "undefinedField",
                    "typeName": "Repository",
                    "fieldName": "nope",
                },
                "locations": [{"line": 1, "column": 53}],
                "message": "Field 'nope' doesn't exist on type 'Repository'",
            }
        ]
    }
    assert used(response) == 0


def test_syntax_error_and_bad_json(emu: Emulator) -> None:
    parse_error = body_of(post(emu, "{ viewer { login } }}"))["errors"][0]
    assert parse_error["message"] == 'Parse error on "}" (RCURLY) at [1, 21]'
    request = EmuRequest.build(
        "POST", "/graphql", {"Authorization": f"token {TOKEN}"}, b"{not json"
    )
    response = emu.handle(request)
    assert response.status == 400
    assert body_of(response)["message"] == "Problems parsing JSON"


def test_bad_variable_is_reported_before_charging(emu: Emulator) -> None:
    query = (
        'query($n: Int!) { repository(owner: "acme", name: "todo") '
        "{ pullRequest(number: $n) { id } } }"
    )
    response = post(emu, query, {"n": "abc"})
    error = body_of(response)["errors"][0]
    assert error["message"] == "Variable $n of type Int! was provided invalid value"
    assert error["extensions"]["value"] == "abc"
    assert used(response) == 0


def test_query_limits_answer_data_null_and_charge_nothing(emu: Emulator) -> None:
    query = (
        '{ repository(owner: "acme", name: "todo") { pullRequests(first: 101) { nodes { id } } } }'
    )
    response = post(emu, query)
    payload = body_of(response)
    assert payload["data"] is None
    assert payload["errors"][0]["type"] == "EXCESSIVE_PAGINATION"
    assert used(response) == 0


def test_dry_run_reports_the_cost_without_charging_or_running(emu: Emulator) -> None:
    query = """{ rateLimit(dryRun: true) { cost remaining nodeCount }
      repository(owner: "acme", name: "todo") {
        pullRequests(first: 100) { nodes { reviews(first: 100) { nodes { id } } } } } }"""
    response = post(emu, query)
    payload = body_of(response)
    assert payload == {"data": {"rateLimit": {"cost": 1, "remaining": 5000, "nodeCount": 10100}}}
    assert used(response) == 0
    assert emu.ledger_entries(resource="graphql") == []


def test_exhausted_bucket_answers_200_rate_limited(emu: Emulator) -> None:
    emu.set_limit("graphql", 1)
    assert body_of(post(emu, "{ viewer { login } }"))["data"] == {"viewer": {"login": "octo"}}
    response = post(emu, "{ viewer { login } }")
    assert response.status == 200
    payload = body_of(response)
    assert payload["data"] is None
    assert payload["errors"][0]["type"] == "RATE_LIMITED"
    assert payload["errors"][0]["message"].startswith("API rate limit exceeded for user ID ")
    assert response.headers["x-ratelimit-remaining"] == "0"
    assert emu.ledger_totals(resource="graphql") == {"graphql": 1}


def test_issue_or_pull_request_accepts_state_in_both_fragments(emu: Emulator) -> None:
    query = """{ repository(owner: "acme", name: "todo") {
      a: issueOrPullRequest(number: 26) { __typename ...on Issue { state title } ...on
        PullRequest { state } }
      b: issueOrPullRequest(number: 2) { __typename ...on Issue { state } ...on PullRequest {
        state merged } } } }"""
    data = body_of(post(emu, query))["data"]["repository"]
    assert data["a"] == {"__typename": "Issue", "state": "OPEN", "title": "A bug"}
    assert data["b"] == {"__typename": "PullRequest", "state": "OPEN", "merged": False}


def test_create_and_merge_pull_request_mutations(emu: Emulator) -> None:
    emu.push("acme/todo", "feat/new", "work")
    repo_id = body_of(post(emu, '{ repository(owner: "acme", name: "todo") { id } }'))["data"][
        "repository"
    ]["id"]
    create = """mutation($input: CreatePullRequestInput!) {
      createPullRequest(input: $input) { pullRequest { id number url state } } }"""

    def open_pull(title: str, **more: str) -> dict[str, Any]:
        given = {"repositoryId": repo_id, "headRefName": "feat/new", "baseRefName": "main"}
        return body_of(post(emu, create, {"input": {**given, "title": title, **more}}))

    created = open_pull("New", body="b")["data"]["createPullRequest"]["pullRequest"]
    assert created["state"] == "OPEN" and created["url"].endswith(f"/pull/{created['number']}")
    duplicate = open_pull("Again")
    assert duplicate["errors"][0]["type"] == "UNPROCESSABLE"
    assert "already exists" in duplicate["errors"][0]["message"]
    merge = (
        f'mutation {{ mergePullRequest(input: {{pullRequestId: "{created["id"]}", '
        "mergeMethod: SQUASH}) { pullRequest { state merged mergedAt } } }"
    )
    merged = body_of(post(emu, merge))["data"]["mergePullRequest"]["pullRequest"]
    assert merged["state"] == "MERGED" and merged["merged"] is True and merged["mergedAt"]
    again = body_of(post(emu, merge))
    assert again["errors"][0]["type"] == "UNPROCESSABLE"


def test_introspection_lists_pull_request_fields(emu: Emulator) -> None:
    query = (
        'query PullRequest_fields{PullRequest: __type(name: "PullRequest")'
        "{fields(includeDeprecated: true){name}}}"
    )
    names = {f["name"] for f in body_of(post(emu, query))["data"]["PullRequest"]["fields"]}
    assert {"statusCheckRollup", "reviewThreads", "isInMergeQueue", "mergeStateStatus"} <= names


def test_pagination_walks_every_pull_request(emu: Emulator) -> None:
    query = """query($after: String) { repository(owner: "acme", name: "todo") {
      pullRequests(first: 10, after: $after, states: OPEN, orderBy: {field: CREATED_AT,
        direction: DESC}) {
        totalCount nodes { number } pageInfo { hasNextPage endCursor } } } }"""
    seen: list[int] = []
    after = None
    while True:
        page = body_of(post(emu, query, {"after": after}))["data"]["repository"]["pullRequests"]
        assert page["totalCount"] == 25
        seen += [n["number"] for n in page["nodes"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == list(range(25, 0, -1))
