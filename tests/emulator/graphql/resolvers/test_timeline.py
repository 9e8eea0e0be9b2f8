"""``timelineItems``, ``participants`` and ``closingIssuesReferences`` of an issue or
pull request, and what the event types answer."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_TIMELINE = """query($n: Int!, $types: [PullRequestTimelineItemsItemType!], $skip: Int) {
  repository(owner: "acme", name: "todo") { pullRequest(number: $n) {
    timelineItems(first: 20, itemTypes: $types, skip: $skip) { totalCount filteredCount
      nodes { __typename
        ... on LabeledEvent { label { name } actor { login } }
        ... on RenamedTitleEvent { previousTitle currentTitle }
        ... on ClosedEvent { stateReason }
        ... on IssueComment { body }
        ... on PullRequestReview { state }
        ... on PullRequestCommit { commit { messageHeadline } } } }
    participants(first: 10) { nodes { login } }
    closingIssuesReferences(first: 5) { nodes { number } } } } }"""


def _pull_of(emulator: Emulator, **variables: Any) -> Any:
    return graphql(emulator, _TIMELINE, **variables)["data"]["repository"]["pullRequest"]


def test_a_pull_requests_history_oldest_first_and_filtered_by_type(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    bob = store.ensure_user("bob")
    assert octo is not None
    issue = store.create_issue(repo, octo, "bug")
    pull = store.create_pull(repo, octo, "old", "feat/x", "main", body=f"Fixes #{issue.number}",
                             create_head=True)  # fmt: skip
    clock = store.clock
    for step in (
        lambda: store.set_labels(pull, ["bug"]),
        lambda: store.update_pull(pull, title="new"),
        lambda: store.add_issue_comment(repo, pull.number, bob, "hello"),
        lambda: store.add_review(pull, bob, "APPROVED"),
        lambda: store.close_pull(pull),
    ):
        clock.advance(10)  # type: ignore[attr-defined]
        step()
    found = _pull_of(emulator, n=pull.number)
    kinds = [n["__typename"] for n in found["timelineItems"]["nodes"]]
    assert kinds == [
        "PullRequestCommit",
        "LabeledEvent",
        "RenamedTitleEvent",
        "IssueComment",
        "PullRequestReview",
        "ClosedEvent",
    ]
    assert found["timelineItems"]["nodes"][1] == {
        "__typename": "LabeledEvent",
        "label": {"name": "bug"},
        "actor": {"login": "acme"},  # not in a request: the repository's owner acts
    }
    assert found["participants"]["nodes"] == [{"login": "octo"}, {"login": "bob"}]
    assert found["closingIssuesReferences"]["nodes"] == [{"number": issue.number}]
    only = _pull_of(emulator, n=pull.number, types=["RENAMED_TITLE_EVENT", "ISSUE_COMMENT"])
    assert [n["__typename"] for n in only["timelineItems"]["nodes"]] == [
        "RenamedTitleEvent",
        "IssueComment",
    ]
    skipped = _pull_of(emulator, n=pull.number, skip=4)
    assert len(skipped["timelineItems"]["nodes"]) == 2
