"""``createPullRequest`` and ``mergePullRequest``, through the store's own write methods.

The store raises the REST layer's errors (422, 405, 409); GitHub's GraphQL API
reports the same failures as ``{"type": "UNPROCESSABLE", "message": …}`` with the
field ``null``, so they are translated here. A ``MergePullRequestInput.mergeMethod``
enum maps onto the store's ``merge``/``squash``/``rebase``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

from ghbench.emulator.errors import ApiError, NotFound
from ghbench.emulator.graphql.resolvers.context import Info, context_of, github_error, store_of

if TYPE_CHECKING:
    from ghbench.emulator.state import PullRequest, Repo

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


MUTATION_FIELDS: dict[str, Any] = {
    "createPullRequest": _create_pull_request,
    "mergePullRequest": _merge_pull_request,
}
