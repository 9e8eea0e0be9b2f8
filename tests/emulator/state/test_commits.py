"""Commits and refs in the store: what GitHub accepts as a ref, history, diffs, and
the rules git's ref files impose."""

from __future__ import annotations

import pytest
from emu_helpers import new_store

from ghbench.emulator.errors import ApiError
from ghbench.emulator.state import Repo, Store
from ghbench.emulator.state.commits import blob_id, noreply_email


def _setup() -> tuple[Store, Repo]:
    store = new_store()
    return store, store.create_repo("acme", "todo")


def test_blob_ids_are_gits() -> None:
    assert blob_id(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    assert blob_id(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_noreply_email_is_githubs() -> None:
    store = new_store()
    user = store.ensure_user("octo")
    assert noreply_email(user) == f"{user.id}+octo@users.noreply.github.com"


def test_a_ref_resolves_from_any_of_the_names_github_accepts() -> None:
    store, repo = _setup()
    tip = store.commit_to_branch(repo, "feat/x", "work").sha
    store.create_ref(repo, "tags/v1", tip)
    for name in (tip, tip[:7].upper(), "feat/x", "heads/feat/x", "refs/heads/feat/x", "v1"):
        assert store.resolve(repo, name) == tip, name
    assert store.resolve(repo, tip[:6]) is None  # too short to be a prefix
    assert store.resolve(repo, "nope") is None


def test_a_push_writes_and_removes_files_on_top_of_the_default_branch() -> None:
    store, repo = _setup()
    first = store.commit_to_branch(repo, "feat/x", "add", files={"a.txt": b"a\n"})
    second = store.commit_to_branch(repo, "feat/x", "drop", files={"README.md": None})
    assert first.parents == [store.branch_sha(repo, "main")]
    assert set(store.tree(repo, first.sha)) == {"README.md", "a.txt"}
    assert set(store.tree(repo, second.sha)) == {"a.txt"}
    assert store.branch_file(repo, "feat/x", "a.txt") == ("100644", blob_id(b"a\n"))
    assert store.blob(repo, blob_id(b"a\n")) == b"a\n"
    assert store.tree(repo, None) == {} and store.tree(repo, "0" * 40) == {}


def test_a_push_without_contents_changes_the_branchs_own_notes_file() -> None:
    store, repo = _setup()
    commit = store.commit_to_branch(repo, "feat/x", "work")
    (change,) = store.commit_files(repo, commit)
    assert (change.path, change.status) == ("notes/feat/x.md", "added")


def test_history_between_and_merge_base() -> None:
    store, repo = _setup()
    root = store.branch_sha(repo, "main")
    one = store.commit_to_branch(repo, "feat/x", "one", files={"a": b"1\n"})
    two = store.commit_to_branch(repo, "feat/x", "two", files={"a": b"2\n"})
    other = store.commit_to_branch(repo, "main", "base moves", files={"b": b"b\n"})
    assert store.merge_base(repo, other.sha, two.sha) == root
    assert [c.sha for c in store.commits_between(repo, other.sha, two.sha)] == [one.sha, two.sha]
    assert store.ancestors(repo, two.sha) == {root, one.sha, two.sha}
    (change,) = store.changes(repo, other.sha, two.sha)
    assert (change.path, change.additions) == ("a", 1)


def test_refs_github_refuses() -> None:
    store, repo = _setup()
    tip = store.branch_sha(repo, "main")
    assert tip is not None
    store.create_ref(repo, "heads/a/b", tip)
    for name, sha in (("heads/main", tip), ("heads/new", "0" * 40), ("heads/a", tip)):
        with pytest.raises(ApiError) as refused:
            store.create_ref(repo, name, sha)
        assert refused.value.status == 422, name
    with pytest.raises(ApiError):
        store.delete_ref(repo, "heads/none")
    store.delete_ref(repo, "heads/a/b")
    store.create_ref(repo, "heads/a", tip)  # the directory is free again
    assert [r.name for r in store.refs_with_prefix(repo, "heads/")] == ["heads/a", "heads/main"]


def test_an_open_pull_request_follows_its_head_branch() -> None:
    store, repo = _setup()
    octo = store.ensure_user("octo")
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    moved = store.commit_to_branch(repo, "feat/x", "more")
    assert pull.head_sha == moved.sha
    head_ref = store.ref(repo, f"pull/{pull.number}/head")
    assert head_ref is not None and head_ref.sha == moved.sha
