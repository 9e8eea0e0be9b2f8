"""Issue and pull request mutations (create, merge, close, reopen, ready/draft, delete,
transfer, pin), through the store; the edits of existing ones are in ``edits.py``.

The store raises the REST layer's errors (422, 405, 409); GitHub's GraphQL API
reports the same failures as ``{"type": "UNPROCESSABLE", "message": …}`` with the
field ``null``, so they are translated here. A ``MergePullRequestInput.mergeMethod``
enum maps onto the store's ``merge``/``squash``/``rebase``. ``CreateIssueInput.labelIds``
and ``assigneeIds`` must be ids of the repository's labels and of users; milestones and
projects are not modelled and their ids are ignored; issue types are not modelled
either, and since none exists an ``issueTypeId`` is NOT_FOUND.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

from ghbench.emulator.errors import ApiError, NotFound
from ghbench.emulator.graphql.resolvers.context import Info, context_of, github_error, store_of
from ghbench.emulator.graphql.resolvers.edits import EDIT_MUTATIONS
from ghbench.emulator.graphql.resolvers.nodes import node_of, nodes_of, payload

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, PullRequest, Repo

__all__ = ["MUTATION_FIELDS"]


# REST validation codes without a message -> GitHub's GraphQL wording.
_FIELD_MESSAGES = {
    "head": "Head ref must be a branch",
    "base": "Base ref must be a branch",
    "title": "Title can't be blank",
    "merge_method": "Merge method is not allowed",
}


def _as_graphql_error(error: ApiError) -> GraphQLError:
    if isinstance(error, NotFound):
        return github_error("NOT_FOUND", error.message)
    details = [
        item
        if isinstance(item, str)
        else item.get("message") or _FIELD_MESSAGES.get(str(item.get("field")), error.message)
        for item in error.errors or ()
    ]
    return github_error("UNPROCESSABLE", ", ".join(details) if details else error.message)


def _label_names(info: Info, repo: Repo, label_ids: list[str]) -> list[str]:
    """Label names for ``labelIds``; an id no label of ``repo`` has is NOT_FOUND."""
    labels = nodes_of(info, label_ids, "Label")
    for label_id, label in zip(label_ids, labels, strict=True):
        if label.repo_id != repo.id:
            raise github_error(
                "NOT_FOUND", f"Could not resolve to a node with the global id of '{label_id}'"
            )
    return [label.name for label in labels]


def _create_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    repo: Repo = node_of(info, input["repositoryId"], "Repository")
    if not input["title"].strip():
        raise github_error("UNPROCESSABLE", _FIELD_MESSAGES["title"])
    labels = _label_names(info, repo, list(input.get("labelIds") or ()))
    assignees = nodes_of(info, list(input.get("assigneeIds") or ()), "User")
    if input.get("issueTypeId") is not None:
        node_of(info, input["issueTypeId"], "IssueType")  # none exists: NOT_FOUND
    issue = store_of(info).create_issue(
        repo,
        context_of(info).viewer,
        input["title"],
        body=input.get("body"),
        labels=labels,
        assignees=assignees,
    )
    return payload(input, issue=issue)


def _create_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    repo: Repo = node_of(info, input["repositoryId"], "Repository")
    head = input["headRefName"].split(":", 1)[-1]
    try:
        pull = store_of(info).create_pull(
            repo,
            context_of(info).viewer,
            input["title"],
            head,
            input["baseRefName"],
            body=input.get("body"),
            draft=bool(input.get("draft")),
        )
    except ApiError as error:
        raise _as_graphql_error(error) from None
    return payload(input, pullRequest=pull)


def _merge_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    viewer = context_of(info).viewer
    try:
        store_of(info).merge_pull(
            pull,
            viewer,
            method=str(input.get("mergeMethod") or "MERGE").lower(),
            commit_title=input.get("commitHeadline"),
            expected_head_sha=input.get("expectedHeadOid"),
        )
    except ApiError as error:
        raise _as_graphql_error(error) from None
    return payload(input, pullRequest=pull, actor=viewer)


def _close_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = node_of(info, input["issueId"], "Issue")
    if issue.state != "closed":
        reason = str(input.get("stateReason") or "COMPLETED").lower()
        store_of(info).set_issue_state(issue, "closed", reason)
    return payload(input, issue=issue)


def _reopen_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = node_of(info, input["issueId"], "Issue")
    if issue.state != "open":
        store_of(info).set_issue_state(issue, "open", "reopened")
    return payload(input, issue=issue)


def _close_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    if pull.merged:
        raise github_error("UNPROCESSABLE", "Can't close a merged pull request.")
    if pull.state != "closed":
        store_of(info).close_pull(pull)
    return payload(input, pullRequest=pull)


def _reopen_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    if pull.merged:
        raise github_error("UNPROCESSABLE", "Can't reopen a merged pull request.")
    try:
        store_of(info).reopen_pull(pull)
    except ApiError as error:  # its head branch was deleted
        raise _as_graphql_error(error) from None
    return payload(input, pullRequest=pull)


def _set_draft(draft: bool) -> Any:
    """``markPullRequestReadyForReview`` / ``convertPullRequestToDraft``."""

    def mutate(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
        pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
        if pull.state != "open":
            raise github_error("UNPROCESSABLE", "Pull request is closed")
        if pull.draft != draft:
            store_of(info).update_pull(pull, draft=draft)
        return payload(input, pullRequest=pull)

    return mutate


def _delete_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = node_of(info, input["issueId"], "Issue")
    repo = store_of(info).repos[issue.repo_id]
    store_of(info).delete_issue(issue)
    return payload(input, repository=repo)


def _transfer_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = node_of(info, input["issueId"], "Issue")
    target: Repo = node_of(info, input["repositoryId"], "Repository")
    if target.id != issue.repo_id:
        keep = bool(input.get("createLabelsIfMissing"))
        store_of(info).transfer_issue(issue, target, keep_labels=keep)
    return payload(input, issue=issue)


def _pin(pinned: bool) -> Any:
    """``pinIssue`` / ``unpinIssue``."""

    def mutate(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
        issue: Issue = node_of(info, input["issueId"], "Issue")
        store_of(info).set_pinned(issue, pinned)
        return payload(input, issue=issue, id=issue.node_id)

    return mutate


MUTATION_FIELDS: dict[str, Any] = {
    **EDIT_MUTATIONS,
    "markPullRequestReadyForReview": _set_draft(False),
    "convertPullRequestToDraft": _set_draft(True),
    "deleteIssue": _delete_issue,
    "transferIssue": _transfer_issue,
    "pinIssue": _pin(True),
    "unpinIssue": _pin(False),
    "closeIssue": _close_issue,
    "closePullRequest": _close_pull_request,
    "createIssue": _create_issue,
    "reopenIssue": _reopen_issue,
    "reopenPullRequest": _reopen_pull_request,
    "createPullRequest": _create_pull_request,
    "mergePullRequest": _merge_pull_request,
}
