"""``X-GitHub-Api-Version``: GitHub's two versions served, any other refused with its 400."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import httpx
import pytest
from githubkit import GitHub, TokenAuthStrategy

from ghbench.emulator.core import Emulator
from ghbench.ratelimit import parse_rate_limit

REPO = "/repos/acme/todo"


def test_a_supported_version_is_selected_and_named(api: httpx.Client) -> None:
    plain = api.get(REPO)
    assert plain.headers["x-github-api-version-selected"] == "2022-11-28"
    newest = api.get(REPO, headers={"X-GitHub-Api-Version": "2026-03-10"})
    assert newest.status_code == 200
    assert newest.headers["x-github-api-version-selected"] == "2026-03-10"


def test_an_unknown_version_is_githubs_400_and_free(emulator: Emulator, api: httpx.Client) -> None:
    refused = api.get(REPO, headers={"X-GitHub-Api-Version": "1999-01-01"})
    assert refused.status_code == 400
    assert refused.json() == {
        "message": "Bad Request",
        "errors": 'The version you specified in the "X-GitHub-API-Version" request header, '
        '"1999-01-01", is not a supported version. The following versions are currently '
        'supported: "2026-03-10" (most recent) and "2022-11-28".',
        "documentation_url": "https://docs.github.com/rest",
        "status": "400",
    }
    assert emulator.ledger_entries() == []
    # GraphQL has no REST version: the header changes nothing there
    graphql = api.post(
        "/graphql",
        json={"query": "{ viewer { login } }"},
        headers={"X-GitHub-Api-Version": "1999-01-01"},
    )
    assert graphql.json() == {"data": {"viewer": {"login": "octo"}}}


def test_the_singular_assignee_is_gone_in_2026_03_10(api: httpx.Client) -> None:
    old = api.post(REPO + "/issues", json={"title": "a", "assignee": "octo"})
    new = api.post(
        REPO + "/issues",
        json={"title": "b", "assignee": "octo"},
        headers={"X-GitHub-Api-Version": "2026-03-10"},
    )
    assert [a["login"] for a in old.json()["assignees"]] == ["octo"]
    assert new.json()["assignees"] == []


def test_rate_limit_has_no_rate_from_2026_03_10(api: httpx.Client) -> None:
    # GitHub's description: x-github-breaking-changes remove_rate_limit_rate, 2026-03-10
    old, unnamed = (
        api.get("/rate_limit"),
        api.get("/rate_limit", headers={"X-GitHub-Api-Version": "2022-11-28"}),
    )
    new = api.get("/rate_limit", headers={"X-GitHub-Api-Version": "2026-03-10"})
    assert old.json()["rate"] == old.json()["resources"]["core"] == unnamed.json()["rate"]
    assert "rate" not in new.json()
    assert new.json()["resources"] == old.json()["resources"]
    # ghbench's one parser reads resources: both versions are the same snapshot
    assert parse_rate_limit(new.json(), 1.0) == parse_rate_limit(old.json(), 1.0)
    assert set(parse_rate_limit(new.json(), 1.0).resources) >= {"core", "graphql", "search"}


def test_githubkit_reads_the_2026_03_10_rate_limit(emulator_server: Any) -> None:
    # githubkit's models are 2026-03-10's, the version it sends: RateLimitOverview is
    # resources alone, and the emulator's answer is exactly that
    github = GitHub(
        TokenAuthStrategy(emulator_server.token), base_url=emulator_server.url, http_cache=False
    )
    answer = github.rest.rate_limit.get()
    assert answer.headers["x-github-api-version-selected"] == "2026-03-10"
    assert list(answer.json()) == ["resources"]
    assert answer.parsed_data.resources.core.limit == 5000


@pytest.mark.gh
def test_gh_api_rate_limit_keeps_rate(gh_env: dict[str, str], emulator_server: Any) -> None:
    # gh 2.23 and 2.102 send 2022-11-28 by themselves; a header chooses 2026-03-10
    def keys(*headers: str) -> list[str]:
        argv = ["gh", "api", *headers, "rate_limit", "--jq", "keys"]
        done = subprocess.run(argv, env=gh_env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        found: list[str] = json.loads(done.stdout)
        return found

    assert keys() == ["rate", "resources"]
    assert keys("-H", "X-GitHub-Api-Version: 2026-03-10") == ["resources"]


@pytest.mark.gh
def test_gh_api_with_an_unknown_version(gh_env: dict[str, str], emulator_server: Any) -> None:
    result = subprocess.run(
        ["gh", "api", "-H", "X-GitHub-Api-Version: v3", "repos/acme/todo"],
        env=gh_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["message"] == "Bad Request"
    # gh shows the string `errors` GitHub sends, with the message after it
    assert result.stderr.strip() == (
        'gh: The version you specified in the "X-GitHub-API-Version" request header, "v3", '
        "is not a supported version. The following versions are currently supported: "
        '"2026-03-10" (most recent) and "2022-11-28". (Bad Request)'
    )
