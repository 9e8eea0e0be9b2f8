"""Global ids to records, and the GraphQL type of a resolved value.

``node_of(info, id, "Issue", "PullRequest")`` is the record behind a node id when it
is one of those GraphQL types, else GitHub's ``NOT_FOUND`` ("Could not resolve to a
node with the global id of '…'"), which is what GitHub answers for an id of another
kind too.
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.graphql.resolvers.context import Info, github_error, store_of

__all__ = ["EVENT_TYPENAMES", "node_of", "nodes_of", "payload", "typename_of"]

# Store record class name -> GraphQL type name (users are typed by ``User.type``).
_RECORD_TYPENAMES = {
    "Repo": "Repository",
    "PullRequest": "PullRequest",
    "Issue": "Issue",
    "CheckRun": "CheckRun",
    "CommitStatus": "StatusContext",
    "Review": "PullRequestReview",
    "ReviewThread": "PullRequestReviewThread",
    "ReviewComment": "PullRequestReviewComment",
    "IssueComment": "IssueComment",
    "Label": "Label",
    "Reaction": "Reaction",
    "CheckSuite": "CheckSuite",
    "WorkflowRun": "WorkflowRun",
    "Workflow": "Workflow",
}
# A recorded event's name -> its GraphQL type (events without one stay off timelines).
EVENT_TYPENAMES = {
    "closed": "ClosedEvent",
    "reopened": "ReopenedEvent",
    "merged": "MergedEvent",
    "labeled": "LabeledEvent",
    "unlabeled": "UnlabeledEvent",
    "assigned": "AssignedEvent",
    "unassigned": "UnassignedEvent",
    "locked": "LockedEvent",
    "unlocked": "UnlockedEvent",
    "renamed": "RenamedTitleEvent",
    "head_ref_deleted": "HeadRefDeletedEvent",
    "head_ref_restored": "HeadRefRestoredEvent",
    "ready_for_review": "ReadyForReviewEvent",
    "convert_to_draft": "ConvertToDraftEvent",
    "review_requested": "ReviewRequestedEvent",
    "auto_merge_enabled": "AutoMergeEnabledEvent",
    "auto_merge_disabled": "AutoMergeDisabledEvent",
}


def typename_of(value: Any, *_: Any) -> str | None:
    """The concrete GraphQL type of a resolved value, for interfaces and unions."""
    typename = getattr(value, "TYPENAME", None)
    if typename is not None:
        return str(typename)
    kind = type(value).__name__
    if kind == "User":
        return str(value.type)
    if kind == "IssueEvent":
        return EVENT_TYPENAMES.get(value.event)
    return _RECORD_TYPENAMES.get(kind)


def node_of(info: Info, node_id: str, *typenames: str) -> Any:
    record = store_of(info).node(node_id)
    if record is None or typename_of(record) not in typenames:
        raise github_error(
            "NOT_FOUND", f"Could not resolve to a node with the global id of '{node_id}'"
        )
    return record


def nodes_of(info: Info, node_ids: list[str], *typenames: str) -> list[Any]:
    return [node_of(info, node_id, *typenames) for node_id in node_ids]


def payload(input: dict[str, Any], **fields: object) -> dict[str, Any]:
    """A mutation's payload: ``clientMutationId`` echoed, plus ``fields``."""
    return {"clientMutationId": input.get("clientMutationId"), **fields}
