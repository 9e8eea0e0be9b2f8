"""``X-GitHub-Api-Version``: GitHub's two versions served, any other refused with its 400."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import httpx
import pytest

from ghbench.emulator.core import Emulator

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
