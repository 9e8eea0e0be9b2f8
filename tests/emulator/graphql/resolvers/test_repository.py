"""The query root and repositories: lookups with GitHub's NOT_FOUND, the pull request
and issue connections' filters, refs and objects."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator


def _repo(emulator: Emulator, selection: str, **variables: Any) -> Any:
    declared = ", ".join(f"${k}: {v[1]}" for k, v in variables.items())
    query = f"query{f'({declared})' if declared else ''} {{ repository(owner: \"acme\", " \
        f'name: "todo") {{ {selection} }} }}'  # fmt: skip
    values = {k: v[0] for k, v in variables.items()}
    return graphql(emulator, query, **values)


def test_missing_things_are_not_found_in_githubs_words(emulator: Emulator) -> None:
    answer = _repo(emulator, "pullRequest(number: 7) { id } issue(number: 8) { id }")
    assert [e["message"] for e in answer["errors"]] == [
        "Could not resolve to a PullRequest with the number of 7.",
        "Could not resolve to an Issue with the number of 8.",
    ]
    user = graphql(emulator, '{ user(login: "ghost") { login } }')
    assert user["errors"][0]["type"] == "NOT_FOUND"


def test_pull_requests_filter_by_state_branch_and_label_and_order(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    one = store.create_pull(repo, octo, "one", "feat/1", "main", create_head=True)
    two = store.create_pull(repo, octo, "two", "feat/2", "main", create_head=True)
    three = store.create_pull(repo, octo, "three", "feat/3", "main", create_head=True)
    store.set_labels(two, ["bug"])
    store.close_pull(one)
    store.merge_pull(three, octo)

    def numbers(arguments: str) -> list[int]:
        page = _repo(emulator, f"pullRequests(first: 10{arguments}) {{ nodes {{ number }} }}")
        return [n["number"] for n in page["data"]["repository"]["pullRequests"]["nodes"]]

    assert numbers(", states: CLOSED") == [one.number]
    assert numbers(", states: [OPEN, MERGED]") == [two.number, three.number]
    assert numbers(', headRefName: "feat/2"') == [two.number]
    assert numbers(', labels: ["BUG"]') == [two.number]
    assert numbers(", orderBy: {field: CREATED_AT, direction: DESC}") == [3, 2, 1]


def test_issues_filter_by_author_assignee_and_milestone(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    bob = store.ensure_user("bob")
    assert octo is not None
    mine = store.create_issue(repo, octo, "mine", assignees=[bob])
    theirs = store.create_issue(repo, bob, "theirs")

    def numbers(filters: str) -> list[int]:
        page = _repo(
            emulator, f"issues(first: 10, filterBy: {{{filters}}}) {{ nodes {{ number }} }}"
        )
        return [n["number"] for n in page["data"]["repository"]["issues"]["nodes"]]

    assert numbers('createdBy: "BOB"') == [theirs.number]
    assert numbers('assignee: "bob"') == [mine.number]
    assert numbers('assignee: "*"') == [mine.number]
    assert numbers("assignee: null") == [theirs.number]
    assert numbers('milestone: "none"') == [mine.number, theirs.number]
    assert numbers('milestone: "1"') == []
    assert numbers('since: "2999-01-01T00:00:00Z"') == []


def test_refs_objects_and_the_viewers_permission(emulator: Emulator) -> None:
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    tip = store.commit_to_branch(repo, "feat/x", "work").sha
    answer = _repo(
        emulator,
        "viewerPermission defaultBranchRef { name target { oid } } "
        'a: ref(qualifiedName: "refs/heads/feat/x") { name } b: ref(qualifiedName: "nope") '
        '{ name } c: object(expression: $rev) { oid } d: object(expression: "zzz") { oid }',
        rev=("feat/x", "String"),
    )["data"]["repository"]
    assert answer["viewerPermission"] == "WRITE"  # octo does not own acme/todo
    assert answer["defaultBranchRef"]["name"] == "main"
    assert answer["defaultBranchRef"]["target"]["oid"] == store.branch_sha(repo, "main")
    assert (answer["a"], answer["b"]) == ({"name": "feat/x"}, None)
    assert (answer["c"], answer["d"]) == ({"oid": tip}, None)
