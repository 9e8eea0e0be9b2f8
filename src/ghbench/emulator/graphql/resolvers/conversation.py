"""Mutations on a conversation: review threads (resolve, unresolve, reply), locks and
auto-merge.

``enablePullRequestAutoMerge`` answers as GitHub does when it cannot be enabled: the
repository must allow auto-merge (``allow_auto_merge``), and a pull request that may
be merged now is refused ("Pull request is in clean status"; GitHub wants the merge
itself then, which is what gh does for a clean one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.context import Info, context_of, github_error, store_of
from ghbench.emulator.graphql.resolvers.nodes import node_of, payload

if TYPE_CHECKING:
    from ghbench.emulator.state import PullRequest, ReviewThread

__all__ = ["CONVERSATION_MUTATIONS"]

# LockReason -> REST's lock_reason
_LOCK_REASONS = {
    "OFF_TOPIC": "off-topic",
    "TOO_HEATED": "too heated",
    "RESOLVED": "resolved",
    "SPAM": "spam",
}


def _set_resolved(resolved: bool) -> Any:
    """``resolveReviewThread`` / ``unresolveReviewThread``."""

    def mutate(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
        thread: ReviewThread = node_of(info, input["threadId"], "PullRequestReviewThread")
        store_of(info).resolve_thread(thread, context_of(info).viewer, resolved=resolved)
        return payload(input, thread=thread)

    return mutate


def _thread_reply(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    """A reply in the thread (``pullRequestReviewThreadId``), to its first comment."""
    thread: ReviewThread = node_of(
        info, input["pullRequestReviewThreadId"], "PullRequestReviewThread"
    )
    if not input["body"].strip():
        raise github_error("UNPROCESSABLE", "Body can't be blank")
    store = store_of(info)
    first = store.thread_comments(thread)[0]
    pull = store.pulls_by_id[thread.pull_id]
    viewer = context_of(info).viewer
    comment = store.add_review_comment(pull, viewer, input["body"], in_reply_to=first.id)
    return payload(input, comment=comment)


def _lock(locked: bool) -> Any:
    """``lockLockable`` (with ``lockReason``) / ``unlockLockable``."""

    def mutate(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
        item = node_of(info, input["lockableId"], "Issue", "PullRequest")
        reason = _LOCK_REASONS.get(str(input.get("lockReason"))) if locked else None
        store_of(info).set_locked(item, locked, reason)
        record = {"lockedRecord" if locked else "unlockedRecord": item}
        return payload(input, actor=context_of(info).viewer, **record)

    return mutate


def _enable_auto_merge(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    store = store_of(info)
    if not store.repos[pull.repo_id].allow_auto_merge:
        raise github_error("UNPROCESSABLE", "Auto merge is not allowed for this repository")
    state = store.merge_state(pull)
    if store.merge_refusal(pull) is None:
        raise github_error("UNPROCESSABLE", f"Pull request is in {state} status")
    method = str(input.get("mergeMethod") or "MERGE").lower()
    store.enable_auto_merge(pull, context_of(info).viewer, method)
    return payload(input, actor=context_of(info).viewer, pullRequest=pull)


def _disable_auto_merge(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    store_of(info).disable_auto_merge(pull)
    return payload(input, actor=context_of(info).viewer, pullRequest=pull)


CONVERSATION_MUTATIONS: dict[str, Any] = {
    "resolveReviewThread": _set_resolved(True),
    "unresolveReviewThread": _set_resolved(False),
    "addPullRequestReviewThreadReply": _thread_reply,
    "lockLockable": _lock(True),
    "unlockLockable": _lock(False),
    "enablePullRequestAutoMerge": _enable_auto_merge,
    "disablePullRequestAutoMerge": _disable_auto_merge,
}
