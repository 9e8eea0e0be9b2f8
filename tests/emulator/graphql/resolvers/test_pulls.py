"""A pull request in GraphQL: state, mergeability and merge state, reviews, diff totals,
refs and its commits."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_PULL = """query($n: Int!) { repository(owner: "acme", name: "todo") { pullRequest(number: $n) {
  state merged mergeable mergeStateStatus reviewDecision locked activeLockReason
  additions deletions changedFiles url resourcePath authorAssociation viewerDidAuthor
  headRef { name } mergeCommit { oid } potentialMergeCommit { oid }
  commits(first: 5) { totalCount nodes { commit { messageHeadline } } }
  reviews(first: 5, states: [APPROVED]) { nodes { author { login } } }
  latestReviews(first: 5) { nodes { state author { login } } } } } }"""


def _pull_of(emulator: Emulator, number: int) -> Any:
    return graphql(emulator, _PULL, n=number)["data"]["repository"]["pullRequest"]


def test_an_open_pull_request(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    bob = store.ensure_user("bob")
    assert octo is not None
    store.commit_to_branch(repo, "feat/x", "one", files={"a.txt": b"1\n2\n"})
    store.commit_to_branch(repo, "feat/x", "two", files={"README.md": None})
    pull = store.create_pull(repo, octo, "p", "feat/x", "main")
    store.protect(repo, "main", required_reviews=1)
    store.add_review(pull, bob, "CHANGES_REQUESTED", body="no")
    store.add_review(pull, bob, "APPROVED")
    store.add_review(pull, octo, "PENDING")
    store.set_locked(pull, True, "off-topic")
    store.mergeability(pull)  # computed, as a request before this one would have
    found = _pull_of(emulator, pull.number)
    assert (found["state"], found["merged"], found["mergeable"]) == ("OPEN", False, "MERGEABLE")
    assert found["mergeStateStatus"] == "CLEAN" and found["reviewDecision"] == "APPROVED"
    assert (found["locked"], found["activeLockReason"]) == (True, "OFF_TOPIC")
    assert (found["additions"], found["deletions"], found["changedFiles"]) == (2, 1, 2)
    assert found["url"] == f"https://github.com/acme/todo/pull/{pull.number}"
    assert found["resourcePath"] == f"/acme/todo/pull/{pull.number}"
    assert (found["authorAssociation"], found["viewerDidAuthor"]) == ("COLLABORATOR", True)
    assert found["headRef"] == {"name": "feat/x"} and found["mergeCommit"] is None
    assert found["potentialMergeCommit"] == {"oid": pull.head_sha}
    assert found["commits"]["totalCount"] == 2
    assert [c["commit"]["messageHeadline"] for c in found["commits"]["nodes"]] == ["one", "two"]
    assert found["reviews"]["nodes"] == [{"author": {"login": "bob"}}]
    assert found["latestReviews"]["nodes"] == [{"state": "APPROVED", "author": {"login": "bob"}}]


def test_a_merged_pull_request_whose_head_branch_is_gone(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    sha = store.merge_pull(pull, octo, method="squash")
    store.delete_ref(repo, "heads/feat/x")
    found = _pull_of(emulator, pull.number)
    assert (found["state"], found["merged"], found["mergeable"]) == ("MERGED", True, "UNKNOWN")
    assert found["mergeCommit"] == {"oid": sha} and found["potentialMergeCommit"] is None
    assert found["headRef"] is None and found["commits"]["totalCount"] == 1
