"""What an issue or pull request is to search (``search/facts.py``), on the store: its
comments (a PR's review comments and review bodies too, but not in its count), labels
compared case-insensitively, mentions as whole ``@login`` words, who is involved, and
a pull request's review and CI state."""

from __future__ import annotations

import pytest
from emu_helpers import repo_named, user_named

from ghbench.emulator.core import Emulator
from ghbench.emulator.search.facts import (
    ci_state,
    comment_count,
    comments_of,
    has_any_label,
    involves,
    mentions,
    pull_of,
    reviews_state,
)
from ghbench.emulator.state import Issue, PullRequest, Store


@pytest.fixture
def store(emulator: Emulator) -> Store:
    for login in ("hubot", "carol", "dave"):
        emulator.create_user(login)
    return emulator.store


def _issue(emulator: Emulator, store: Store, **kwargs: object) -> Issue:
    number = emulator.create_issue("acme/todo", "T", **kwargs)  # type: ignore[arg-type]
    issue = store.issue(repo_named(store), number)
    assert issue is not None
    return issue


def _pull(emulator: Emulator, store: Store, head: str = "feat/x") -> PullRequest:
    pull = store.pull(repo_named(store), emulator.create_pull("acme/todo", head, author="octo"))
    assert pull is not None
    return pull


def test_a_prs_comments_include_its_reviews_but_its_count_does_not(
    emulator: Emulator, store: Store
) -> None:
    pull = _pull(emulator, store)
    hubot, carol = user_named(store, "hubot"), user_named(store, "carol")
    with emulator.db.transaction():
        store.add_issue_comment(repo_named(store), pull.number, hubot, "first")
        store.add_review_comment(pull, carol, "nit", line=1)
        store.add_review(pull, carol, "COMMENTED", body="overall")
        store.add_review(pull, hubot, "APPROVED")  # no body: not a comment
    assert comments_of(store, pull) == [
        (hubot.id, "first"),
        (carol.id, "nit"),
        (carol.id, "overall"),
    ]
    assert comment_count(store, pull) == 1
    issue = _issue(emulator, store)
    assert comments_of(store, issue) == [] and comment_count(store, issue) == 0
    assert pull_of(pull) is pull and pull_of(issue) is None


def test_labels_compare_without_case(emulator: Emulator, store: Store) -> None:
    issue = _issue(emulator, store, labels=["Bug", "needs triage"])
    assert has_any_label(issue, ["bug"])
    assert has_any_label(issue, ["wontfix", "NEEDS TRIAGE"])
    assert not has_any_label(issue, ["bu", "triage"])
    assert not has_any_label(issue, [])


@pytest.mark.parametrize(
    ("body", "mentioned"),
    [
        ("cc @hubot", True),
        ("cc @HUBOT, please", True),
        ("(@hubot)", True),
        ("cc @hubot-two", False),  # another login
        ("cc @hubots", False),
        ("mail hubot@example.com", False),
        ("cc @@hubot", False),
        ("cc hubot", False),
    ],
)
def test_a_mention_is_a_whole_at_login(
    emulator: Emulator, store: Store, body: str, mentioned: bool
) -> None:
    assert mentions(store, _issue(emulator, store, body=body), "hubot") is mentioned


def test_who_is_involved(emulator: Emulator, store: Store) -> None:
    issue = _issue(emulator, store, author="carol", body="for @dave")
    repo, hubot = repo_named(store), user_named(store, "hubot")
    with emulator.db.transaction():
        store.set_assignees(issue, [user_named(store, "octo")])
        store.add_issue_comment(repo, issue.number, hubot, "me too")
    for login in ("carol", "CAROL", "octo", "dave", "hubot"):  # author, assignee, ...
        assert involves(store, issue, login), login
    assert not involves(store, issue, "acme")
    with emulator.db.transaction():  # a mention in a comment
        store.add_issue_comment(repo, issue.number, hubot, "@acme?")
    assert involves(store, issue, "acme")


def test_review_state_from_each_reviewers_latest_decision(emulator: Emulator, store: Store) -> None:
    pull = _pull(emulator, store)
    hubot, carol = user_named(store, "hubot"), user_named(store, "carol")
    assert reviews_state(store, pull) is None
    with emulator.db.transaction():
        store.add_review(pull, hubot, "COMMENTED", body="hm")
    assert reviews_state(store, pull) is None
    with emulator.db.transaction():
        store.add_review(pull, hubot, "APPROVED")
    assert reviews_state(store, pull) == "APPROVED"
    with emulator.db.transaction():
        store.add_review(pull, carol, "CHANGES_REQUESTED")
    assert reviews_state(store, pull) == "CHANGES_REQUESTED"  # any reviewer's blocks
    with emulator.db.transaction():
        store.add_review(pull, carol, "APPROVED")
    assert reviews_state(store, pull) == "APPROVED"


def test_ci_state_is_the_worst_of_the_heads_checks(emulator: Emulator, store: Store) -> None:
    pull = _pull(emulator, store)
    assert ci_state(store, pull) is None
    emulator.set_ci("acme/todo", "success", pr=pull.number, name="lint")
    assert ci_state(store, pull) == "success"
    emulator.set_ci("acme/todo", "pending", pr=pull.number, name="tests")
    assert ci_state(store, pull) == "pending"
    emulator.set_ci("acme/todo", "error", pr=pull.number, name="build")
    assert ci_state(store, pull) == "failure"
    emulator.set_ci("acme/todo", "success", pr=pull.number, name="build")
    emulator.set_ci("acme/todo", "success", pr=pull.number, name="tests")
    assert ci_state(store, pull) == "success"  # the latest of each
