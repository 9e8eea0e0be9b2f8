"""An issue and its comments in GraphQL: state reasons, what is not modelled, the pull
requests that close it and comment URLs."""

from __future__ import annotations

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_ISSUE = """query($n: Int!, $dup: Boolean) { repository(owner: "acme", name: "todo") {
  issue(number: $n) { state stateReason(enableDuplicate: $dup) url resourcePath
    issueType { name } parent { number } subIssuesSummary { total completed percentCompleted }
    blockedBy(first: 5) { totalCount }
    comments(first: 5) { nodes { url viewerDidAuthor includesCreatedEdit } }
    open: closedByPullRequestsReferences(first: 5) { nodes { number } }
    all: closedByPullRequestsReferences(first: 5, includeClosedPrs: true) { nodes { number } }
    } } }"""


def test_an_issue_and_what_github_shows_for_what_is_not_modelled(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    issue = store.create_issue(repo, octo, "bug")
    open_pull = store.create_pull(repo, octo, "fix", "feat/1", "main", body="Fixes #1",
                                  create_head=True)  # fmt: skip
    closed_pull = store.create_pull(repo, octo, "fix", "feat/2", "main", body="Closes #1",
                                    create_head=True)  # fmt: skip
    store.close_pull(closed_pull)
    comment = store.add_issue_comment(repo, issue.number, octo, "me too")
    store.set_issue_state(issue, "closed", "duplicate")
    found = graphql(emulator, _ISSUE, n=issue.number)["data"]["repository"]["issue"]
    assert (found["state"], found["stateReason"]) == ("CLOSED", "NOT_PLANNED")
    assert found["url"] == "https://github.com/acme/todo/issues/1"
    assert found["resourcePath"] == "/acme/todo/issues/1"
    assert (found["issueType"], found["parent"]) == (None, None)
    assert found["subIssuesSummary"] == {"total": 0, "completed": 0, "percentCompleted": 0}
    assert found["blockedBy"]["totalCount"] == 0
    assert found["comments"]["nodes"] == [
        {
            "url": f"https://github.com/acme/todo/issues/1#issuecomment-{comment.id}",
            "viewerDidAuthor": True,
            "includesCreatedEdit": False,
        }
    ]
    assert found["open"]["nodes"] == [{"number": open_pull.number}]
    assert found["all"]["nodes"] == [{"number": open_pull.number}, {"number": closed_pull.number}]
    duplicate = graphql(emulator, _ISSUE, n=issue.number, dup=True)["data"]["repository"]
    assert duplicate["issue"]["stateReason"] == "DUPLICATE"


def test_a_comment_on_a_pull_request_links_to_the_pull_request(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    comment = store.add_issue_comment(repo, pull.number, store.ensure_user("bob"), "hi")
    store.clock.advance(5)  # type: ignore[attr-defined]
    store.edit_comment(comment, "edited")
    query = """query($id: ID!) { node(id: $id) { ... on IssueComment { url viewerDidAuthor
      includesCreatedEdit } } }"""
    assert graphql(emulator, query, id=comment.node_id)["data"]["node"] == {
        "url": f"https://github.com/acme/todo/pull/{pull.number}#issuecomment-{comment.id}",
        "viewerDidAuthor": False,
        "includesCreatedEdit": True,
    }
