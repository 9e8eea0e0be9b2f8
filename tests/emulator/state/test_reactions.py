"""Emoji reactions: one per user, content and subject; removed cleanly."""

from __future__ import annotations

from emu_helpers import new_store

from ghbench.emulator.state.reactions import REACTION_CONTENTS


def test_a_user_reacts_once_per_content_and_subject() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo, bob = store.ensure_user("octo"), store.ensure_user("bob")
    issue = store.create_issue(repo, octo, "i")
    first, new = store.react(repo.id, issue.node_id, octo, "+1")
    again, new_again = store.react(repo.id, issue.node_id, octo, "+1")
    assert new and not new_again and again is first
    store.react(repo.id, issue.node_id, bob, "+1")
    store.react(repo.id, issue.node_id, octo, "heart")
    assert len(store.reactions(issue.node_id)) == 3
    assert [r.user_id for r in store.reactions(issue.node_id, "+1")] == [octo.id, bob.id]
    assert store.reactions("I_unknown") == []


def test_unreacting_removes_it_from_its_subject_and_the_node_index() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "i")
    reaction, _ = store.react(repo.id, issue.node_id, octo, "eyes")
    store.unreact(reaction)
    store.unreact(reaction)  # a second time changes nothing
    assert store.reactions(issue.node_id) == [] and store.node(reaction.node_id) is None
    _, new = store.react(repo.id, issue.node_id, octo, "eyes")
    assert new


def test_the_eight_contents_in_githubs_order() -> None:
    assert list(REACTION_CONTENTS) == [
        "+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"
    ]  # fmt: skip
    assert len(set(REACTION_CONTENTS.values())) == 8
