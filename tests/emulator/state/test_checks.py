"""Commit statuses and check runs: the combined state and a commit's CI by name."""

from __future__ import annotations

import pytest
from emu_helpers import store_with_repo


@pytest.mark.parametrize(
    ("states", "combined"),
    [
        ([], "pending"),
        (["success", "success"], "success"),
        (["success", "pending"], "pending"),
        (["pending", "failure"], "failure"),
        (["success", "error"], "failure"),
    ],
)
def test_the_combined_state_is_the_worst_latest_status(states: list[str], combined: str) -> None:
    store, repo, octo, sha = store_with_repo()
    for n, state in enumerate(states):
        store.add_status(repo, sha, state, octo, context=f"c{n}")
    assert store.combined_state(repo, sha) == combined


def test_only_the_latest_status_of_a_context_counts() -> None:
    store, repo, octo, sha = store_with_repo()
    store.add_status(repo, sha, "failure", octo, context="lint")
    store.add_status(repo, sha, "success", octo, context="lint")
    assert store.combined_state(repo, sha) == "success"
    assert [s.state for s in store.statuses(repo, sha)] == ["success", "failure"]
    assert len(store.latest_statuses(repo, sha)) == 1


def test_check_states_by_name_a_check_run_winning_a_name_a_status_has() -> None:
    store, repo, octo, sha = store_with_repo()
    store.add_status(repo, sha, "error", octo, context="deploy")
    store.add_status(repo, sha, "success", octo, context="build")
    store.create_check_run(repo, sha, "build", conclusion="failure")
    store.create_check_run(repo, sha, "test", conclusion="failure")
    store.create_check_run(repo, sha, "test", conclusion="neutral")  # newer wins
    store.create_check_run(repo, sha, "slow", status="in_progress")
    store.create_check_run(repo, sha, "stale", conclusion="stale")
    assert store.check_states(repo, sha) == {
        "deploy": "failure",
        "build": "failure",
        "test": "success",
        "slow": "pending",
        "stale": "pending",
    }


def test_a_check_run_with_a_conclusion_is_completed_and_updates_move_it() -> None:
    store, repo, _, sha = store_with_repo()
    run = store.create_check_run(repo, sha, "build", conclusion="success")
    assert run.status == "completed" and run.completed_at is not None
    store.update_check_run(run, status="in_progress")
    assert (run.status, run.conclusion, run.completed_at) == ("in_progress", None, None)
    store.update_check_run(run, conclusion="failure")
    assert (run.status, run.conclusion) == ("completed", "failure")
    other = store.create_repo("acme", "other")
    assert store.check_run(repo, run.id) is run and store.check_run(other, run.id) is None
