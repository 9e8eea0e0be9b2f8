"""What an issue or pull request is, as search qualifiers and GraphQL fields see it."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ghbench.emulator.state.models import Issue, PullRequest

if TYPE_CHECKING:
    from ghbench.emulator.state import Store

Item = Issue | PullRequest


def pull_of(item: Item) -> PullRequest | None:
    return item if isinstance(item, PullRequest) else None


def login_of(store: Store, user_id: int) -> str:
    user = store.users.get(user_id)
    return user.login.lower() if user else ""


def comments_of(store: Store, item: Item) -> list[tuple[int, str]]:
    """(author id, body) of every comment: issue comments, and a PR's review comments
    and review bodies."""
    out = [(c.user_id, c.body) for c in store.issue_comments_by_number.get(_key(item), [])]
    pull = pull_of(item)
    if pull is not None:
        out += [(c.user_id, c.body) for c in store.review_comments(pull)]
        out += [(r.user_id, r.body) for r in store.reviews(pull) if r.body]
    return out


def _key(item: Item) -> tuple[int, int]:
    return (item.repo_id, item.number)


def comment_count(store: Store, item: Item) -> int:
    """GitHub's ``comments`` count: issue comments (review comments are separate)."""
    return len(store.issue_comments_by_number.get(_key(item), []))


def has_any_label(item: Item, names: Iterable[str]) -> bool:
    """Label names compare case-insensitively on GitHub."""
    wanted = {n.casefold() for n in names}
    return any(label.casefold() in wanted for label in item.labels)


@functools.lru_cache(maxsize=256)
def _mention_pattern(login: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w@])@{re.escape(login)}(?![\w-])", re.IGNORECASE)


def mentions(store: Store, item: Item, login: str) -> bool:
    """``@login`` in the body or a comment."""
    pattern = _mention_pattern(login)
    texts = [item.body or "", *(body for _, body in comments_of(store, item))]
    return any(pattern.search(text) for text in texts)


def involves(store: Store, item: Item, login: str) -> bool:
    """Author, assignee, mentioned or commenter (docs: involves)."""
    wanted = login.lower()
    return (
        login_of(store, item.user_id) == wanted
        or any(login_of(store, uid) == wanted for uid in item.assignees)
        or mentions(store, item, login)
        or any(login_of(store, uid) == wanted for uid, _ in comments_of(store, item))
    )


def review_decision(store: Store, pull: PullRequest) -> str | None:
    """APPROVED / CHANGES_REQUESTED from each reviewer's latest decisive review (a later
    COMMENTED review does not undo one)."""
    latest: dict[int, str] = {}
    for review in store.reviews(pull):
        if review.state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[review.user_id] = review.state
    decisions = set(latest.values())
    if "CHANGES_REQUESTED" in decisions:
        return "CHANGES_REQUESTED"
    if "APPROVED" in decisions:
        return "APPROVED"
    return None


_RUN_STATE = {
    "success": "success",
    "neutral": "success",
    "skipped": "success",
    "failure": "failure",
    "cancelled": "failure",
    "timed_out": "failure",
    "action_required": "failure",
    "startup_failure": "failure",
    "stale": "pending",
}


def ci_state(store: Store, pull: PullRequest) -> str | None:
    """The head commit's combined CI state (statuses and check runs, latest each), or
    None when it has neither: success, failure or pending."""
    repo = store.repos[pull.repo_id]
    states = [
        "failure" if s.state == "error" else s.state
        for s in store.latest_statuses(repo, pull.head_sha)
    ]
    seen: set[str] = set()
    for run in store.check_runs(repo, pull.head_sha):  # newest first
        if run.name in seen:
            continue
        seen.add(run.name)
        done = run.status == "completed"
        states.append(_RUN_STATE.get(run.conclusion or "", "pending") if done else "pending")
    if not states:
        return None
    for worst in ("failure", "pending"):
        if worst in states:
            return worst
    return "success"


def merge_state(store: Store, pull: PullRequest) -> str:
    """REST's ``mergeable_state`` (GraphQL's ``mergeStateStatus``, lower-cased) of an open
    pull request: ``draft``; ``dirty`` when it conflicts; a state set on the record
    (``blocked``, ``behind``, ``unknown``...); ``unstable`` while its head's CI fails or
    is pending (no check is required: there is no branch protection, so a failing check
    never blocks, as GitHub's docs describe ``unstable``); else ``clean``. A closed pull
    request keeps the state on its record (``unknown`` once merged)."""
    if pull.state != "open":
        return pull.mergeable_state
    if pull.draft:
        return "draft"
    if pull.mergeable is False:
        return "dirty"
    if pull.mergeable_state != "clean":
        return pull.mergeable_state
    return "unstable" if ci_state(store, pull) in ("failure", "pending") else "clean"
