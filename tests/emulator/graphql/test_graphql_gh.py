"""Real gh (2.23 and 2.102) against the emulator over a real socket: the commands AO runs."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from gh_helpers import FEATURE_QUERIES, assert_operations

from tools import GhBuild

pytestmark = pytest.mark.gh

# What gh sends for the commands of test_gh_pr_list_view_checks_and_issue_view: 2.102
# detects PR features before `pr checks` (once a day) and reads an issue's projects.
VIEW_CHECKS_ISSUE = {
    "2.23.0": [
        "PullRequestList",
        "PullRequestByNumber",
        "PullRequestByNumber",
        "PullRequestStatusChecks",
        "IssueByNumber",
    ],
    "2.102.0": [
        "PullRequestList",
        "PullRequestByNumber",
        "PullRequestByNumber",
        *FEATURE_QUERIES,
        "PullRequestStatusChecks",
        "IssueByNumber",
        "IssueProjectItems",
    ],
}


def gh(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["gh", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def ok(env: dict[str, str], *args: str) -> str:
    result = gh(env, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    number = emu.create_pull("acme/todo", "feat/a", title="Add a", author="octo")
    emu.set_ci("acme/todo", "success", pr=number)
    emu.create_issue("acme/todo", "Bug one", body="details", author="octo")
    return emulator_server


def graphql_used(seeded: Any) -> int:
    return int(seeded.emulator.ledger_totals(resource="graphql").get("graphql", 0))


def test_gh_api_graphql_rate_limit(gh_env: dict[str, str], seeded: Any) -> None:
    query = "query={rateLimit{cost limit remaining used resetAt nodeCount}}"
    rate = json.loads(ok(gh_env, "api", "graphql", "-f", query))["data"]["rateLimit"]
    assert rate["cost"] == 1 and rate["limit"] == 5000 and rate["nodeCount"] == 0
    assert rate["used"] == graphql_used(seeded) == 1


def test_gh_pr_list_view_checks_and_issue_view(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    listed = json.loads(
        ok(
            gh_env,
            "pr",
            "list",
            "--head",
            "feat/a",
            "--repo",
            "acme/todo",
            "--json",
            "number,url",
            "--limit",
            "1",
        )
    )
    assert listed == [{"number": 1, "url": "https://github.com/acme/todo/pull/1"}]
    assert json.loads(ok(gh_env, "pr", "view", "1", "--repo", "acme/todo", "--json", "state")) == {
        "state": "OPEN"
    }
    checks = ok(gh_env, "pr", "checks", "1", "--repo", "acme/todo")
    assert "ci\tpass" in checks
    issue = ok(gh_env, "issue", "view", "2", "--repo", "acme/todo")
    assert "Bug one" in issue and "details" in issue
    # Every call above was GraphQL and cost 1 point by the formula; pr checks makes two
    # (four with 2.102's feature detection).
    expected = VIEW_CHECKS_ISSUE[gh_build.version]
    assert_operations(seeded, expected)
    assert graphql_used(seeded) == len(expected)
    rate = json.loads(ok(gh_env, "api", "graphql", "-f", "query={rateLimit{used remaining}}"))[
        "data"
    ]["rateLimit"]
    assert rate["used"] == graphql_used(seeded) == len(expected) + 1


def test_gh_pr_create_then_merge_and_delete_branch(gh_env: dict[str, str], seeded: Any) -> None:
    emu = seeded.emulator
    emu.push("acme/todo", "feat/x", "x work")
    url = ok(
        gh_env,
        "pr",
        "create",
        "--repo",
        "acme/todo",
        "--head",
        "feat/x",
        "--base",
        "main",
        "--title",
        "t",
        "--body",
        "b",
    ).strip()
    assert url == "https://github.com/acme/todo/pull/3"
    ok(gh_env, "pr", "merge", "3", "--repo", "acme/todo", "--squash", "-d")
    view = json.loads(ok(gh_env, "pr", "view", "3", "--repo", "acme/todo", "--json", "state"))
    assert view == {"state": "MERGED"}
    repo = emu.store.repo("acme", "todo")
    assert emu.store.branch_sha(repo, "feat/x") is None  # -d deleted it over REST
    operations = [e.endpoint for e in emu.ledger_entries(resource="graphql")]
    assert "PullRequestCreate" in operations and "PullRequestMerge" in operations
