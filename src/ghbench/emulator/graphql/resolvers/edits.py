"""Mutations that change an existing issue or pull request: comments, reviews, title
and body, labels, assignees, review requests.

Failures answer as GitHub's GraphQL API does: ``NOT_FOUND`` for an unknown node id,
``UNPROCESSABLE`` with GitHub's message otherwise (e.g. "Review Can not approve your
own pull request", which gh shows as ``... (addPullRequestReview)``). ``null`` in an
input means "not given", as gh sends ``labelIds: null`` for "no change".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import Edge
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    github_error,
    resolved,
    store_of,
)
from ghbench.emulator.graphql.resolvers.nodes import node_of, nodes_of, payload

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, IssueComment, PullRequest, User

__all__ = ["EDIT_MUTATIONS"]

# PullRequestReviewEvent -> the review's state
_REVIEW_EVENTS = {
    "APPROVE": "APPROVED",
    "REQUEST_CHANGES": "CHANGES_REQUESTED",
    "COMMENT": "COMMENTED",
    None: "PENDING",
}
# What GitHub refuses on one's own pull request (the reviewer is its author).
_OWN_PULL = {
    "APPROVED": "Review Can not approve your own pull request",
    "CHANGES_REQUESTED": "Review Can not request changes on your own pull request",
}


def _subject(info: Info, node_id: str) -> Issue | PullRequest:
    item: Issue | PullRequest = node_of(info, node_id, "Issue", "PullRequest")
    return item


def _add_comment(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    subject = _subject(info, input["subjectId"])
    if not input["body"].strip():
        raise github_error("UNPROCESSABLE", "Body can't be blank")
    store = store_of(info)
    comment = store.add_issue_comment(
        store.repos[subject.repo_id], subject.number, context_of(info).viewer, input["body"]
    )
    edge = Edge(f"comment:{comment.id}", comment)
    return payload(input, commentEdge=edge, subject=subject)


def _add_review(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    viewer = context_of(info).viewer
    event = input.get("event")
    if event == "DISMISS":
        raise github_error("UNPROCESSABLE", "Review Cannot dismiss a pending review")
    state = _REVIEW_EVENTS[event]
    if pull.user_id == viewer.id and state in _OWN_PULL:
        raise github_error("UNPROCESSABLE", _OWN_PULL[state])
    body = input.get("body") or ""
    if state in ("CHANGES_REQUESTED", "COMMENTED") and not body.strip():
        raise github_error("UNPROCESSABLE", "Review Body can't be blank")
    review = store_of(info).add_review(
        pull, viewer, state, body=body, commit_id=input.get("commitOID")
    )
    return payload(input, pullRequestReview=review, reviewEdge=Edge(f"review:{review.id}", review))


def _check_title(input: dict[str, Any]) -> None:
    title = input.get("title")
    if title is not None and not title.strip():
        raise github_error("UNPROCESSABLE", "Title can't be blank")


def _update_pull_request(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    """Title, body, base branch, state, assignees and labels (ids replace)."""
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    store = store_of(info)
    _check_title(input)
    changes = {k: input[k] for k in ("title", "body") if input.get(k) is not None}
    base = input.get("baseRefName")
    if base is not None:
        sha = store.branch_sha(store.repos[pull.repo_id], base)
        if sha is None:
            raise github_error("UNPROCESSABLE", f"Proposed base branch '{base}' was not found")
        changes |= {"base_ref": base, "base_sha": sha}
    if changes:
        store.update_pull(pull, **changes)
    _people_and_labels(info, pull, input)
    state = input.get("state")
    if state == "CLOSED" and pull.state == "open":
        store.close_pull(pull)
    elif state == "OPEN" and pull.state == "closed" and not pull.merged:
        store.update_pull(pull, state="open", closed_at=None)
    return payload(input, pullRequest=pull, actor=context_of(info).viewer)


def _update_issue(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    issue: Issue = node_of(info, input["id"], "Issue")
    if input.get("issueTypeId") is not None:
        node_of(info, input["issueTypeId"], "IssueType")  # none exists: NOT_FOUND
    store = store_of(info)
    _check_title(input)
    store.edit_issue(issue, title=input.get("title"), body=input.get("body"))
    _people_and_labels(info, issue, input)
    state = input.get("state")
    if state == "CLOSED" and issue.state == "open":
        store.set_issue_state(issue, "closed", "completed")
    elif state == "OPEN" and issue.state == "closed":
        store.set_issue_state(issue, "open", "reopened")
    return payload(input, issue=issue, actor=context_of(info).viewer)


def _people_and_labels(info: Info, item: Issue | PullRequest, input: dict[str, Any]) -> None:
    store = store_of(info)
    if input.get("assigneeIds") is not None:
        store.set_assignees(item, _users(info, input["assigneeIds"]))
    if input.get("labelIds") is not None:
        store.set_labels(item, [label.name for label in nodes_of(info, input["labelIds"], "Label")])


def _users(info: Info, ids: list[str]) -> list[User]:
    users: list[User] = nodes_of(info, ids, "User")
    return users


def _labelable(info: Info, input: dict[str, Any]) -> Issue | PullRequest:
    return _subject(info, input["labelableId"])


def _add_labels(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    item = _labelable(info, input)
    names = [label.name for label in nodes_of(info, input["labelIds"], "Label")]
    store_of(info).set_labels(item, [*item.labels, *names])
    return payload(input, labelable=item)


def _remove_labels(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    item = _labelable(info, input)
    gone = {label.name for label in nodes_of(info, input["labelIds"], "Label")}
    store_of(info).set_labels(item, [n for n in item.labels if n not in gone])
    return payload(input, labelable=item)


def _add_assignees(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    item = _subject(info, input["assignableId"])
    store_of(info).add_assignees(item, _users(info, input["assigneeIds"]))
    return payload(input, assignable=item)


def _remove_assignees(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    item = _subject(info, input["assignableId"])
    store_of(info).remove_assignees(item, _users(info, input["assigneeIds"]))
    return payload(input, assignable=item)


def _actors(info: Info, input: dict[str, Any]) -> list[User]:
    """``actorIds`` (users or bots) and ``actorLogins`` (a bot as ``name[bot]``); a login
    nobody has is NOT_FOUND, in the wording of ``Query.user`` (**inferred**)."""
    actors: list[User] = nodes_of(info, list(input.get("actorIds") or ()), "User", "Bot")
    store = store_of(info)
    for login in input.get("actorLogins") or ():
        found = resolved(
            store.user(login) or store.user(login.removesuffix("[bot]")),
            f"a User with the login of '{login}'.",
        )
        actors.append(found)
    return actors


def _replace_actors(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    """The assignees become the actors given (gh 2.102 assigns by login this way on
    github.com). As with every assignment here, only user accounts are kept, at most 10;
    ``agentAssignment`` has no agent to start (no Copilot) and changes nothing."""
    item = _subject(info, input["assignableId"])
    store_of(info).set_assignees(item, _actors(info, input))
    return payload(input, assignable=item)


def _not_collaborators(pull: PullRequest, info: Info) -> Exception:
    """REST's refusal of reviewers who are no collaborators (teams, bots, strangers)."""
    repo = store_of(info).repos[pull.repo_id]
    return github_error(
        "UNPROCESSABLE",
        "Reviews may only be requested from collaborators. One or more of the users or "
        f"teams you specified is not a collaborator of the {repo.full_name} repository.",
    )


def _ask_for_reviews(
    info: Info, pull: PullRequest, users: list[User], input: dict[str, Any]
) -> dict[str, Any]:
    """``union: true`` adds to the requests, otherwise they are replaced."""
    if any(user.id == pull.user_id for user in users):
        raise github_error("UNPROCESSABLE", "Review cannot be requested from pull request author.")
    store = store_of(info)
    if not input.get("union"):
        current = [store.users[i] for i in pull.requested_reviewers if i in store.users]
        store.remove_review_requests(pull, current)
    store.request_reviews(pull, users)
    return payload(
        input, pullRequest=pull, actor=context_of(info).viewer, requestedReviewersEdge=None
    )


def _request_reviews(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    """By node id. Teams are not modelled: a team id is NOT_FOUND; a bot is no
    collaborator."""
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    users = _users(info, list(input.get("userIds") or ()))
    nodes_of(info, list(input.get("teamIds") or ()), "Team")
    if nodes_of(info, list(input.get("botIds") or ()), "Bot"):
        raise _not_collaborators(pull, info)
    return _ask_for_reviews(info, pull, users, input)


def _request_reviews_by_login(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    """By login (gh 2.102's ``pr edit --add-reviewer`` on github.com): ``userLogins``
    must be user accounts; ``teamSlugs`` (no teams here) and ``botLogins`` are refused
    as REST refuses non-collaborators."""
    pull: PullRequest = node_of(info, input["pullRequestId"], "PullRequest")
    store = store_of(info)
    users = [store.user(login) for login in input.get("userLogins") or ()]
    if input.get("teamSlugs") or input.get("botLogins"):
        raise _not_collaborators(pull, info)
    found = [user for user in users if user is not None and user.type == "User"]
    if len(found) != len(users):
        raise _not_collaborators(pull, info)
    return _ask_for_reviews(info, pull, found, input)


def _update_comment(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    comment: IssueComment = node_of(info, input["id"], "IssueComment")
    store_of(info).edit_comment(comment, input["body"])
    return payload(input, issueComment=comment)


def _delete_comment(_: object, info: Info, input: dict[str, Any]) -> dict[str, Any]:
    comment: IssueComment = node_of(info, input["id"], "IssueComment")
    store_of(info).delete_issue_comment(comment)
    return payload(input)


EDIT_MUTATIONS: dict[str, Any] = {
    "addComment": _add_comment,
    "addPullRequestReview": _add_review,
    "updatePullRequest": _update_pull_request,
    "updateIssue": _update_issue,
    "addLabelsToLabelable": _add_labels,
    "removeLabelsFromLabelable": _remove_labels,
    "addAssigneesToAssignable": _add_assignees,
    "removeAssigneesFromAssignable": _remove_assignees,
    "replaceActorsForAssignable": _replace_actors,
    "requestReviews": _request_reviews,
    "requestReviewsByLogin": _request_reviews_by_login,
    "updateIssueComment": _update_comment,
    "deleteIssueComment": _delete_comment,
}
