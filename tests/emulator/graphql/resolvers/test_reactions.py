"""Reactions in GraphQL: every content's group, who reacted, add and remove."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_ADD = """mutation($id: ID!, $content: ReactionContent!) { addReaction(input: {subjectId: $id,
  content: $content}) { reaction { content user { login } } } }"""
_REMOVE = """mutation($id: ID!, $content: ReactionContent!) { removeReaction(input: {
  subjectId: $id, content: $content}) { reaction { content } } }"""
_GROUPS = """query($id: ID!) { node(id: $id) { ... on Issue {
  reactionGroups { content viewerHasReacted users(first: 5) { totalCount nodes { login } } }
  reactions(first: 5, content: HEART) { totalCount viewerHasReacted } } } }"""


def _groups(emulator: Emulator, node_id: str) -> Any:
    return graphql(emulator, _GROUPS, id=node_id)["data"]["node"]


def test_every_content_has_a_group_and_reacting_twice_is_one_reaction(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    issue = store.create_issue(repo, octo, "i")
    store.react(repo.id, issue.node_id, store.ensure_user("bob"), "heart")
    for _ in range(2):
        added = graphql(emulator, _ADD, id=issue.node_id, content="HEART")
        assert added["data"]["addReaction"]["reaction"] == {
            "content": "HEART",
            "user": {"login": "octo"},
        }
    node = _groups(emulator, issue.node_id)
    groups = {g["content"]: g for g in node["reactionGroups"]}
    assert list(groups)[:2] == ["THUMBS_UP", "THUMBS_DOWN"] and len(groups) == 8
    assert groups["HEART"]["viewerHasReacted"] and groups["HEART"]["users"]["totalCount"] == 2
    assert [u["login"] for u in groups["HEART"]["users"]["nodes"]] == ["bob", "octo"]
    assert not groups["EYES"]["viewerHasReacted"] and groups["EYES"]["users"]["totalCount"] == 0
    assert node["reactions"] == {"totalCount": 2, "viewerHasReacted": True}
    graphql(emulator, _REMOVE, id=issue.node_id, content="HEART")
    assert _groups(emulator, issue.node_id)["reactions"] == {
        "totalCount": 1,
        "viewerHasReacted": False,
    }


def test_a_subject_that_cannot_be_reacted_to_is_not_found(emulator: Emulator) -> None:
    repo = emulator.store.get_repo("acme", "todo")
    answer = graphql(emulator, _ADD, id=repo.node_id, content="HEART")
    assert answer["errors"][0]["type"] == "NOT_FOUND"
