"""githubkit's GraphQL client (``github.graphql``) against the emulator over a socket."""

from __future__ import annotations

from typing import Any

import githubkit  # a dev dependency: missing is an error, never a skip
import pytest
from githubkit.exception import GraphQLFailed, PrimaryRateLimitExceeded

PULLS_PAGE = """
query Pulls($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(first: 2, after: $cursor, states: [OPEN]) {
      nodes { number headRefName }
      pageInfo { hasNextPage endCursor }
    }
  }
}
"""

CREATE_ISSUE = """
mutation Create($input: CreateIssueInput!) {
  createIssue(input: $input) { clientMutationId issue { number title body state url } }
}
"""


@pytest.fixture
def github(emulator_server: Any) -> Any:
    emulator_server.emulator.seed(
        {"repos": [{"name": "acme/todo", "issues": 1, "pulls": 5, "ci": "failure"}]}
    )
    return githubkit.GitHub(
        githubkit.TokenAuthStrategy(emulator_server.token),
        base_url=emulator_server.url,
        http_cache=False,
        auto_retry=False,
    )


def _graphql_ledger(emulator_server: Any) -> int:
    return int(emulator_server.emulator.ledger_totals(resource="graphql").get("graphql", 0))


def test_queries_pagination_and_a_mutation_match_the_ledger(
    github: Any, emulator_server: Any
) -> None:
    owner = {"owner": "acme", "name": "todo"}
    pages = list(github.graphql.paginate(PULLS_PAGE, owner))
    numbers = [n["number"] for p in pages for n in p["repository"]["pullRequests"]["nodes"]]
    assert len(pages) == 3 and sorted(numbers) == [2, 3, 4, 5, 6]

    repo_id = github.graphql('query Id { repository(owner: "acme", name: "todo") { id } }')
    created = github.graphql(
        CREATE_ISSUE,
        {
            "input": {
                "repositoryId": repo_id["repository"]["id"],
                "title": "From githubkit",
                "body": "made over GraphQL",
                "clientMutationId": "m-1",
            }
        },
    )["createIssue"]
    assert created["clientMutationId"] == "m-1"
    issue = created["issue"]
    assert issue["state"] == "OPEN" and issue["url"].endswith(f"/issues/{issue['number']}")
    rest_issue = github.rest.issues.get("acme", "todo", issue["number"]).parsed_data
    assert rest_issue.title == "From githubkit" and rest_issue.body == "made over GraphQL"

    # The last response's headers, its rateLimit field, /rate_limit and the ledger agree.
    response = github.request(
        "POST", "/graphql", json={"query": "query Rate { rateLimit { cost used remaining } }"}
    )
    rate = response.json()["data"]["rateLimit"]
    assert int(response.headers["x-ratelimit-used"]) == rate["used"] == 6
    assert int(response.headers["x-ratelimit-remaining"]) == rate["remaining"] == 4994
    assert response.headers["x-ratelimit-resource"] == "graphql"
    assert github.rest.rate_limit.get().parsed_data.resources.graphql.used == 6
    assert _graphql_ledger(emulator_server) == 6
    operations = [e.endpoint for e in emulator_server.emulator.ledger_entries(resource="graphql")]
    assert operations == ["Pulls", "Pulls", "Pulls", "Id", "Create", "Rate"]


def test_errors_raise_githubkits_exceptions_and_charge_as_github(
    github: Any, emulator_server: Any
) -> None:
    with pytest.raises(GraphQLFailed) as missing:
        github.graphql('query Gone { repository(owner: "acme", name: "gone") { id } }')
    assert missing.value.response.errors[0].type == "NOT_FOUND"
    with pytest.raises(GraphQLFailed) as invalid:
        github.graphql("query Bad { viewer { nope } }")
    assert "Field 'nope' doesn't exist on type 'User'" in invalid.value.response.errors[0].message
    assert _graphql_ledger(emulator_server) == 1  # a not-found executes; invalid is free

    emulator_server.emulator.set_limit("graphql", 1)
    with pytest.raises(PrimaryRateLimitExceeded):
        github.graphql("query Viewer { viewer { login } }")
    assert _graphql_ledger(emulator_server) == 1


def test_mutation_failures_are_unprocessable_or_not_found(github: Any) -> None:
    repo_id = github.graphql('query Id { repository(owner: "acme", name: "todo") { id } }')[
        "repository"
    ]["id"]
    failures = [
        (CREATE_ISSUE, {"input": {"repositoryId": repo_id, "title": " "}}, "UNPROCESSABLE"),
        (
            CREATE_ISSUE,
            {"input": {"repositoryId": repo_id, "title": "t", "labelIds": ["LA_kwDO00000000"]}},
            "NOT_FOUND",
        ),
        (CREATE_ISSUE, {"input": {"repositoryId": "R_nope", "title": "t"}}, "NOT_FOUND"),
    ]
    for query, variables, kind in failures:
        with pytest.raises(GraphQLFailed) as failed:
            github.graphql(query, variables)
        assert [e.type for e in failed.value.response.errors] == [kind]
    count = 'query N { repository(owner: "acme", name: "todo") { issues { totalCount } } }'
    assert github.graphql(count)["repository"]["issues"]["totalCount"] == 1  # none was made

    pull = github.graphql(
        'query P { repository(owner: "acme", name: "todo") { pullRequest(number: 2) { id } } }'
    )["repository"]["pullRequest"]["id"]
    github.rest.pulls.merge("acme", "todo", 2)
    close = (
        "mutation C($id: ID!) { closePullRequest(input: {pullRequestId: $id}) "
        "{ pullRequest { id } } }"
    )
    with pytest.raises(GraphQLFailed) as merged:
        github.graphql(close, {"id": pull})
    assert merged.value.response.errors[0].type == "UNPROCESSABLE"
