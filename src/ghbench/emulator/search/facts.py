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


def reviews_state(store: Store, pull: PullRequest) -> str | None:
    """What search's ``review:`` sees: CHANGES_REQUESTED or APPROVED from each
    reviewer's latest decisive review, whatever the branch's protection requires (unlike
    GraphQL's ``reviewDecision``, which is null without required reviews)."""
    decisions = {r.state for r in store.latest_reviews(pull).values()}
    if "CHANGES_REQUESTED" in decisions:
        return "CHANGES_REQUESTED"
    if "APPROVED" in decisions:
        return "APPROVED"
    return None


def ci_state(store: Store, pull: PullRequest) -> str | None:
    """The head commit's combined CI state (statuses and check runs, latest each), or
    None when it has neither: success, failure or pending."""
    states = store.check_states(store.repos[pull.repo_id], pull.head_sha).values()
    if not states:
        return None
    for worst in ("failure", "pending"):
        if worst in states:
            return worst
    return "success"
