"""Issue and pull request mutations (create, merge, close, reopen), through the store.

The store raises the REST layer's errors (422, 405, 409); GitHub's GraphQL API
reports the same failures as ``{"type": "UNPROCESSABLE", "message": …}`` with the
field ``null``, so they are translated here. A ``MergePullRequestInput.mergeMethod``
enum maps onto the store's ``merge``/``squash``/``rebase``. Labels have no record of
their own (a repository's labels are the names its issues and PRs carry), so
``CreateIssueInput.labelIds`` are matched against those names' derived ids;
assignees, milestones and projects are not modelled and their ids are ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

from ghbench.emulator.errors import ApiError, NotFound
from ghbench.emulator.graphql.resolvers.context import Info, context_of, github_error, store_of
from ghbench.emulator.graphql.resolvers.repository import repository_labels

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
        item.get("message") or _FIELD_MESSAGES.get(str(item.get("field")), error.message)
        for item in error.errors or ()
    ]
    return github_error("UNPROCESSABLE", ", ".join(details) if details else error.message)


def _node_of(info: Info, node_id: str, kind: str) -> Any:
    record = store_of(info).node(node_id)
    if record is None or type(record).__name__ != kind:
        raise github_error(
            "NOT_FOUND", f"Could not resolve to a node with the global id of '{node_id}'"
        )
    return record


def _label_names(info: Info, repo: Repo, label_ids: list[str]) -> list[str]:
    """Label names for ``labelIds``; an id no label of ``repo`` has is NOT_FOUND."""
    by_id = {label.node_id: label.name for label in repository_labels(info, repo)}
    missing = [label_id for label_id in label_ids if label_id not in by_id]
    if missing:
        raise github_error(
            "NOT_FOUND", f"Could not resolve to a node with the global id of '{missing[0]}'"
        )
    return [by_id[label_id] for label_id in label_ids]


def _create_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    repo: Repo = _node_of(info, input["repositoryId"], "Repo")
    if not input["title"].strip():
        raise github_error("UNPROCESSABLE", _FIELD_MESSAGES["title"])
    labels = _label_names(info, repo, list(input.get("labelIds") or ()))
    issue = store_of(info).create_issue(
        repo, context_of(info).viewer, input["title"], body=input.get("body"), labels=labels
    )
    return {"clientMutationId": input.get("clientMutationId"), "issue": issue}


def _create_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    repo: Repo = _node_of(info, input["repositoryId"], "Repo")
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
    return {"clientMutationId": input.get("clientMutationId"), "pullRequest": pull}


def _merge_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = _node_of(info, input["pullRequestId"], "PullRequest")
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
    return {"clientMutationId": input.get("clientMutationId"), "pullRequest": pull, "actor": viewer}


def _payload(input: dict[str, Any], **fields: object) -> dict[str, Any]:
    return {"clientMutationId": input.get("clientMutationId"), **fields}


def _close_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = _node_of(info, input["issueId"], "Issue")
    if issue.state != "closed":
        reason = str(input.get("stateReason") or "COMPLETED").lower()
        store_of(info).set_issue_state(issue, "closed", reason)
    return _payload(input, issue=issue)


def _reopen_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = _node_of(info, input["issueId"], "Issue")
    if issue.state != "open":
        store_of(info).set_issue_state(issue, "open", "reopened")
    return _payload(input, issue=issue)


def _close_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = _node_of(info, input["pullRequestId"], "PullRequest")
    if pull.merged:
        raise github_error("UNPROCESSABLE", "Can't close a merged pull request.")
    if pull.state != "closed":
        store_of(info).close_pull(pull)
    return _payload(input, pullRequest=pull)


def _reopen_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = _node_of(info, input["pullRequestId"], "PullRequest")
    if pull.merged:
        raise github_error("UNPROCESSABLE", "Can't reopen a merged pull request.")
    if pull.state != "open":
        store_of(info).update_pull(pull, state="open", closed_at=None)
    return _payload(input, pullRequest=pull)


MUTATION_FIELDS: dict[str, Any] = {
    "closeIssue": _close_issue,
    "closePullRequest": _close_pull_request,
    "createIssue": _create_issue,
    "reopenIssue": _reopen_issue,
    "reopenPullRequest": _reopen_pull_request,
    "createPullRequest": _create_pull_request,
    "mergePullRequest": _merge_pull_request,
}
