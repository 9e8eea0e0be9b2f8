"""What happened to an issue or pull request, and who took part: ``timelineItems``,
``closingIssuesReferences``, ``participants``, ``autoMergeRequest``, and the event
types of the timeline (one field table, cut per type).

Timeline items are the recorded events (``state/events.py``) that have a GraphQL type
here, issue comments, a pull request's submitted reviews and its commits, oldest
first; ``itemTypes`` keeps the named types, ``since`` what happened at or after it,
``skip`` drops the first ones.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import Page, paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    iso,
    item_url,
    store_of,
)
from ghbench.emulator.graphql.resolvers.nodes import EVENT_TYPENAMES, typename_of
from ghbench.emulator.graphql.resolvers.views import CommitView, PullCommitView
from ghbench.timefmt import parse_iso

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, IssueEvent, PullRequest, User

__all__ = [
    "EVENT_FIELDS",
    "PULL_TIMELINE_FIELDS",
    "TIMELINE_CONNECTION_FIELDS",
    "TIMELINE_FIELDS",
]


class TimelinePage(Page):
    """A page of timeline items, with the item's last update."""

    updated_at: float = 0.0


def _item_type(value: Any) -> str:
    """``ClosedEvent`` -> ``CLOSED_EVENT`` (GitHub's ``*TimelineItemsItemType``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", typename_of(value) or "").upper()


def _when(value: Any) -> float:
    if isinstance(value, PullCommitView):
        return value.commit.commit.created_at
    return float(getattr(value, "submitted_at", None) or value.created_at)


def _timeline(
    item: Issue | PullRequest,
    info: Info,
    since: str | None = None,
    skip: int | None = None,
    itemTypes: list[str] | None = None,  # noqa: N803 - GitHub's argument
    **args: Any,
) -> TimelinePage:
    store = store_of(info)
    repo = store.repos[item.repo_id]
    found: list[Any] = [e for e in store.events(item) if e.event in EVENT_TYPENAMES]
    found += store.issue_comments(repo, item.number)
    if typename_of(item) == "PullRequest":
        pull: PullRequest = item  # type: ignore[assignment]
        found += [r for r in store.reviews(pull) if r.submitted_at is not None]
        found += [PullCommitView(pull, CommitView(repo, c)) for c in store.pull_commits(pull)]
    found.sort(key=_when)
    if since:
        cutoff = parse_iso(since)
        found = [x for x in found if _when(x) >= cutoff]
    if itemTypes:
        wanted = set(itemTypes)
        found = [x for x in found if _item_type(x) in wanted]
    page = paginate(found[skip or 0 :], page_type=TimelinePage, **args)
    assert isinstance(page, TimelinePage)
    page.updated_at = item.updated_at
    return page


TIMELINE_CONNECTION_FIELDS: dict[str, Any] = {
    "filteredCount": lambda p, _: p.totalCount,
    "pageCount": lambda p, _: len(p.nodes),
    "updatedAt": lambda p, _: iso(p.updated_at),
}


def _participants(item: Issue | PullRequest, info: Info, **args: Any) -> Page:
    """The author, then commenters and reviewers, each once, by first appearance."""
    store = store_of(info)
    repo = store.repos[item.repo_id]
    ids = [item.user_id]
    ids += [c.user_id for c in store.issue_comments(repo, item.number)]
    if typename_of(item) == "PullRequest":
        pull: PullRequest = item  # type: ignore[assignment]
        ids += [r.user_id for r in store.reviews(pull)]
        ids += [c.user_id for c in store.review_comments(pull)]
    users = [store.users[i] for i in dict.fromkeys(ids) if i in store.users]
    return paginate([u for u in users if u.type == "User"], **args)


def _auto_merge(pull: PullRequest, info: Info) -> dict[str, Any] | None:
    if pull.auto_merge_method is None:
        return None
    enabler = store_of(info).users.get(pull.auto_merge_by_id or 0)
    return {
        "enabledAt": iso(pull.auto_merge_at),
        "enabledBy": enabler,
        "mergeMethod": pull.auto_merge_method.upper(),
        "commitHeadline": None,
        "commitBody": None,
        "authorEmail": None,
        "pullRequest": pull,
    }


TIMELINE_FIELDS: dict[str, Any] = {
    "timelineItems": _timeline,
    "participants": _participants,
}
PULL_TIMELINE_FIELDS: dict[str, Any] = {
    **TIMELINE_FIELDS,
    "autoMergeRequest": _auto_merge,
    "closingIssuesReferences": lambda p, info, **args: paginate(
        store_of(info).closing_issues(p), **args
    ),
}


# -- the event types ---------------------------------------------------------------
def _subject(event: IssueEvent, info: Info) -> Issue | PullRequest | None:
    store = store_of(info)
    key = (event.repo_id, event.number)
    return store.issues_by_number.get(key) or store.pulls_by_number.get(key)


def _url(event: IssueEvent, info: Info) -> str:
    return f"{item_url(info, event.repo_id, event.number)}#event-{event.id}"


def _closer(event: IssueEvent, info: Info) -> Any:
    store = store_of(info)
    if event.closer_number is not None:
        return store.pulls_by_number.get((event.repo_id, event.closer_number))
    commit = store.commits.get((event.repo_id, event.commit_id or ""))
    return None if commit is None else CommitView(store.repos[event.repo_id], commit)


def _commit(event: IssueEvent, info: Info) -> CommitView | None:
    store = store_of(info)
    commit = store.commits.get((event.repo_id, event.commit_id or ""))
    return None if commit is None else CommitView(store.repos[event.repo_id], commit)


def _label(event: IssueEvent, info: Info) -> Any:
    store = store_of(info)
    return store.label(store.repos[event.repo_id], event.label or "")


def _user(user_id: int | None, info: Info) -> User | None:
    return store_of(info).users.get(user_id) if user_id is not None else None


_EVENT_FIELD_RESOLVERS: dict[str, Any] = {
    "id": lambda e, _: e.node_id,
    "createdAt": lambda e, _: iso(e.created_at),
    "actor": lambda e, info: _user(e.actor_id, info),
    "closable": _subject,
    "closer": _closer,
    "stateReason": lambda e, _: e.state_reason.upper() if e.state_reason else None,
    "resourcePath": lambda e, info: _url(e, info).removeprefix(context_of(info).web_url),
    "url": _url,
    "commit": _commit,
    "mergeRefName": lambda e, info: getattr(_subject(e, info), "base_ref", ""),
    "pullRequest": _subject,
    "label": _label,
    "labelable": _subject,
    "assignable": _subject,
    "assignee": lambda e, info: _user(e.subject_id, info),
    "lockReason": lambda e, _: (e.lock_reason or "").upper().replace(" ", "_") or None,
    "lockable": _subject,
    "currentTitle": lambda e, _: e.rename_to or "",
    "previousTitle": lambda e, _: e.rename_from or "",
    "subject": _subject,
    "headRefName": lambda e, info: getattr(_subject(e, info), "head_ref", ""),
    "requestedReviewer": lambda e, info: _user(e.subject_id, info),
    "enabler": lambda e, info: _user(e.actor_id, info),
    "disabler": lambda e, info: _user(e.actor_id, info),
    "reason": lambda _e, _i: None,
    "reasonCode": lambda _e, _i: None,
}
# the fields each event type has (schema_fields.yaml)
_EVENT_TYPE_FIELDS = {
    "ClosedEvent": "actor closable closer createdAt id resourcePath stateReason url",
    "ReopenedEvent": "actor closable createdAt id stateReason",
    "MergedEvent": "actor commit createdAt id mergeRefName pullRequest resourcePath url",
    "LabeledEvent": "actor createdAt id label labelable",
    "UnlabeledEvent": "actor createdAt id label labelable",
    "AssignedEvent": "actor assignable assignee createdAt id",
    "UnassignedEvent": "actor assignable assignee createdAt id",
    "LockedEvent": "actor createdAt id lockReason lockable",
    "UnlockedEvent": "actor createdAt id lockable",
    "RenamedTitleEvent": "actor createdAt currentTitle id previousTitle subject",
    "HeadRefDeletedEvent": "actor createdAt headRefName id pullRequest",
    "HeadRefRestoredEvent": "actor createdAt id pullRequest",
    "ReadyForReviewEvent": "actor createdAt id pullRequest resourcePath url",
    "ConvertToDraftEvent": "actor createdAt id pullRequest resourcePath url",
    "ReviewRequestedEvent": "actor createdAt id pullRequest requestedReviewer",
    "AutoMergeEnabledEvent": "actor createdAt enabler id pullRequest",
    "AutoMergeDisabledEvent": "actor createdAt disabler id pullRequest reason reasonCode",
}
EVENT_FIELDS: dict[str, dict[str, Any]] = {
    typename: {name: _EVENT_FIELD_RESOLVERS[name] for name in fields.split()}
    for typename, fields in _EVENT_TYPE_FIELDS.items()
}
