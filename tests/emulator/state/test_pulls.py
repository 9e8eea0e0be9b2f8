"""Pull requests in the store: GitHub's 422s on opening one, state changes, reviews,
review threads and their comments."""

from __future__ import annotations

import pytest
from emu_helpers import new_store

from ghbench.emulator.errors import ApiError
from ghbench.emulator.state import PullRequest, Repo, Store, User


def _setup(store: Store) -> tuple[Repo, User, PullRequest]:
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    store.commit_to_branch(repo, "feat/x", "one", files={"a.txt": b"1\n"})
    store.commit_to_branch(repo, "feat/x", "two", files={"b.txt": b"2\n"})
    return repo, octo, store.create_pull(repo, octo, "Add", "feat/x", "main")


@pytest.mark.parametrize(
    ("title", "head", "base", "message"),
    [
        ("", "feat/x", "main", "title"),
        ("t", "feat/x", "nope", "base"),
        ("t", "nope", "main", "head"),
        ("t", "main", "main", "No commits between main and main"),
        ("t", "feat/x", "main", "A pull request already exists for acme:feat/x."),
    ],
)
def test_opening_a_pull_request_github_refuses_is_a_422(
    title: str, head: str, base: str, message: str
) -> None:
    store = new_store()
    repo, octo, _ = _setup(store)
    with pytest.raises(ApiError) as refused:
        store.create_pull(repo, octo, title, head, base)
    assert refused.value.status == 422 and message in str(refused.value.body())


def test_its_commits_files_and_head_ref() -> None:
    store = new_store()
    repo, _, pull = _setup(store)
    assert [c.message for c in store.pull_commits(pull)] == ["one", "two"]
    assert [f.path for f in store.pull_files(pull)] == ["a.txt", "b.txt"]
    assert store.branch_sha(repo, "feat/x") == pull.head_sha
    assert store.ref(repo, f"pull/{pull.number}/head") is not None


def test_close_and_reopen_follow_the_head_branch() -> None:
    store = new_store()
    repo, _, pull = _setup(store)
    store.close_pull(pull)
    store.close_pull(pull)
    moved = store.commit_to_branch(repo, "feat/x", "three", files={"c.txt": b"3\n"})
    store.reopen_pull(pull)
    assert pull.state == "open" and pull.head_sha == moved.sha
    assert [e.event for e in store.events(pull)] == ["closed", "reopened"]
    store.close_pull(pull)
    store.delete_ref(repo, "heads/feat/x")
    with pytest.raises(ApiError) as gone:
        store.reopen_pull(pull)
    assert "The feat/x branch has been deleted." in str(gone.value.body())


def test_updates_record_renames_and_draft_changes_and_refuse_unknown_fields() -> None:
    store = new_store()
    _, _, pull = _setup(store)
    store.update_pull(pull, title="New", draft=True)
    store.update_pull(pull, title="New", draft=False)
    assert [e.event for e in store.events(pull)] == [
        "renamed",
        "convert_to_draft",
        "ready_for_review",
    ]
    with pytest.raises(ApiError):
        store.update_pull(pull, colour="red")


def test_a_submitted_review_answers_the_request_a_pending_one_does_not() -> None:
    store = new_store()
    _, _, pull = _setup(store)
    bob, eve = store.ensure_user("bob"), store.ensure_user("eve")
    store.request_reviews(pull, [bob, eve])
    pending = store.add_review(pull, bob, "PENDING")
    store.add_review(pull, eve, "COMMENTED", body="ok")
    assert pending.submitted_at is None and pending.commit_id == pull.head_sha
    assert pull.requested_reviewers == [bob.id]


def test_replies_join_their_thread_and_the_last_comment_takes_the_thread() -> None:
    store = new_store()
    _, octo, pull = _setup(store)
    first = store.add_review_comment(pull, octo, "here", path="a.txt", line=1)
    reply = store.add_review_comment(pull, octo, "and", path="other", in_reply_to=first.id)
    (thread,) = store.review_threads(pull)
    assert (reply.thread_id, reply.path, reply.line) == (thread.id, "a.txt", 1)
    assert store.thread_comments(thread) == [first, reply]
    with pytest.raises(ApiError):
        store.add_review_comment(pull, octo, "x", in_reply_to=999_999)
    store.resolve_thread(thread, octo)
    assert thread.is_resolved and thread.resolved_by_id == octo.id
    store.resolve_thread(thread, octo, resolved=False)
    assert thread.resolved_by_id is None
    store.delete_review_comment(first)
    assert store.review_threads(pull) == [thread]
    store.delete_review_comment(reply)
    assert store.review_threads(pull) == [] and store.node(thread.node_id) is None
