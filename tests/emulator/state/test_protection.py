"""Branch protection rules and the review decision they make."""

from __future__ import annotations

from emu_helpers import new_store

from ghbench.emulator.state import PullRequest, Store, User


def _pull(store: Store) -> tuple[PullRequest, User, User]:
    repo = store.create_repo("acme", "todo")
    octo, bob, eve = store.ensure_user("octo"), store.ensure_user("bob"), store.ensure_user("eve")
    del eve
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    return pull, octo, bob


def test_no_decision_unless_the_base_requires_approvals() -> None:
    store = new_store()
    pull, _, bob = _pull(store)
    repo = store.repos[pull.repo_id]
    store.add_review(pull, bob, "APPROVED")
    assert store.review_decision(pull) is None
    store.protect(repo, "main", required_contexts=["ci"])
    assert store.review_decision(pull) is None
    store.protect(repo, "main", required_reviews=2)
    assert store.review_decision(pull) == "REVIEW_REQUIRED"
    eve = store.ensure_user("eve")
    store.add_review(pull, eve, "APPROVED")
    assert store.review_decision(pull) == "APPROVED"


def test_a_later_comment_does_not_undo_a_decisive_review_but_a_change_request_wins() -> None:
    store = new_store()
    pull, _, bob = _pull(store)
    store.protect(store.repos[pull.repo_id], "main", required_reviews=1)
    store.add_review(pull, bob, "APPROVED")
    store.add_review(pull, bob, "COMMENTED", body="nit")
    assert store.latest_reviews(pull)[bob.id].state == "APPROVED"
    assert store.review_decision(pull) == "APPROVED"
    store.add_review(pull, store.ensure_user("eve"), "CHANGES_REQUESTED", body="no")
    assert store.review_decision(pull) == "CHANGES_REQUESTED"


def test_dismissing_stale_reviews_counts_only_approvals_of_the_head() -> None:
    store = new_store()
    pull, _, bob = _pull(store)
    repo = store.repos[pull.repo_id]
    store.protect(repo, "main", required_reviews=1, dismiss_stale_reviews=True)
    store.add_review(pull, bob, "APPROVED")
    assert store.review_decision(pull) == "APPROVED"
    store.move_branch(repo, "feat/x", store.commit_to_branch(repo, "feat/x", "more").sha)
    assert store.review_decision(pull) == "REVIEW_REQUIRED"


def test_protecting_again_replaces_the_rule_and_unprotecting_says_whether_there_was_one() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    first = store.protect(repo, "main", required_reviews=1, strict=True)
    second = store.protect(repo, "main", required_contexts=["ci"])
    assert (second.id, second.node_id) == (first.id, first.node_id)
    assert (second.required_reviews, second.strict) == (None, False)
    assert store.protection(repo, "main") is second
    assert store.unprotect(repo, "main") is True
    assert store.unprotect(repo, "main") is False
    assert store.protection(repo, "main") is None and store.node(first.node_id) is None
