"""Assignees and requested reviewers: every user account may be both, bots and
organizations never; changes are events."""

from __future__ import annotations

from emu_helpers import new_store

from ghbench.emulator.state.people import MAX_ASSIGNEES


def test_only_user_accounts_are_assignable_and_listed_by_login() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    store.ensure_user("zed")
    store.ensure_user("Bob")
    store.ensure_user("ci-bot[bot]", type="Bot")
    assert [u.login for u in store.assignable_users(repo)] == ["acme", "Bob", "zed"]


def test_association_owner_collaborator_or_none() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    bot = store.ensure_user("ci-bot[bot]", type="Bot")
    bob = store.ensure_user("bob")
    owner = store.user("acme")
    assert owner is not None
    assert store.association(repo, owner.id) == "OWNER"
    assert store.association(repo, bob.id) == "COLLABORATOR"
    assert store.association(repo, bot.id) == "NONE"
    assert store.association(repo, 999_999) == "NONE"


def test_assignees_drop_bots_and_repeats_keep_ten_and_record_events() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    users = [store.ensure_user(f"u{n}") for n in range(12)]
    bot = store.ensure_user("ci-bot[bot]", type="Bot")
    issue = store.create_issue(repo, octo, "i")
    store.set_assignees(issue, [bot, users[0], users[0], *users[1:]])
    assert issue.assignees == [u.id for u in users[:MAX_ASSIGNEES]]
    store.remove_assignees(issue, [users[0]])
    store.add_assignees(issue, [octo])
    assert issue.assignees[0] == users[1].id and issue.assignees[-1] == octo.id
    kinds = [e.event for e in store.events(issue)]
    assert kinds.count("assigned") == MAX_ASSIGNEES + 1 and kinds.count("unassigned") == 1


def test_review_requests_are_not_repeated() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo, bob = store.ensure_user("octo"), store.ensure_user("bob")
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    store.request_reviews(pull, [bob])
    store.request_reviews(pull, [bob])
    assert pull.requested_reviewers == [bob.id]
    assert [e.event for e in store.events(pull)] == ["review_requested"]
    store.remove_review_requests(pull, [bob])
    assert pull.requested_reviewers == []
