"""Review threads (resolve, reply), locks and auto-merge, with GitHub's refusals."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator
from ghbench.emulator.state import PullRequest, User


def _pull(emulator: Emulator) -> tuple[PullRequest, User]:
    store = emulator.store
    octo = store.user("octo")
    assert octo is not None
    repo = store.get_repo("acme", "todo")
    return store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True), octo


def _error(answer: Any) -> tuple[str, str]:
    (error,) = answer["errors"]
    return error["type"], error["message"]


def test_resolve_unresolve_and_reply_to_a_thread(emulator: Emulator) -> None:
    pull, octo = _pull(emulator)
    store = emulator.store
    first = store.add_review_comment(pull, octo, "look", path="README.md", line=1)
    (thread,) = store.review_threads(pull)
    resolve = """mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) {
      thread { isResolved resolvedBy { login } } } }"""
    unresolve = """mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) {
      thread { isResolved resolvedBy { login } } } }"""
    done = graphql(emulator, resolve, id=thread.node_id)["data"]["resolveReviewThread"]
    assert done["thread"] == {"isResolved": True, "resolvedBy": {"login": "octo"}}
    undone = graphql(emulator, unresolve, id=thread.node_id)["data"]["unresolveReviewThread"]
    assert undone["thread"] == {"isResolved": False, "resolvedBy": None}
    reply = """mutation($id: ID!, $body: String!) { addPullRequestReviewThreadReply(input: {
      pullRequestReviewThreadId: $id, body: $body}) { comment { body replyTo { id } } } }"""
    answered = graphql(emulator, reply, id=thread.node_id, body="done")
    comment = answered["data"]["addPullRequestReviewThreadReply"]["comment"]
    assert comment == {"body": "done", "replyTo": {"id": first.node_id}}
    assert _error(graphql(emulator, reply, id=thread.node_id, body=" ")) == (
        "UNPROCESSABLE",
        "Body can't be blank",
    )
    assert _error(graphql(emulator, resolve, id=pull.node_id))[0] == "NOT_FOUND"


def test_lock_with_a_reason_and_unlock(emulator: Emulator) -> None:
    pull, _ = _pull(emulator)
    lock = """mutation($id: ID!) { lockLockable(input: {lockableId: $id, lockReason: TOO_HEATED})
      { lockedRecord { locked activeLockReason } actor { login } } }"""
    locked = graphql(emulator, lock, id=pull.node_id)["data"]["lockLockable"]
    assert locked == {
        "lockedRecord": {"locked": True, "activeLockReason": "TOO_HEATED"},
        "actor": {"login": "octo"},
    }
    assert pull.lock_reason == "too heated"
    unlock = """mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) {
      unlockedRecord { locked } } }"""
    assert graphql(emulator, unlock, id=pull.node_id)["data"]["unlockLockable"] == {
        "unlockedRecord": {"locked": False}
    }


def test_auto_merge_needs_the_repository_to_allow_it_and_a_pull_request_that_waits(
    emulator: Emulator,
) -> None:
    pull, _ = _pull(emulator)
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    enable = """mutation($id: ID!) { enablePullRequestAutoMerge(input: {pullRequestId: $id,
      mergeMethod: SQUASH}) { pullRequest { autoMergeRequest { mergeMethod } } } }"""
    assert _error(graphql(emulator, enable, id=pull.node_id)) == (
        "UNPROCESSABLE",
        "Auto merge is not allowed for this repository",
    )
    repo.allow_auto_merge = True
    store.mergeability(pull)
    assert _error(graphql(emulator, enable, id=pull.node_id)) == (
        "UNPROCESSABLE",
        "Pull request is in clean status",
    )
    store.protect(repo, "main", required_reviews=1)
    enabled = graphql(emulator, enable, id=pull.node_id)["data"]["enablePullRequestAutoMerge"]
    assert enabled["pullRequest"]["autoMergeRequest"] == {"mergeMethod": "SQUASH"}
    disable = """mutation($id: ID!) { disablePullRequestAutoMerge(input: {pullRequestId: $id}) {
      pullRequest { autoMergeRequest { mergeMethod } } } }"""
    disabled = graphql(emulator, disable, id=pull.node_id)["data"]["disablePullRequestAutoMerge"]
    assert disabled["pullRequest"]["autoMergeRequest"] is None
