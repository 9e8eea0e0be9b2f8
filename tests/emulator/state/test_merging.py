"""Merging pull requests: closing references, mergeability, the merge state, GitHub's
refusals, the three merge methods, update branch and auto-merge."""

from __future__ import annotations

import pytest
from emu_helpers import new_store

from ghbench.emulator.errors import ApiError
from ghbench.emulator.state import PullRequest, Repo, Store, User
from ghbench.emulator.state.merging import closing_references


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        ("Closes #4", [("acme/todo", 4)]),
        ("fixes: #4 and FIXED #4, resolves other/repo#2", [("acme/todo", 4), ("other/repo", 2)]),
        ("Resolve https://github.com/Other/Repo/issues/9.", [("other/repo", 9)]),
        ("closes#4, see #5, prefixes #6, closes #7x", []),
    ],
)
def test_closing_references(text: str, refs: list[tuple[str, int]]) -> None:
    assert closing_references(text, "acme/todo") == refs


def _setup(store: Store) -> tuple[Repo, User, PullRequest]:
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    store.commit_to_branch(repo, "feat/x", "work", files={"a.txt": b"head\n"})
    pull = store.create_pull(repo, octo, "Add a", "feat/x", "main", body="Closes #2")
    return repo, octo, pull


def test_a_request_that_starts_the_mergeability_job_gets_unknown() -> None:
    store = new_store()
    _, octo, pull = _setup(store)
    store.begin_request(octo)
    assert store.mergeability(pull) is None and store.merge_state(pull) == "unknown"
    store.end_request()
    store.begin_request(octo)
    assert store.mergeability(pull) is True and store.merge_state(pull) == "clean"
    store.end_request()


def test_a_base_that_moves_into_a_conflict_makes_it_dirty_and_unmergeable() -> None:
    store = new_store()
    repo, octo, pull = _setup(store)
    assert store.merge_state(pull) == "clean"
    store.commit_to_branch(repo, "main", "clash", files={"a.txt": b"base\n"})
    assert store.merge_state(pull) == "dirty"
    refusal = store.merge_refusal(pull)
    assert isinstance(refusal, ApiError) and refusal.status == 405
    with pytest.raises(ApiError):
        store.merge_pull(pull, octo)
    with pytest.raises(ApiError):
        store.update_branch(pull, octo)


def test_draft_behind_blocked_and_unstable() -> None:
    store = new_store()
    repo, octo, pull = _setup(store)
    store.update_pull(pull, draft=True)
    assert store.merge_state(pull) == "draft"
    store.update_pull(pull, draft=False)
    store.set_ci(repo, pull.head_sha, "failure", octo)
    assert store.merge_state(pull) == "unstable"
    store.protect(repo, "main", required_contexts=["ci"])
    assert store.merge_state(pull) == "blocked"
    refusal = store.merge_refusal(pull)
    assert refusal is not None and 'Required status check "ci" is failing.' in str(refusal)
    store.set_ci(repo, pull.head_sha, "success", octo)
    store.protect(repo, "main", required_contexts=["ci"], strict=True)
    store.commit_to_branch(repo, "main", "elsewhere", files={"b.txt": b"b\n"})
    assert store.merge_state(pull) == "behind"
    new_head = store.update_branch(pull, octo)
    assert pull.head_sha == new_head and store.update_branch(pull, octo) == new_head
    store.set_ci(repo, new_head, "success", octo)
    assert store.merge_state(pull) == "clean"


@pytest.mark.parametrize(("method", "parents"), [("merge", 2), ("squash", 1), ("rebase", 1)])
def test_each_method_moves_the_base_and_closes_the_issues_named(method: str, parents: int) -> None:
    store = new_store()
    repo, octo, pull = _setup(store)
    issue = store.create_issue(repo, octo, "bug")
    sha = store.merge_pull(pull, octo, method=method)
    assert (
        store.branch_sha(repo, "main") == sha
        and len(store.commits[(repo.id, sha)].parents) == parents
    )
    assert store.lookup(repo, sha, "a.txt") is not None
    assert (pull.state, pull.merged, pull.merge_commit_sha) == ("closed", True, sha)
    assert [e.event for e in store.events(pull)][-2:] == ["merged", "closed"]
    assert (issue.state, issue.state_reason) == ("closed", "completed")
    assert store.events(issue)[-1].closer_number == pull.number


def test_a_stale_head_or_an_unknown_method_is_refused() -> None:
    store = new_store()
    _, octo, pull = _setup(store)
    with pytest.raises(ApiError) as stale:
        store.merge_pull(pull, octo, expected_head_sha="0" * 40)
    assert stale.value.status == 409
    with pytest.raises(ApiError) as bad:
        store.merge_pull(pull, octo, method="octopus")
    assert bad.value.status == 422
    assert pull.state == "open"


def test_closing_links_both_ways() -> None:
    store = new_store()
    repo, octo, pull = _setup(store)
    issue = store.create_issue(repo, octo, "bug")
    assert store.closing_issues(pull) == [issue] and store.closing_pulls(issue) == [pull]


def test_auto_merge_waits_for_the_required_review() -> None:
    store = new_store()
    repo, octo, pull = _setup(store)
    store.protect(repo, "main", required_reviews=1)
    store.enable_auto_merge(pull, octo, "squash")
    assert pull.state == "open" and pull.auto_merge_method == "squash"
    store.add_review(pull, store.ensure_user("bob"), "APPROVED")
    assert pull.merged and pull.auto_merge_method is None


def test_a_deleted_head_closes_the_pull_request_and_a_new_one_is_noted() -> None:
    store = new_store()
    repo, _, pull = _setup(store)
    store.delete_ref(repo, "heads/feat/x")
    assert pull.state == "closed"
    store.create_ref(repo, "heads/feat/x", pull.head_sha)
    assert [e.event for e in store.events(pull)] == [
        "head_ref_deleted",
        "closed",
        "head_ref_restored",
    ]
