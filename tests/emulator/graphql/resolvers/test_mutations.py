"""Issue and pull request mutations: the store's REST errors as GitHub's GraphQL ones,
and what each mutation leaves in the store. (Creating and merging a pull request:
``test_handler.py::test_create_and_merge_pull_request_mutations``.)"""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator


def _error(answer: Any) -> tuple[str, str]:
    (error,) = answer["errors"]
    return error["type"], error["message"]


_CREATE_ISSUE = """mutation($input: CreateIssueInput!) { createIssue(input: $input) {
  issue { number title labels(first: 5) { nodes { name } } assignees(first: 5) {
    nodes { login } } } } }"""


def test_create_issue_with_labels_and_assignees_and_its_refusals(emulator: Emulator) -> None:
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    other = store.create_repo("acme", "other")
    octo = store.user("octo")
    assert octo is not None
    bug, elsewhere = store.get_label(repo, "bug"), store.create_label(other, "x")
    made = graphql(emulator, _CREATE_ISSUE, input={"repositoryId": repo.node_id, "title": "T",
        "labelIds": [bug.node_id], "assigneeIds": [octo.node_id]})  # fmt: skip
    assert made["data"]["createIssue"]["issue"] == {
        "number": 1,
        "title": "T",
        "labels": {"nodes": [{"name": "bug"}]},
        "assignees": {"nodes": [{"login": "octo"}]},
    }
    blank = graphql(emulator, _CREATE_ISSUE, input={"repositoryId": repo.node_id, "title": " "})
    assert _error(blank) == ("UNPROCESSABLE", "Title can't be blank")
    foreign = {"repositoryId": repo.node_id, "title": "T", "labelIds": [elsewhere.node_id]}
    assert _error(graphql(emulator, _CREATE_ISSUE, input=foreign))[0] == "NOT_FOUND"
    typed = {"repositoryId": repo.node_id, "title": "T", "issueTypeId": "IT_kwDOAAAAAQ"}
    assert _error(graphql(emulator, _CREATE_ISSUE, input=typed))[0] == "NOT_FOUND"
    assert [i.number for i in store.issues(repo)] == [1]


def test_a_pull_request_the_store_refuses_is_unprocessable_in_githubs_words(
    emulator: Emulator,
) -> None:
    repo = emulator.store.get_repo("acme", "todo")
    create = """mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) {
      pullRequest { number } } }"""
    base = {"repositoryId": repo.node_id, "title": "T"}
    no_head = graphql(emulator, create, input=base | {"headRefName": "nope", "baseRefName": "main"})
    assert _error(no_head) == ("UNPROCESSABLE", "Head ref must be a branch")
    no_base = graphql(emulator, create, input=base | {"headRefName": "main", "baseRefName": "x"})
    assert _error(no_base) == ("UNPROCESSABLE", "Base ref must be a branch")
    same = graphql(emulator, create, input=base | {"headRefName": "main", "baseRefName": "main"})
    assert _error(same) == ("UNPROCESSABLE", "No commits between main and main")


def test_close_reopen_and_draft_rules(emulator: Emulator) -> None:
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    octo = store.user("octo")
    assert octo is not None
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    close = """mutation($id: ID!) { closePullRequest(input: {pullRequestId: $id}) {
      pullRequest { state } } }"""
    draft = """mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) {
      pullRequest { isDraft } } }"""
    reopen = """mutation($id: ID!) { reopenPullRequest(input: {pullRequestId: $id}) {
      pullRequest { state } } }"""
    assert graphql(emulator, draft, id=pull.node_id)["data"]["convertPullRequestToDraft"] == {
        "pullRequest": {"isDraft": True}
    }
    graphql(emulator, close, id=pull.node_id)
    assert _error(graphql(emulator, draft, id=pull.node_id)) == (
        "UNPROCESSABLE",
        "Pull request is closed",
    )
    store.delete_ref(repo, "heads/feat/x")
    gone = graphql(emulator, reopen, id=pull.node_id)
    assert _error(gone)[1] == "state cannot be changed. The feat/x branch has been deleted."
    merged = store.create_pull(repo, octo, "q", "feat/y", "main", create_head=True)
    store.merge_pull(merged, octo)
    assert _error(graphql(emulator, close, id=merged.node_id)) == (
        "UNPROCESSABLE",
        "Can't close a merged pull request.",
    )
    assert _error(graphql(emulator, reopen, id=merged.node_id))[1] == (
        "Can't reopen a merged pull request."
    )


def test_close_with_a_reason_transfer_pin_and_delete_an_issue(emulator: Emulator) -> None:
    store = emulator.store
    repo, other = store.get_repo("acme", "todo"), store.create_repo("acme", "other")
    octo = store.user("octo")
    assert octo is not None
    issue = store.create_issue(repo, octo, "i", labels=["bug"])
    close = """mutation($id: ID!) { closeIssue(input: {issueId: $id, stateReason: NOT_PLANNED})
      { issue { state stateReason } } }"""
    assert graphql(emulator, close, id=issue.node_id)["data"]["closeIssue"]["issue"] == {
        "state": "CLOSED",
        "stateReason": "NOT_PLANNED",
    }
    pin = "mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { isPinned } } }"
    assert graphql(emulator, pin, id=issue.node_id)["data"]["pinIssue"]["issue"]["isPinned"]
    transfer = """mutation($id: ID!, $repo: ID!) { transferIssue(input: {issueId: $id,
      repositoryId: $repo}) { issue { number repository { name } labels(first: 5) {
        totalCount } } } }"""
    moved = graphql(emulator, transfer, id=issue.node_id, repo=other.node_id)
    assert moved["data"]["transferIssue"]["issue"] == {
        "number": 1,
        "repository": {"name": "other"},
        "labels": {"totalCount": 0},  # createLabelsIfMissing not given
    }
    delete = """mutation($id: ID!) { deleteIssue(input: {issueId: $id}) {
      repository { name } } }"""
    assert graphql(emulator, delete, id=issue.node_id)["data"]["deleteIssue"] == {
        "repository": {"name": "other"}
    }
    assert store.node(issue.node_id) is None
