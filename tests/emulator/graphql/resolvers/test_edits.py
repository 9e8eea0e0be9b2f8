"""Mutations that change an existing issue or pull request, with GitHub's refusals."""

from __future__ import annotations

from typing import Any

import pytest
from emu_helpers import graphql

from ghbench.emulator.core import Emulator
from ghbench.emulator.state import PullRequest


def _pull(emulator: Emulator, author: str = "bob") -> PullRequest:
    store = emulator.store
    emulator.create_user("bob", [])
    repo = store.get_repo("acme", "todo")
    return store.create_pull(repo, store.user(author), "p", "feat/x", "main", create_head=True)  # type: ignore[arg-type]


def _error(answer: Any) -> tuple[str, str]:
    (error,) = answer["errors"]
    return error["type"], error["message"]


_REVIEW = """mutation($id: ID!, $event: PullRequestReviewEvent, $body: String) {
  addPullRequestReview(input: {pullRequestId: $id, event: $event, body: $body}) {
    pullRequestReview { state body } } }"""


@pytest.mark.parametrize(
    ("event", "body", "message"),
    [
        ("REQUEST_CHANGES", "", "Review Body can't be blank"),
        ("COMMENT", "  ", "Review Body can't be blank"),
        ("DISMISS", "x", "Review Cannot dismiss a pending review"),
    ],
)
def test_a_review_github_refuses(emulator: Emulator, event: str, body: str, message: str) -> None:
    pull = _pull(emulator)
    assert _error(graphql(emulator, _REVIEW, id=pull.node_id, event=event, body=body)) == (
        "UNPROCESSABLE",
        message,
    )
    assert emulator.store.reviews(pull) == []


def test_the_author_cannot_approve_their_own_pull_request(emulator: Emulator) -> None:
    own = _pull(emulator, author="octo")
    answer = graphql(emulator, _REVIEW, id=own.node_id, event="APPROVE")
    assert _error(answer) == ("UNPROCESSABLE", "Review Can not approve your own pull request")
    other = emulator.store.create_pull(
        emulator.store.get_repo("acme", "todo"), emulator.store.user("bob"), "q", "feat/y", "main",
        create_head=True,
    )  # type: ignore[arg-type]  # fmt: skip
    approved = graphql(emulator, _REVIEW, id=other.node_id, event="APPROVE")
    assert approved["data"]["addPullRequestReview"]["pullRequestReview"]["state"] == "APPROVED"


def test_update_pull_request_changes_base_title_labels_and_state(emulator: Emulator) -> None:
    pull = _pull(emulator)
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    store.commit_to_branch(repo, "release", "r")
    label = store.get_label(repo, "bug")
    update = """mutation($input: UpdatePullRequestInput!) { updatePullRequest(input: $input) {
      pullRequest { title baseRefName state labels(first: 5) { nodes { name } } } } }"""
    done = graphql(emulator, update, input={"pullRequestId": pull.node_id, "title": "New",
        "baseRefName": "release", "labelIds": [label.node_id], "state": "CLOSED"})  # fmt: skip
    assert done["data"]["updatePullRequest"]["pullRequest"] == {
        "title": "New",
        "baseRefName": "release",
        "state": "CLOSED",
        "labels": {"nodes": [{"name": "bug"}]},
    }
    missing = graphql(emulator, update, input={"pullRequestId": pull.node_id, "baseRefName": "x"})
    assert _error(missing) == ("UNPROCESSABLE", "Proposed base branch 'x' was not found")
    blank = graphql(emulator, update, input={"pullRequestId": pull.node_id, "title": " "})
    assert _error(blank) == ("UNPROCESSABLE", "Title can't be blank")


def test_reviewers_by_login_refuse_the_author_and_strangers_and_union_adds(
    emulator: Emulator,
) -> None:
    pull = _pull(emulator)
    emulator.create_user("eve", [])
    ask = """mutation($id: ID!, $logins: [String!], $union: Boolean) {
      requestReviewsByLogin(input: {pullRequestId: $id, userLogins: $logins, union: $union}) {
        pullRequest { reviewRequests(first: 5) { nodes { requestedReviewer {
          ... on User { login } } } } } } }"""

    def logins(answer: Any) -> list[str]:
        nodes = answer["data"]["requestReviewsByLogin"]["pullRequest"]["reviewRequests"]["nodes"]
        return [n["requestedReviewer"]["login"] for n in nodes]

    assert logins(graphql(emulator, ask, id=pull.node_id, logins=["octo"])) == ["octo"]
    assert logins(graphql(emulator, ask, id=pull.node_id, logins=["eve"], union=True)) == [
        "octo",
        "eve",
    ]
    assert logins(graphql(emulator, ask, id=pull.node_id, logins=["eve"])) == ["eve"]
    author = graphql(emulator, ask, id=pull.node_id, logins=["bob"])
    assert _error(author) == (
        "UNPROCESSABLE",
        "Review cannot be requested from pull request author.",
    )
    stranger = graphql(emulator, ask, id=pull.node_id, logins=["nobody"])
    assert _error(stranger)[1].startswith("Reviews may only be requested from collaborators.")


def test_a_comment_is_added_edited_and_deleted_and_a_blank_one_refused(
    emulator: Emulator,
) -> None:
    pull = _pull(emulator)
    add = """mutation($id: ID!, $body: String!) { addComment(input: {subjectId: $id, body: $body})
      { commentEdge { node { id body } } subject { id } } }"""
    assert _error(graphql(emulator, add, id=pull.node_id, body="  ")) == (
        "UNPROCESSABLE",
        "Body can't be blank",
    )
    added = graphql(emulator, add, id=pull.node_id, body="hi")["data"]["addComment"]
    assert added["subject"]["id"] == pull.node_id
    comment_id = added["commentEdge"]["node"]["id"]
    edit = """mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "edited"}) {
      issueComment { body } } }"""
    assert graphql(emulator, edit, id=comment_id)["data"]["updateIssueComment"] == {
        "issueComment": {"body": "edited"}
    }
    delete = "mutation($id: ID!) { deleteIssueComment(input: {id: $id}) { clientMutationId } }"
    graphql(emulator, delete, id=comment_id)
    repo = emulator.store.get_repo("acme", "todo")
    assert emulator.store.issue_comments(repo, pull.number) == []
