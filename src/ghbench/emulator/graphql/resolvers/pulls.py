"""Pull requests, their commits, reviews, review threads and comments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.checks import rollup_for
from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    iso,
    repo_url_of,
    store_of,
)
from ghbench.emulator.graphql.resolvers.labels import item_labels
from ghbench.emulator.graphql.resolvers.people import ASSIGNABLE_FIELDS, review_requests
from ghbench.emulator.graphql.resolvers.reactions import REACTABLE_FIELDS
from ghbench.emulator.graphql.resolvers.repository import actor
from ghbench.emulator.graphql.resolvers.timeline import PULL_TIMELINE_FIELDS, TIMELINE_FIELDS
from ghbench.emulator.graphql.resolvers.views import (
    CommitView,
    PullCommitView,
    RefView,
    synthetic_id,
)
from ghbench.emulator.state.trees import MAX_LISTED_FILES, DiffStat, FileChange, diff_stat

if TYPE_CHECKING:
    from ghbench.emulator.state import (
        PullRequest,
        Repo,
        Review,
        ReviewComment,
        ReviewThread,
    )

__all__ = [
    "CHANGED_FILE_FIELDS",
    "PULL_COMMIT_FIELDS",
    "PULL_FIELDS",
    "REVIEW_COMMENT_FIELDS",
    "REVIEW_FIELDS",
    "THREAD_FIELDS",
    "association",
    "pull_url",
]


# How far back a pull request's commit list is followed (GitHub lists up to 250).
_MAX_PULL_COMMITS = 250
_MERGE_STATE = {
    "clean": "CLEAN",
    "dirty": "DIRTY",
    "blocked": "BLOCKED",
    "unstable": "UNSTABLE",
    "behind": "BEHIND",
    "has_hooks": "HAS_HOOKS",
    "draft": "DRAFT",
    "unknown": "UNKNOWN",
}
_MERGEABLE = {True: "MERGEABLE", False: "CONFLICTING", None: "UNKNOWN"}


def _repo(pull: PullRequest, info: Info) -> Repo:
    return store_of(info).repos[pull.repo_id]


def pull_url(pull: PullRequest, info: Info) -> str:
    return f"{repo_url_of(info, pull.repo_id)}/pull/{pull.number}"


def pull_commits(pull: PullRequest, info: Info) -> list[PullCommitView]:
    """git's ``base..head``, parents first, the first 250 (REST's pulls/{n}/commits)."""
    repo = _repo(pull, info)
    commits = store_of(info).pull_commits(pull)[:_MAX_PULL_COMMITS]
    return [PullCommitView(pull, CommitView(repo, c)) for c in commits]


def _state(pull: PullRequest, _: Info) -> str:
    if pull.merged:
        return "MERGED"
    return pull.state.upper()


def _merge_state_status(pull: PullRequest, info: Info) -> str:
    """REST's ``mergeable_state`` (one rule for both: ``Store.merge_state``)."""
    return _MERGE_STATE.get(store_of(info).merge_state(pull), "UNKNOWN")


def _reviews(pull: PullRequest, info: Info, **args: Any) -> Any:
    reviews: list[Review] = list(store_of(info).reviews(pull))
    if args.get("states"):
        reviews = [r for r in reviews if r.state in args["states"]]
    if args.get("author"):
        login = args["author"].lower()
        store = store_of(info)
        reviews = [r for r in reviews if store.users[r.user_id].login.lower() == login]
    return paginate(reviews, **args)


def _latest_reviews(pull: PullRequest, info: Info, **args: Any) -> Any:
    latest: dict[int, Review] = {}
    for review in store_of(info).reviews(pull):
        if review.state != "PENDING":
            latest[review.user_id] = review
    return paginate(list(latest.values()), **args)


def _head_commit(pull: PullRequest, info: Info) -> CommitView | None:
    repo = _repo(pull, info)
    commit = store_of(info).commit(repo, pull.head_sha)
    return None if commit is None else CommitView(repo, commit)


def _merge_commit(pull: PullRequest, info: Info) -> CommitView | None:
    if pull.merge_commit_sha is None:
        return None
    repo = _repo(pull, info)
    commit = store_of(info).commit(repo, pull.merge_commit_sha)
    return None if commit is None else CommitView(repo, commit)


def _branch_ref(pull: PullRequest, info: Info, branch: str) -> RefView | None:
    repo = _repo(pull, info)
    sha = store_of(info).branch_sha(repo, branch)
    return None if sha is None else RefView(repo, branch, sha)


def _rollup(pull: PullRequest, info: Info) -> Any:
    head = _head_commit(pull, info)
    return None if head is None else rollup_for(info, head)


def _comments(pull: Any, info: Info, **args: Any) -> Any:
    return paginate(store_of(info).issue_comments(_repo(pull, info), pull.number), **args)


def _empty(*_: Any, **args: Any) -> Any:
    return paginate([], **args)


def _diff_stat(pull: PullRequest, info: Info) -> DiffStat:
    # the same diff as REST's files list and full PR shape (cached per head and base)
    return diff_stat(store_of(info).pull_files(pull))


def _files(pull: PullRequest, info: Info, **args: Any) -> Any:
    # REST's files list, page by page: the same diff, the same 3,000-file stop
    return paginate(store_of(info).pull_files(pull)[:MAX_LISTED_FILES], **args)


def association(record: Any, info: Info) -> str:
    """``authorAssociation`` of a record's author in its repository."""
    store = store_of(info)
    return store.association(store.repos[record.repo_id], record.user_id)


def _lock_reason(item: Any, _: Info) -> str | None:
    """GraphQL's LockReason from REST's ``lock_reason`` (``too heated`` -> TOO_HEATED)."""
    reason = item.lock_reason if item.locked else None
    return reason.upper().replace(" ", "_").replace("-", "_") if reason else None


def _review_comments(review: Review, info: Info, **args: Any) -> Any:
    pull = store_of(info).pulls_by_id[review.pull_id]
    found = [c for c in store_of(info).review_comments(pull) if c.review_id == review.id]
    return paginate(found, **args)


def _viewer_did_author(record: Any, info: Info) -> bool:
    return bool(record.user_id == context_of(info).viewer.id)


PULL_FIELDS = {
    "id": lambda p, _: p.node_id,
    "databaseId": lambda p, _: p.id,
    "fullDatabaseId": lambda p, _: str(p.id),  # BigInt: GitHub sends it as a string
    "number": lambda p, _: p.number,
    "title": lambda p, _: p.title,
    "body": lambda p, _: p.body or "",
    "state": _state,
    "isDraft": lambda p, _: p.draft,
    "url": pull_url,
    "resourcePath": lambda p, info: pull_url(p, info).removeprefix(context_of(info).web_url),
    "author": lambda p, info: actor(info, p.user_id),
    "authorAssociation": lambda p, info: store_of(info).association(_repo(p, info), p.user_id),
    "headRefName": lambda p, _: p.head_ref,
    "headRefOid": lambda p, _: p.head_sha,
    "baseRefName": lambda p, _: p.base_ref,
    "baseRefOid": lambda p, _: p.base_sha,
    "headRef": lambda p, info: _branch_ref(p, info, p.head_ref),
    "baseRef": lambda p, info: _branch_ref(p, info, p.base_ref),
    "headRepository": _repo,
    "baseRepository": _repo,
    "repository": _repo,
    "headRepositoryOwner": lambda p, info: store_of(info).users.get(_repo(p, info).owner_id),
    "isCrossRepository": lambda p, _: False,
    "maintainerCanModify": lambda p, _: False,
    "mergeable": lambda p, info: _MERGEABLE[store_of(info).mergeability(p)],
    "mergeStateStatus": _merge_state_status,
    "merged": lambda p, _: p.merged,
    "mergedAt": lambda p, _: iso(p.merged_at),
    "mergedBy": lambda p, info: actor(info, p.merged_by_id),
    "mergeCommit": _merge_commit,
    "potentialMergeCommit": lambda p, info: None if p.merged else _head_commit(p, info),
    "closed": lambda p, _: p.state == "closed",
    "closedAt": lambda p, _: iso(p.closed_at),
    "createdAt": lambda p, _: iso(p.created_at),
    "updatedAt": lambda p, _: iso(p.updated_at),
    "additions": lambda p, info: _diff_stat(p, info).additions,
    "deletions": lambda p, info: _diff_stat(p, info).deletions,
    "changedFiles": lambda p, info: _diff_stat(p, info).changed_files,
    "files": _files,
    "isInMergeQueue": lambda p, _: False,
    "isMergeQueueEnabled": lambda p, _: False,
    "viewerCanMergeAsAdmin": lambda p, _: False,
    "viewerDidAuthor": _viewer_did_author,
    "reviewDecision": lambda p, info: store_of(info).review_decision(p),
    "commits": lambda p, info, **args: paginate(pull_commits(p, info), **args),
    "reviews": _reviews,
    "latestReviews": _latest_reviews,
    "reviewThreads": lambda p, info, **args: paginate(store_of(info).review_threads(p), **args),
    "reviewRequests": review_requests,
    "comments": _comments,
    "labels": item_labels,
    **ASSIGNABLE_FIELDS,
    "projectCards": _empty,
    "projectItems": _empty,
    "viewerCanLabel": lambda p, _: True,
    "milestone": lambda p, _: None,
    **REACTABLE_FIELDS,
    "statusCheckRollup": _rollup,
    "locked": lambda p, _: p.locked,
    "activeLockReason": _lock_reason,
    **PULL_TIMELINE_FIELDS,
}

# REST's file status (git's diff, renames detected) -> GraphQL's PatchStatus
_CHANGE_TYPES = {
    "added": "ADDED",
    "modified": "MODIFIED",
    "removed": "DELETED",
    "renamed": "RENAMED",
    "copied": "COPIED",
    "changed": "CHANGED",
}


def _change_type(change: FileChange, _: Info) -> str:
    return _CHANGE_TYPES[change.status]


CHANGED_FILE_FIELDS = {
    "path": lambda f, _: f.path,
    "additions": lambda f, _: f.additions,
    "deletions": lambda f, _: f.deletions,
    "changeType": _change_type,
    # no one marks files as viewed here (no markFileAsViewed mutation)
    "viewerViewedState": lambda f, _: "UNVIEWED",
}

PULL_COMMIT_FIELDS = {
    "id": lambda pc, _: synthetic_id("PURC", f"{pc.pull.node_id}:{pc.commit.commit.sha}"),
    "commit": lambda pc, _: pc.commit,
    "pullRequest": lambda pc, _: pc.pull,
    "url": lambda pc, info: f"{pull_url(pc.pull, info)}/commits/{pc.commit.commit.sha}",
}


def _review_url(review: Review, info: Info) -> str:
    pull = store_of(info).pulls_by_id[review.pull_id]
    return f"{pull_url(pull, info)}#pullrequestreview-{review.id}"


REVIEW_FIELDS = {
    "id": lambda r, _: r.node_id,
    "databaseId": lambda r, _: r.id,
    "author": lambda r, info: actor(info, r.user_id),
    "authorAssociation": association,
    "body": lambda r, _: r.body,
    "state": lambda r, _: r.state,
    "submittedAt": lambda r, _: iso(r.submitted_at),
    "createdAt": lambda r, info: iso(r.submitted_at or store_of(info).now()),
    "url": _review_url,
    "pullRequest": lambda r, info: store_of(info).pulls_by_id[r.pull_id],
    "commit": lambda r, _: None,
    "comments": _review_comments,
    **REACTABLE_FIELDS,
}


def _thread_comments(thread: ReviewThread, info: Info, **args: Any) -> Any:
    comments = store_of(info).thread_comments(thread)
    skip = args.get("skip") or 0
    return paginate(comments[skip:], **args)


THREAD_FIELDS = {
    "id": lambda t, _: t.node_id,
    "isResolved": lambda t, _: t.is_resolved,
    "isOutdated": lambda t, _: t.is_outdated,
    "isCollapsed": lambda t, _: t.is_resolved,
    "path": lambda t, _: t.path,
    "line": lambda t, _: None if t.is_outdated else t.line,
    "originalLine": lambda t, _: t.line,
    "startLine": lambda t, _: None,
    "diffSide": lambda t, _: "RIGHT",
    "resolvedBy": lambda t, info: actor(info, t.resolved_by_id),
    "pullRequest": lambda t, info: store_of(info).pulls_by_id[t.pull_id],
    "repository": lambda t, info: store_of(info).repos[t.repo_id],
    "comments": _thread_comments,
}


def _review_comment_url(comment: ReviewComment, info: Info) -> str:
    pull = store_of(info).pulls_by_id[comment.pull_id]
    return f"{pull_url(pull, info)}#discussion_r{comment.id}"


# what every comment answers: an issue's, a review's (issues.ISSUE_COMMENT_FIELDS)
COMMENT_FIELDS: dict[str, Any] = {
    "id": lambda c, _: c.node_id,
    "databaseId": lambda c, _: c.id,
    "author": lambda c, info: actor(info, c.user_id),
    "authorAssociation": association,
    "body": lambda c, _: c.body,
    "createdAt": lambda c, _: iso(c.created_at),
}

REVIEW_COMMENT_FIELDS = {
    **COMMENT_FIELDS,
    "url": _review_comment_url,
    "path": lambda c, _: c.path,
    "line": lambda c, _: c.line,
    "originalLine": lambda c, _: c.line,
    "diffHunk": lambda c, _: c.diff_hunk,
    "outdated": lambda c, info: store_of(info).threads_by_id[c.thread_id].is_outdated,
    "pullRequest": lambda c, info: store_of(info).pulls_by_id[c.pull_id],
    "replyTo": lambda c, info: (
        store_of(info).review_comments_by_id.get(c.in_reply_to_id)
        if c.in_reply_to_id is not None
        else None
    ),
    **REACTABLE_FIELDS,
}

COMMON_ISSUE_FIELDS = {
    "locked": lambda i, _: i.locked,
    "activeLockReason": _lock_reason,
    **TIMELINE_FIELDS,
    "comments": _comments,
    "labels": item_labels,
    **ASSIGNABLE_FIELDS,
    "projectCards": _empty,
    "projectItems": _empty,
    "viewerCanLabel": lambda i, _: True,
    **REACTABLE_FIELDS,
    "viewerDidAuthor": _viewer_did_author,
}
