"""Real gh (2.23 and 2.102) against the emulator: the issue and PR commands beyond AO's
core loop.

``gh issue create`` (2.23: RepositoryInfo, then the IssueCreate mutation, and with
``--label`` a RepositoryResolveMetadataIDs lookup; 2.102: IssueRepositoryInfo, and
RepositoryLabelList for labels), ``issue list`` by state, issue and PR close/reopen,
``pr list`` by state, ``pr view`` without ``--json`` and ``pr checks`` on failing and
pending CI (2.102 first detects features: PullRequest_fields and PullRequest_fields2).
Every test ends by checking the ledger against what gh saw.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gh_helpers import (
    FEATURE_QUERIES,
    assert_ledger_matches_gh,
    assert_operations,
    gh,
    ok,
    operations,
    rows,
)

from tools import GhBuild

pytestmark = pytest.mark.gh

REPO = "acme/todo"


def issue_state(server: Any, number: int) -> tuple[str, str | None]:
    store = server.emulator.store
    issue = store.issue(store.repo("acme", "todo"), number)
    return issue.state, issue.state_reason


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    emu.create_issue(REPO, "Bug one", body="details", author="octo")  # 1
    emu.create_pull(REPO, "feat/fail", title="Failing", author="octo")  # 2
    emu.set_ci(REPO, "failure", pr=2)
    emu.create_pull(REPO, "feat/wait", title="Waiting", author="octo")  # 3
    emu.set_ci(REPO, "pending", pr=3)
    return emulator_server


# the repository lookup before creating an issue, and the label lookup with --label
ISSUE_REPOSITORY = {"2.23.0": "RepositoryInfo", "2.102.0": "IssueRepositoryInfo"}
LABEL_LOOKUP = {"2.23.0": "RepositoryResolveMetadataIDs", "2.102.0": "RepositoryLabelList"}
# gh 2.102 detects the PR features it may ask for (introspection, cached for a day)
PR_FEATURES = {"2.23.0": [], "2.102.0": list(FEATURE_QUERIES)}


def test_gh_issue_create_view_and_list_by_state(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    url = ok(gh_env, "issue", "create", "--repo", REPO, "--title", "New", "--body", "text")
    assert url.strip() == "https://github.com/acme/todo/issues/4"
    assert operations(seeded) == [ISSUE_REPOSITORY[gh_build.version], "IssueCreate"]
    viewed = json.loads(
        ok(gh_env, "issue", "view", "4", "--repo", REPO, "--json", "title,body,state,author")
    )
    author = viewed.pop("author")
    assert viewed == {"title": "New", "body": "text", "state": "OPEN"}
    assert author["login"] == "octo"

    ok(gh_env, "issue", "close", "1", "--repo", REPO)
    assert [r[:3] for r in rows(ok(gh_env, "issue", "list", "--repo", REPO))] == [
        ["4", "OPEN", "New"]
    ]
    closed = rows(ok(gh_env, "issue", "list", "--repo", REPO, "--state", "closed"))
    assert [r[:3] for r in closed] == [["1", "CLOSED", "Bug one"]]
    everything = rows(ok(gh_env, "issue", "list", "--repo", REPO, "--state", "all"))
    assert [r[0] for r in everything] == ["4", "1"]
    ok(gh_env, "issue", "reopen", "1", "--repo", REPO)
    assert issue_state(seeded, 1) == ("open", "reopened")
    assert "IssueClose" in operations(seeded) and "IssueReopen" in operations(seeded)
    assert_ledger_matches_gh(gh_env, seeded)


def test_gh_issue_create_with_a_label(
    gh_env: dict[str, str], seeded: Any, gh_build: GhBuild
) -> None:
    # GitHub's default labels exist; other names exist once created (here by naming
    # one on an issue through REST, which creates it); gh resolves names to ids first.
    missing = gh(gh_env, "issue", "create", "--repo", REPO, "-t", "x", "-b", "y", "-l", "triage")
    assert missing.returncode == 1 and "'triage' not found" in missing.stderr
    ok(gh_env, "api", f"repos/{REPO}/issues", "-f", "title=seed", "-f", "labels[]=triage")
    ok(gh_env, "issue", "create", "--repo", REPO, "-t", "Labelled", "-b", "y", "-l", "TRIAGE,bug")
    labelled = json.loads(ok(gh_env, "issue", "view", "5", "--repo", REPO, "--json", "labels"))
    rest = json.loads(ok(gh_env, "api", f"repos/{REPO}/issues/5"))["labels"]
    assert [(x["name"], x["id"], x["color"]) for x in labelled["labels"]] == [
        ("triage", rest[0]["node_id"], "ededed"),
        ("bug", rest[1]["node_id"], "d73a4a"),
    ]
    assert operations(seeded).count(LABEL_LOOKUP[gh_build.version]) == 2
    assert_ledger_matches_gh(gh_env, seeded)


@pytest.mark.slow
def test_gh_pr_list_by_state_and_view_as_text(gh_env: dict[str, str], seeded: Any) -> None:
    ok(gh_env, "pr", "merge", "2", "--repo", REPO, "--merge")
    ok(gh_env, "pr", "close", "3", "--repo", REPO)
    assert ok(gh_env, "pr", "list", "--repo", REPO) == ""
    every = rows(ok(gh_env, "pr", "list", "--repo", REPO, "--state", "all"))
    assert [(r[0], r[2], r[3]) for r in every] == [
        ("3", "feat/wait", "CLOSED"),
        ("2", "feat/fail", "MERGED"),
    ]
    merged = rows(ok(gh_env, "pr", "list", "--repo", REPO, "--state", "merged"))
    assert [r[0] for r in merged] == ["2"]
    ok(gh_env, "pr", "reopen", "3", "--repo", REPO)
    assert [r[0] for r in rows(ok(gh_env, "pr", "list", "--repo", REPO))] == ["3"]

    text = ok(gh_env, "pr", "view", "3", "--repo", REPO)
    fields = dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)
    assert fields["title"] == "Waiting" and fields["state"] == "OPEN"
    assert fields["author"] == "octo" and fields["url"] == "https://github.com/acme/todo/pull/3"
    close_merged = gh(gh_env, "pr", "close", "2", "--repo", REPO)
    assert close_merged.returncode == 1  # gh reads the state and refuses by itself
    assert "already merged" in close_merged.stderr
    assert {"PullRequestMerge", "PullRequestClose", "PullRequestReopen"} <= set(operations(seeded))
    assert_ledger_matches_gh(gh_env, seeded)


@pytest.mark.parametrize(("number", "bucket"), [(2, "fail"), (3, "pending")])
def test_gh_pr_checks_failing_and_pending(
    gh_env: dict[str, str], seeded: Any, number: int, bucket: str, gh_build: GhBuild
) -> None:
    result = gh(gh_env, "pr", "checks", str(number), "--repo", REPO)
    assert result.returncode != 0, result.stdout  # gh 2.23: 1 (2.102: 8 if pending)
    # set_ci makes a commit status and a check run, both named "ci".
    assert sorted(r[:2] for r in rows(result.stdout)) == [["ci", bucket], ["ci", bucket]]
    features = PR_FEATURES[gh_build.version]
    assert_operations(seeded, ["PullRequestByNumber", *features, "PullRequestStatusChecks"])
    assert_ledger_matches_gh(gh_env, seeded)
