"""Tokens of every kind (``ghbench.budgets``), issued through the control API and
limited as GitHub documents, seen by real clients over a real socket: PyGithub's
``X-RateLimit-Limit`` for REST and githubkit's for GraphQL; an App installation's
tokens share one bucket; an Actions token has one bucket per repository it calls."""

from __future__ import annotations

from typing import Any

import githubkit  # a dev dependency: missing is an error, never a skip
import httpx
import pytest
from github import Auth, Github, GithubException

from ghbench.emulator.control_access import CONTROL_KEY_HEADER

REPOS = ("acme/todo", "acme/docs")
QUERY = "query { viewer { login } rateLimit { limit cost remaining } }"


def _issue(server: Any, login: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /_ghbench/users`` over the socket, as ghbench's control client sends it."""
    resp = httpx.post(
        f"{server.url}/_ghbench/users",
        json={"login": login, "tokens": [token], **body},
        headers={CONTROL_KEY_HEADER: server.emulator.control_key},
    )
    assert resp.status_code == 200, resp.text
    answer: dict[str, Any] = resp.json()
    return answer


def _pygithub(token: str, url: str) -> Github:
    # no retries: a refusal is what the test looks at, not something to wait out
    return Github(
        auth=Auth.Token(token),
        base_url=url,
        seconds_between_requests=0,
        seconds_between_writes=0,
        retry=None,
    )


def _rest_limit(token: str, url: str, repo: str = REPOS[0]) -> tuple[int, int]:
    """(X-RateLimit-Limit, X-RateLimit-Remaining) of one REST call by PyGithub."""
    client = _pygithub(token, url)
    client.get_repo(repo)
    remaining, limit = client.rate_limiting  # from the last answer's headers
    return limit, remaining


def _graphql_limit(token: str, url: str) -> int:
    """X-RateLimit-Limit of one GraphQL query by githubkit (and rateLimit.limit agrees)."""
    with githubkit.GitHub(
        githubkit.TokenAuthStrategy(token), base_url=url, http_cache=False, auto_retry=False
    ) as github:
        resp = github.request("POST", "/graphql", json={"query": QUERY})
        limit = int(resp.headers["x-ratelimit-limit"])
        assert resp.json()["data"]["rateLimit"]["limit"] == limit
        return limit


@pytest.fixture
def server(emulator_server: Any) -> Any:
    emulator_server.emulator.seed({"repos": [{"name": name, "issues": 1} for name in REPOS]})
    return emulator_server


@pytest.mark.parametrize(
    ("budget", "rest", "graphql"),
    [
        ({"kind": "pat"}, 5_000, 5_000),
        ({"kind": "app"}, 5_000, 5_000),
        ({"kind": "app", "repos": 40}, 6_000, 6_000),
        ({"kind": "app", "repos": 40, "users": 60}, 8_000, 8_000),
        ({"kind": "app", "repos": 400, "users": 400}, 12_500, 12_500),
        ({"kind": "app-enterprise"}, 15_000, 10_000),
        ({"kind": "actions"}, 1_000, 1_000),
        ({"kind": "custom", "rest": 2_000, "graphql": 700}, 2_000, 700),
    ],
    ids=lambda v: "-".join(f"{k}{n}" for k, n in v.items()) if isinstance(v, dict) else str(v),
)
def test_each_kind_of_token_answers_with_its_limit(
    server: Any, budget: dict[str, Any], rest: int, graphql: int
) -> None:
    token = "ghs_" + budget["kind"].replace("-", "") + "0" * 30
    body: dict[str, Any] = {"budget": budget, "installation": "acme-bot"}
    if budget["kind"] == "actions":
        body = {"budget": budget, "repository": REPOS[0]}
    answer = _issue(server, "acme-bot", token, body)
    assert f"{rest:,} REST core requests" in answer["budget"]
    assert _rest_limit(token, server.url) == (rest, rest - 1)
    assert _graphql_limit(token, server.url) == graphql


def test_an_installations_tokens_share_its_bucket_a_users_do_not(server: Any) -> None:
    one, two = "ghs_" + "1" * 36, "ghs_" + "2" * 36
    for token in (one, two):
        _issue(server, "acme-bot", token, {"budget": {"kind": "app"}, "installation": "acme"})
    assert _rest_limit(one, server.url)[1] == 4_999
    assert _rest_limit(two, server.url)[1] == 4_998  # the same installation's bucket
    assert _rest_limit(server.token, server.url)[1] == 4_999  # octo's own, untouched


def test_an_actions_token_has_a_bucket_per_repository_and_is_refused_when_it_is_spent(
    server: Any,
) -> None:
    token = "ghs_" + "3" * 36
    budget = {"kind": "actions"}
    _issue(server, "github-actions", token, {"budget": budget, "repository": REPOS[0]})
    assert _rest_limit(token, server.url, REPOS[0]) == (1_000, 999)
    assert _rest_limit(token, server.url, REPOS[1]) == (1_000, 999)  # a bucket of its own
    assert _rest_limit(token, server.url, REPOS[0]) == (1_000, 998)
    # what 997 more calls would do: the control API spends the repository's bucket
    server.emulator.limiter.charge(
        f"actions:{REPOS[0]}", "spent", "core", 998, endpoint="test", status=200
    )
    with pytest.raises(GithubException) as refused:
        _pygithub(token, server.url).get_repo(REPOS[0])
    assert refused.value.status in (403, 429)
    assert "rate limit" in str(refused.value.data).lower()
    assert _rest_limit(token, server.url, REPOS[1]) == (1_000, 998)  # the other still answers


def test_a_bad_budget_is_a_one_line_error_naming_the_field(server: Any) -> None:
    resp = httpx.post(
        f"{server.url}/_ghbench/users",
        json={"login": "x", "tokens": ["ghs_" + "4" * 36], "budget": {"kind": "org"}},
        headers={CONTROL_KEY_HEADER: server.emulator.control_key},
    )
    assert resp.status_code in (400, 422)
    assert "budget" in resp.text and "kind" in resp.text
