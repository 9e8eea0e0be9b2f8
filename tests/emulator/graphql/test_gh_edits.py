"""Real gh (2.23 and 2.102): the write commands a coding agent or bot runs (comments, reviews,
edits, labels, assignees, reviewers, ready/draft, issue delete/transfer/pin, pr create
with labels or as a draft), each checked against the emulator's state, REST's view of
it and the GraphQL operations the ledger recorded.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gh_helpers import api, gh, ok, operations, protect

from tools import GhBuild

pytestmark = pytest.mark.gh

REPO = "acme/todo"
HUBOT_TOKEN = "ghp_hubot000000000000000000000000000000001"


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    """Issue 1, PR 2 (octo's, failing CI), PR 3 (passing CI), branches feat/c and
    feat/d without PRs, a second repository acme/other and a second user hubot."""
    emu = emulator_server.emulator
    emu.create_user("hubot", [HUBOT_TOKEN])
    emu.create_issue(REPO, "Bug one", body="details", author="octo")
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    emu.set_ci(REPO, "failure", pr=2)
    emu.create_pull(REPO, "feat/b", title="Feature B", author="octo")
    emu.set_ci(REPO, "success", pr=3)
    emu.push(REPO, "feat/c", "C", files={"c.txt": "c\n"})
    emu.push(REPO, "feat/d", "D", files={"d.txt": "d\n"})
    emu.create_repo("acme/other")
    return emulator_server


def as_hubot(env: dict[str, str]) -> dict[str, str]:
    return env | {"GH_TOKEN": HUBOT_TOKEN}


@pytest.mark.slow
def test_comments_reviews_and_edits(gh_env: dict[str, str], seeded: Any) -> None:
    url = ok(gh_env, "pr", "comment", "2", "-R", REPO, "-b", "looks good")
    assert url.startswith("https://github.com/acme/todo/pull/2#issuecomment-")
    ok(gh_env, "issue", "comment", "1", "-R", REPO, "-b", "seen it")
    comments = [c["body"] for c in api(gh_env, f"repos/{REPO}/issues/2/comments")]
    assert comments == ["looks good"]
    assert [c["body"] for c in api(gh_env, f"repos/{REPO}/issues/1/comments")] == ["seen it"]

    # GitHub refuses approving or requesting changes on one's own pull request
    own = gh(gh_env, "pr", "review", "2", "-R", REPO, "--approve")
    assert own.returncode == 1
    assert "Review Can not approve your own pull request" in own.stderr
    ok(gh_env, "pr", "review", "2", "-R", REPO, "--comment", "-b", "a note")
    ok(as_hubot(gh_env), "pr", "review", "2", "-R", REPO, "--request-changes", "-b", "fix")
    ok(as_hubot(gh_env), "pr", "review", "3", "-R", REPO, "--approve")
    reviews = [
        (r["user"]["login"], r["state"]) for r in api(gh_env, f"repos/{REPO}/pulls/2/reviews")
    ]
    assert reviews == [("octo", "COMMENTED"), ("hubot", "CHANGES_REQUESTED")]

    def decisions() -> list[tuple[int, str]]:
        found = json.loads(ok(gh_env, "pr", "list", "-R", REPO, "--json", "number,reviewDecision"))
        return sorted((d["number"], d["reviewDecision"]) for d in found)

    # GitHub's reviewDecision is null unless the base branch requires reviews (issue 21)
    assert decisions() == [(2, ""), (3, "")]
    protect(
        gh_env, REPO, "main", required_pull_request_reviews={"required_approving_review_count": 1}
    )
    assert decisions() == [(2, "CHANGES_REQUESTED"), (3, "APPROVED")]

    ok(gh_env, "pr", "edit", "2", "-R", REPO, "--title", "Feature A, renamed", "--body", "why")
    ok(gh_env, "issue", "edit", "1", "-R", REPO, "--title", "Bug, renamed", "--body", "more")
    pull, issue = api(gh_env, f"repos/{REPO}/pulls/2"), api(gh_env, f"repos/{REPO}/issues/1")
    assert (pull["title"], pull["body"]) == ("Feature A, renamed", "why")
    assert (issue["title"], issue["body"]) == ("Bug, renamed", "more")
    done = set(operations(seeded))
    assert {"CommentCreate", "PullRequestReviewAdd", "PullRequestUpdate", "IssueUpdate"} <= done


@pytest.mark.slow
def test_ready_draft_and_merge_state(gh_env: dict[str, str], seeded: Any) -> None:
    def states(number: int) -> tuple[str, str, bool]:
        rest = api(gh_env, f"repos/{REPO}/pulls/{number}")
        view = json.loads(
            ok(gh_env, "pr", "view", str(number), "-R", REPO, "--json", "mergeStateStatus,isDraft")
        )
        return rest["mergeable_state"], view["mergeStateStatus"], view["isDraft"]

    # failing CI: unstable (nothing is required without branch protection); passing: clean;
    # the first read finds mergeability not computed yet, as on GitHub
    assert states(2) == ("unknown", "UNSTABLE", False)
    assert states(2) == ("unstable", "UNSTABLE", False)
    assert states(3) == ("unknown", "CLEAN", False)
    seeded.emulator.set_ci(REPO, "pending", pr=3)
    assert states(3) == ("unstable", "UNSTABLE", False)
    ok(gh_env, "pr", "ready", "3", "-R", REPO, "--undo")
    assert states(3) == ("draft", "DRAFT", True)
    merge = gh(gh_env, "pr", "merge", "3", "-R", REPO, "--merge")
    assert merge.returncode == 1  # a draft cannot be merged
    ok(gh_env, "pr", "ready", "3", "-R", REPO)
    assert states(3) == ("unstable", "UNSTABLE", False)
    assert {"PullRequestReadyForReview", "ConvertPullRequestToDraft"} <= set(operations(seeded))


@pytest.mark.slow
def test_labels(gh_env: dict[str, str], seeded: Any) -> None:
    listed = [row.split("\t")[0] for row in ok(gh_env, "label", "list", "-R", REPO).splitlines()]
    assert listed[:3] == ["bug", "documentation", "duplicate"] and len(listed) == 9
    ok(gh_env, "label", "create", "needs triage", "-R", REPO, "-c", "00ff00", "-d", "new")
    again = gh(gh_env, "label", "create", "Needs Triage", "-R", REPO)
    assert again.returncode == 1 and "already exists" in again.stderr
    ok(gh_env, "label", "create", "needs triage", "-R", REPO, "-c", "0000ff", "--force")
    label = api(gh_env, f"repos/{REPO}/labels/needs%20triage")
    assert (label["color"], label["description"]) == ("0000ff", "new")

    ok(gh_env, "pr", "edit", "2", "-R", REPO, "--add-label", "bug,needs triage")
    ok(gh_env, "issue", "edit", "1", "-R", REPO, "--add-label", "question")
    ok(gh_env, "pr", "edit", "2", "-R", REPO, "--remove-label", "bug")
    assert [x["name"] for x in api(gh_env, f"repos/{REPO}/issues/2/labels")] == ["needs triage"]
    viewed = json.loads(ok(gh_env, "issue", "view", "1", "-R", REPO, "--json", "labels"))
    assert [x["name"] for x in viewed["labels"]] == ["question"]
    listed_by_label = json.loads(
        ok(gh_env, "pr", "list", "-R", REPO, "--label", "needs triage", "--json", "number")
    )
    assert listed_by_label == [{"number": 2}]
    assert {"RepositoryLabelList", "LabelAdd", "LabelRemove"} <= set(operations(seeded))


# How gh assigns and asks for reviews. 2.23 looks the people up (RepositoryAssignableUsers,
# and teams: OrganizationTeamList, which GitHub answers "Could not resolve to an
# Organization" for a user, and gh skips), then sends ids. 2.102 sends logins on
# github.com (cli/cli#13009): replaceActorsForAssignable, requestReviewsByLogin.
PEOPLE_OPERATIONS = {
    "2.23.0": {
        "RepositoryAssignableUsers",
        "OrganizationTeamList",
        "PullRequestUpdateRequestReviews",
    },
    "2.102.0": {"ReplaceActorsForAssignable", "RequestReviewsByLogin"},
}


def test_assignees_and_reviewers(gh_env: dict[str, str], seeded: Any, gh_build: GhBuild) -> None:
    url = ok(gh_env, "issue", "create", "-R", REPO, "-t", "Assigned", "-b", "x", "-a", "hubot")
    number = url.strip().rsplit("/", 1)[1]
    assert [a["login"] for a in api(gh_env, f"repos/{REPO}/issues/{number}")["assignees"]] == [
        "hubot"
    ]
    ok(gh_env, "pr", "edit", "2", "-R", REPO, "--add-assignee", "hubot,octo")
    ok(gh_env, "pr", "edit", "2", "-R", REPO, "--add-reviewer", "hubot")
    viewed = json.loads(
        ok(gh_env, "pr", "view", "2", "-R", REPO, "--json", "assignees,reviewRequests")
    )
    assert sorted(a["login"] for a in viewed["assignees"]) == ["hubot", "octo"]
    assert viewed["reviewRequests"] == [{"__typename": "User", "login": "hubot"}]
    requested = api(gh_env, f"repos/{REPO}/pulls/2/requested_reviewers")
    assert [u["login"] for u in requested["users"]] == ["hubot"]
    search = json.loads(
        ok(gh_env, "search", "prs", "--review-requested", "hubot", "--json", "number")
    )
    assert search == [{"number": 2}]
    # the requested reviewer's review answers the request
    ok(as_hubot(gh_env), "pr", "review", "2", "-R", REPO, "--comment", "-b", "ok")
    assert api(gh_env, f"repos/{REPO}/pulls/2/requested_reviewers")["users"] == []
    assert PEOPLE_OPERATIONS[gh_build.version] <= set(operations(seeded))
    # nobody by that login: 2.23 finds none among the assignable users, 2.102's mutation
    # is NOT_FOUND; either way nothing changes
    stranger = gh(gh_env, "pr", "edit", "2", "-R", REPO, "--add-assignee", "nobody")
    assert stranger.returncode == 1 and "'nobody'" in stranger.stderr
    assert sorted(a["login"] for a in api(gh_env, f"repos/{REPO}/issues/2")["assignees"]) == [
        "hubot",
        "octo",
    ]


def test_issue_delete_transfer_and_pin(gh_env: dict[str, str], seeded: Any) -> None:
    ok(gh_env, "issue", "pin", "1", "-R", REPO)
    assert json.loads(ok(gh_env, "issue", "view", "1", "-R", REPO, "--json", "number"))
    pinned = seeded.emulator.store.issue(seeded.emulator.store.repo("acme", "todo"), 1)
    assert pinned.pinned
    ok(gh_env, "issue", "unpin", "1", "-R", REPO)
    assert not pinned.pinned
    moved = ok(gh_env, "issue", "transfer", "1", "acme/other", "-R", REPO)
    assert moved.strip() == "https://github.com/acme/other/issues/1"
    assert api(gh_env, "repos/acme/other/issues/1")["title"] == "Bug one"
    gone = gh(gh_env, "issue", "view", "1", "-R", REPO)
    assert gone.returncode == 1
    ok(gh_env, "issue", "delete", "1", "-R", "acme/other", "--yes")
    missing = gh(gh_env, "api", "repos/acme/other/issues/1")
    assert missing.returncode == 1 and "Not Found (HTTP 404)" in missing.stderr
    assert {"IssuePin", "IssueUnpin", "IssueTransfer", "IssueDelete"} <= set(operations(seeded))


def test_pr_create_with_a_label_or_as_a_draft(gh_env: dict[str, str], seeded: Any) -> None:
    args = ["pr", "create", "-R", REPO, "-b", "body"]
    ok(gh_env, *args, "-t", "Labelled", "-H", "feat/c", "-l", "bug", "-a", "hubot")
    ok(gh_env, *args, "-t", "Drafted", "-H", "feat/d", "--draft")
    labelled, drafted = api(gh_env, f"repos/{REPO}/pulls/4"), api(gh_env, f"repos/{REPO}/pulls/5")
    assert [x["name"] for x in labelled["labels"]] == ["bug"]
    assert [a["login"] for a in labelled["assignees"]] == ["hubot"]
    assert (drafted["draft"], drafted["mergeable_state"]) == (True, "draft")
    # no half-made pull request: one each, nothing else
    assert [p["number"] for p in api(gh_env, f"repos/{REPO}/pulls")] == [5, 4, 3, 2]
