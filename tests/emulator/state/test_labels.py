"""Repository labels in the store: case-insensitive names, implicit creation, renames
and deletions carried to every issue and pull request."""

from __future__ import annotations

import pytest
from emu_helpers import new_store

from ghbench.emulator.errors import ValidationFailed
from ghbench.emulator.state import Repo, Store, User
from ghbench.emulator.state.labels import DEFAULT_LABELS


@pytest.fixture
def store() -> Store:
    return new_store()


def _repo(store: Store) -> tuple[Repo, User]:
    return store.create_repo("acme", "todo"), store.ensure_user("octo")


def test_names_compare_without_case_and_the_labels_own_spelling_wins(store: Store) -> None:
    repo, octo = _repo(store)
    store.create_label(repo, "Bug", color="D73A4A")
    issue = store.create_issue(repo, octo, "t", labels=["bug", "BUG", "new one"])
    assert issue.labels == ["Bug", "new one"]
    made = store.get_label(repo, "NEW ONE")
    assert (made.color, store.get_label(repo, "bug").color) == ("ededed", "d73a4a")
    with pytest.raises(ValidationFailed):
        store.create_label(repo, "BUG")


def test_default_labels_are_githubs_nine_and_added_once(store: Store) -> None:
    repo, _ = _repo(store)
    store.create_label(repo, "Bug")
    store.add_default_labels(repo)
    store.add_default_labels(repo)
    names = [label.name for label in store.labels(repo)]
    assert len(names) == len(DEFAULT_LABELS) == 9
    assert names[0] == "Bug" and store.get_label(repo, "wontfix").default


def test_a_rename_is_carried_to_every_carrier_and_may_change_only_case(store: Store) -> None:
    repo, octo = _repo(store)
    issue = store.create_issue(repo, octo, "i", labels=["bug", "ui"])
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    store.set_labels(pull, ["bug"])
    store.update_label(store.get_label(repo, "bug"), new_name="defect", color="ABCDEF")
    assert issue.labels == ["defect", "ui"] and pull.labels == ["defect"]
    assert store.label(repo, "bug") is None and store.get_label(repo, "defect").color == "abcdef"
    store.update_label(store.get_label(repo, "ui"), new_name="UI")
    assert issue.labels == ["defect", "UI"]
    with pytest.raises(ValidationFailed):
        store.update_label(store.get_label(repo, "UI"), new_name="Defect")


def test_deleting_a_label_takes_it_off_every_carrier(store: Store) -> None:
    repo, octo = _repo(store)
    issue = store.create_issue(repo, octo, "i", labels=["bug", "ui"])
    store.delete_label(store.get_label(repo, "bug"))
    assert issue.labels == ["ui"] and store.label(repo, "bug") is None


def test_setting_labels_records_one_event_per_label_added_or_removed(store: Store) -> None:
    repo, octo = _repo(store)
    issue = store.create_issue(repo, octo, "i", labels=["a", "b"])
    store.set_labels(issue, ["B", "c"])
    assert issue.labels == ["b", "c"]
    events = [(e.event, e.label) for e in store.events(issue)]
    assert events == [("labeled", "c"), ("unlabeled", "a")]
