"""Who acts: the request's user on the thread answering it, else the repository's owner."""

from __future__ import annotations

import threading

from emu_helpers import new_store


def test_the_actor_is_the_requests_user_else_the_owner() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "i")
    store.set_issue_state(issue, "closed", "completed")
    store.begin_request(octo)
    first = store.request_serial
    store.set_issue_state(issue, "open", "reopened")
    store.end_request()
    store.begin_request(None)
    assert store.request_serial is not None and store.request_serial > (first or 0)
    store.set_issue_state(issue, "closed", "not_planned")
    store.end_request()
    owner = store.user("acme")
    assert owner is not None
    events = [(e.event, e.actor_id, e.state_reason) for e in store.events(issue)]
    assert events == [
        ("closed", owner.id, "completed"),
        ("reopened", octo.id, "reopened"),
        ("closed", owner.id, "not_planned"),  # anonymous: the owner acts
    ]
    assert store.request_serial is None


def test_another_threads_request_is_not_this_ones() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    store.begin_request(octo)
    seen: list[object] = []
    worker = threading.Thread(target=lambda: seen.append(store.actor_for(repo.id).login))
    worker.start()
    worker.join()
    assert seen == ["acme"] and store.actor_for(repo.id) is octo
    store.end_request()


def test_events_are_kept_per_item_oldest_first_with_their_details() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    one, two = store.create_issue(repo, octo, "one"), store.create_issue(repo, octo, "two")
    store.record_event(one, "labeled", label="bug")
    store.record_event(two, "locked", lock_reason="spam")
    store.record_event(one, "unlabeled", label="bug")
    assert [(e.event, e.label) for e in store.events(one)] == [
        ("labeled", "bug"),
        ("unlabeled", "bug"),
    ]
    (locked,) = store.events(two)
    assert locked.lock_reason == "spam" and store.node(locked.node_id) is locked
