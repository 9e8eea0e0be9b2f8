"""Issues and their comments in the store: numbers, state changes, edits, locks,
deletion and transfer."""

from __future__ import annotations

from emu_helpers import new_store


def test_issues_and_pull_requests_share_one_number_sequence() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    bot = store.ensure_user("ci-bot[bot]", type="Bot")
    first = store.create_issue(repo, octo, "a", assignees=[bot, octo])
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    second = store.create_issue(repo, octo, "b")
    assert (first.number, pull.number, second.number) == (1, 2, 3)
    assert first.assignees == [octo.id]  # a bot is never assigned
    assert [i.number for i in store.issues(repo)] == [1, 3]


def test_a_state_change_is_one_event_and_a_repeat_none() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "a")
    store.set_issue_state(issue, "closed", "completed", commit_id="abc", closer_number=2)
    store.set_issue_state(issue, "closed", "completed")
    assert issue.closed_at is not None and issue.state_reason == "completed"
    store.set_issue_state(issue, "open", "reopened")
    assert issue.closed_at is None
    closed, reopened = store.events(issue)
    assert (closed.event, closed.commit_id, closed.closer_number) == ("closed", "abc", 2)
    assert reopened.event == "reopened"


def test_a_new_title_is_a_renamed_event_and_locking_twice_is_one() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "old", body="b")
    store.edit_issue(issue, title="old", body="new body")
    store.edit_issue(issue, title="new")
    store.set_locked(issue, True, "too heated")
    store.set_locked(issue, True, "spam")
    assert issue.lock_reason == "too heated"
    store.set_locked(issue, False)
    assert (issue.title, issue.body, issue.locked, issue.lock_reason) == (
        "new",
        "new body",
        False,
        None,
    )
    renamed, locked, unlocked = store.events(issue)
    assert (renamed.rename_from, renamed.rename_to) == ("old", "new")
    assert (locked.event, unlocked.event) == ("locked", "unlocked")


def test_a_comment_updates_its_issue_or_pull_request() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "a")
    store.clock.advance(60)  # type: ignore[attr-defined]
    comment = store.add_issue_comment(repo, issue.number, octo, "hi")
    assert issue.updated_at == comment.created_at > issue.created_at
    assert store.issue_comment(repo, comment.id) is comment
    other = store.create_repo("acme", "other")
    assert store.issue_comment(other, comment.id) is None
    store.delete_issue_comment(comment)
    assert store.issue_comments(repo, issue.number) == []


def test_deleting_an_issue_takes_its_comments_and_keeps_its_number_used() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    issue = store.create_issue(repo, octo, "a")
    comment = store.add_issue_comment(repo, issue.number, octo, "hi")
    store.delete_issue(issue)
    assert store.issue(repo, 1) is None and store.node(comment.node_id) is None
    assert store.create_issue(repo, octo, "b").number == 2


def test_a_transfer_renumbers_moves_comments_and_keeps_labels_only_when_asked() -> None:
    store = new_store()
    source, target = store.create_repo("acme", "todo"), store.create_repo("acme", "other")
    octo = store.ensure_user("octo")
    store.create_issue(target, octo, "already there")
    kept = store.create_issue(source, octo, "kept", labels=["bug"])
    dropped = store.create_issue(source, octo, "dropped", labels=["bug"])
    store.add_issue_comment(source, kept.number, octo, "moves along")
    store.transfer_issue(kept, target, keep_labels=True)
    store.transfer_issue(dropped, target, keep_labels=False)
    assert (kept.number, kept.labels, dropped.number, dropped.labels) == (2, ["bug"], 3, [])
    assert store.label(target, "bug") is not None
    assert store.issue(source, 1) is None and store.issue(target, 2) is kept
    assert [c.body for c in store.issue_comments(target, 2)] == ["moves along"]
    assert store.issue_comments(source, 1) == []
