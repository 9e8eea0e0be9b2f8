"""Issues, issue comments and reaction groups.

What the emulator does not model reads as an issue without it, which is what GitHub
answers for one: no issue type (types are an organization's, and none is defined
here), no parent, no sub-issues (``subIssuesSummary`` all zero), no issue blocking it
or blocked by it. gh 2.102's ``issue view`` asks for all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    iso,
    item_url,
    repo_url_of,
    store_of,
)
from ghbench.emulator.graphql.resolvers.pulls import (
    COMMENT_FIELDS,
    COMMON_ISSUE_FIELDS,
    association,
)
from ghbench.emulator.graphql.resolvers.reactions import REACTABLE_FIELDS
from ghbench.emulator.graphql.resolvers.repository import actor

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, IssueComment

__all__ = ["ISSUE_COMMENT_FIELDS", "ISSUE_FIELDS"]


def _issue_url(issue: Issue, info: Info) -> str:
    return f"{repo_url_of(info, issue.repo_id)}/issues/{issue.number}"


def _state_reason(issue: Issue, _: Info, enableDuplicate: bool = False) -> str | None:  # noqa: N803
    """GitHub hides DUPLICATE from clients that do not ask for it (NOT_PLANNED)."""
    if issue.state_reason is None:
        return None
    reason = issue.state_reason.upper()
    return "NOT_PLANNED" if reason == "DUPLICATE" and not enableDuplicate else reason


def _no_issues(*_: Any, **args: Any) -> Any:
    return paginate([], **args)


_NO_SUB_ISSUES = {"total": 0, "completed": 0, "percentCompleted": 0}


def _closed_by(
    issue: Issue,
    info: Info,
    includeClosedPrs: bool = False,  # noqa: N803 - GitHub's argument names
    orderByState: bool = False,  # noqa: N803
    userLinkedOnly: bool = False,  # noqa: N803
    **args: Any,
) -> Any:
    """``closedByPullRequestsReferences``: the open pull requests whose body closes the
    issue (closed and merged ones too with ``includeClosedPrs``; open ones first with
    ``orderByState``). Links made by hand are not modelled: ``userLinkedOnly`` finds
    none."""
    pulls = [] if userLinkedOnly else store_of(info).closing_pulls(issue)
    if not includeClosedPrs:
        pulls = [p for p in pulls if p.state == "open"]
    if orderByState:
        pulls.sort(key=lambda p: p.state != "open")
    return paginate(pulls, **args)


ISSUE_FIELDS: dict[str, Any] = {
    **COMMON_ISSUE_FIELDS,
    "id": lambda i, _: i.node_id,
    "databaseId": lambda i, _: i.id,
    "number": lambda i, _: i.number,
    "title": lambda i, _: i.title,
    "body": lambda i, _: i.body or "",
    "state": lambda i, _: i.state.upper(),
    "stateReason": _state_reason,
    "url": _issue_url,
    "resourcePath": lambda i, info: _issue_url(i, info).removeprefix(context_of(info).web_url),
    "author": lambda i, info: actor(info, i.user_id),
    "authorAssociation": association,
    "closed": lambda i, _: i.state == "closed",
    "closedAt": lambda i, _: iso(i.closed_at),
    "createdAt": lambda i, _: iso(i.created_at),
    "updatedAt": lambda i, _: iso(i.updated_at),
    "isPinned": lambda i, _: i.pinned,
    "milestone": lambda i, _: None,
    "repository": lambda i, info: store_of(info).repos[i.repo_id],
    "issueType": lambda i, _: None,
    "parent": lambda i, _: None,
    "subIssues": _no_issues,
    "subIssuesSummary": lambda i, _: _NO_SUB_ISSUES,
    "blockedBy": _no_issues,
    "blocking": _no_issues,
    "closedByPullRequestsReferences": _closed_by,
}


def _comment_url(comment: IssueComment, info: Info) -> str:
    return f"{item_url(info, comment.repo_id, comment.number)}#issuecomment-{comment.id}"


ISSUE_COMMENT_FIELDS: dict[str, Any] = {
    **COMMENT_FIELDS,
    "includesCreatedEdit": lambda c, _: c.updated_at != c.created_at,
    "isMinimized": lambda c, _: False,
    "minimizedReason": lambda c, _: None,
    **REACTABLE_FIELDS,
    "url": _comment_url,
    "viewerDidAuthor": lambda c, info: c.user_id == context_of(info).viewer.id,
}
