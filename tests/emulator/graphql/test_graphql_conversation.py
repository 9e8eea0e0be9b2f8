"""GraphQL fields and mutations agents ask for (issue 21 cases 9 and 12), with real gh 2.23
and githubkit's GraphQL client over a socket; every query is also validated against
GitHub's own schema, so nothing here is an invention of the emulator's.

gh: ``issue lock``/``unlock`` (lockLockable), ``repo edit --enable-auto-merge`` then
``pr merge --auto`` on a branch that requires a review (enablePullRequestAutoMerge: it
merges when the review arrives). githubkit: resolveReviewThread,
addPullRequestReviewThreadReply, closingIssuesReferences, timelineItems, reactions
(addReaction), participants, PullRequestReview.comments, Repository.object,
Commit.history, checkSuites and autoMergeRequest.
"""

from __future__ import annotations

import json
from typing import Any

import githubkit
import pytest
from gh_helpers import api, gh, ok, protect
from github_descriptions import githubs_problems

REPO = "acme/todo"
HUBOT = "ghp_hubot000000000000000000000000000000009"


@pytest.fixture
def seeded(emulator_server: Any) -> Any:
    emu = emulator_server.emulator
    emu.create_user("hubot", [HUBOT])
    emu.create_issue(REPO, "Parser bug", body="x", author="octo")
    emu.create_pull(REPO, "fix/1", title="Fix it", body="Fixes #1", author="octo")
    emu.set_ci(REPO, "success", pr=2)
    emu.add_review_comments(REPO, count=1, prs=[2], author="hubot")
    return emulator_server


def _graphql(server: Any, query: str, **variables: Any) -> Any:
    assert githubs_problems(query) == []
    github = githubkit.GitHub(
        githubkit.TokenAuthStrategy(server.token), base_url=server.url, auto_retry=False
    )
    return github.graphql(query, variables)


@pytest.mark.gh
def test_gh_locks_issues_and_auto_merges_after_the_review(
    gh_env: dict[str, str], seeded: Any
) -> None:
    ok(gh_env, "issue", "lock", "1", "-R", REPO, "-r", "resolved")
    issue = api(gh_env, f"repos/{REPO}/issues/1")
    assert (issue["locked"], issue["active_lock_reason"]) == (True, "resolved")
    ok(gh_env, "issue", "unlock", "1", "-R", REPO)
    assert api(gh_env, f"repos/{REPO}/issues/1")["locked"] is False

    protect(
        gh_env, REPO, "main", required_pull_request_reviews={"required_approving_review_count": 1}
    )
    refused = gh(gh_env, "pr", "merge", "2", "-R", REPO, "--squash", "--auto")
    assert refused.returncode == 1
    assert "Auto merge is not allowed for this repository" in refused.stderr
    ok(gh_env, "repo", "edit", REPO, "--enable-auto-merge")
    ok(gh_env, "pr", "merge", "2", "-R", REPO, "--squash", "--auto")
    assert json.loads(ok(gh_env, "pr", "view", "2", "-R", REPO, "--json", "state")) == {
        "state": "OPEN"
    }
    assert api(gh_env, f"repos/{REPO}/pulls/2")["auto_merge"]["merge_method"] == "squash"
    query = (
        'query { repository(owner: "acme", name: "todo") { pullRequest(number: 2) {'
        " autoMergeRequest { mergeMethod enabledBy { login } } } } }"
    )
    assert githubs_problems(query) == []
    request = json.loads(ok(gh_env, "api", "graphql", "-f", f"query={query}"))
    assert request["data"]["repository"]["pullRequest"]["autoMergeRequest"] == {
        "mergeMethod": "SQUASH",
        "enabledBy": {"login": "octo"},
    }
    ok(gh_env | {"GH_TOKEN": HUBOT}, "pr", "review", "2", "-R", REPO, "--approve")
    merged = json.loads(ok(gh_env, "pr", "view", "2", "-R", REPO, "--json", "state,mergedBy"))
    assert (merged["state"], merged["mergedBy"]["login"]) == ("MERGED", "octo")
    assert api(gh_env, f"repos/{REPO}/issues/1")["state"] == "closed"  # Fixes #1


THREADS = """query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { pullRequest(number: 2) {
    reviewThreads(first: 10) { nodes { id isResolved comments(first: 10) { nodes { body } } } }
  } }
}"""


def test_review_threads_resolved_and_replied_to(seeded: Any) -> None:
    threads = _graphql(seeded, THREADS, owner="acme", name="todo")
    (thread,) = threads["repository"]["pullRequest"]["reviewThreads"]["nodes"]
    reply = """mutation($id: ID!) {
      addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: "done"}) {
        comment { body replyTo { databaseId } }
      }
      resolveReviewThread(input: {threadId: $id}) { thread { isResolved resolvedBy { login } } }
    }"""
    done = _graphql(seeded, reply, id=thread["id"])
    assert done["addPullRequestReviewThreadReply"]["comment"]["body"] == "done"
    assert done["resolveReviewThread"]["thread"] == {
        "isResolved": True,
        "resolvedBy": {"login": "octo"},
    }
    after = _graphql(seeded, THREADS, owner="acme", name="todo")
    (thread,) = after["repository"]["pullRequest"]["reviewThreads"]["nodes"]
    assert thread["isResolved"] is True
    assert [c["body"] for c in thread["comments"]["nodes"]][-1] == "done"
    undo = """mutation($id: ID!) {
      unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } }
    }"""
    assert _graphql(seeded, undo, id=thread["id"])["unresolveReviewThread"]["thread"] == {
        "isResolved": False
    }


def test_linked_issues_timelines_reactions_and_people(seeded: Any) -> None:
    emu = seeded.emulator
    pull = """query { repository(owner: "acme", name: "todo") { pullRequest(number: 2) {
      id
      closingIssuesReferences(first: 5) { nodes { number title } }
      participants(first: 10) { nodes { login } }
      reviews(first: 5) { nodes { comments(first: 5) { totalCount } } }
      autoMergeRequest { mergeMethod }
      locked activeLockReason
    } } }"""
    found = _graphql(seeded, pull)["repository"]["pullRequest"]
    assert found["closingIssuesReferences"]["nodes"] == [{"number": 1, "title": "Parser bug"}]
    assert [p["login"] for p in found["participants"]["nodes"]] == ["octo", "hubot"]
    assert found["autoMergeRequest"] is None and found["locked"] is False
    react = """mutation($id: ID!) { addReaction(input: {subjectId: $id, content: ROCKET}) {
      reaction { content user { login } }
      subject { reactionGroups { content users(first: 5) { totalCount } } }
    } }"""
    added = _graphql(seeded, react, id=found["id"])["addReaction"]
    assert added["reaction"] == {"content": "ROCKET", "user": {"login": "octo"}}
    groups = {g["content"]: g["users"]["totalCount"] for g in added["subject"]["reactionGroups"]}
    assert groups["ROCKET"] == 1 and groups["HEART"] == 0
    emu.set_labels(REPO, 1, ["bug"])
    timeline = """query { repository(owner: "acme", name: "todo") { issue(number: 1) {
      timelineItems(first: 10, itemTypes: [LABELED_EVENT, CLOSED_EVENT]) {
        totalCount
        nodes { __typename ... on LabeledEvent { label { name } actor { login } } }
      }
      reactions(first: 5) { totalCount viewerHasReacted }
    } } }"""
    issue = _graphql(seeded, timeline)["repository"]["issue"]
    assert issue["timelineItems"]["nodes"] == [
        {"__typename": "LabeledEvent", "label": {"name": "bug"}, "actor": {"login": "acme"}}
    ]
    assert issue["reactions"] == {"totalCount": 0, "viewerHasReacted": False}


def test_objects_history_and_check_suites(seeded: Any) -> None:
    query = """query { repository(owner: "acme", name: "todo") {
      object(expression: "fix/1") { ... on Commit {
        oid
        history(first: 5) { totalCount nodes { messageHeadline } }
        checkSuites(first: 5) { nodes {
          status conclusion app { slug }
          workflowRun { runNumber workflow { name } }
          checkRuns(first: 5) { nodes { name conclusion } }
        } }
      } }
    } }"""
    commit = _graphql(seeded, query)["repository"]["object"]
    assert [c["messageHeadline"] for c in commit["history"]["nodes"]] == [
        "Fix it",
        "Initial commit",
    ]
    assert commit["checkSuites"]["nodes"] == [
        {
            "status": "COMPLETED",
            "conclusion": "SUCCESS",
            "app": {"slug": "github-actions"},
            "workflowRun": {"runNumber": 1, "workflow": {"name": "CI"}},
            "checkRuns": {"nodes": [{"name": "ci", "conclusion": "SUCCESS"}]},
        }
    ]
