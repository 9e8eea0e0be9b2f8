"""A setup's outcome as ``ghbench setup`` reports it: a line per session with its PR, and
a setup whose sessions did not all open one is an error that keeps its artifact. The
setup itself, on the embedded emulator, is tests/harness/test_workload_flow.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.artifacts.models import Session
from ghbench.errors import GhbenchError
from ghbench.harness.setup import SetupOutcome
from ghbench.harness.setup_artifact import new_setup
from ghbench.runspec.cells import Cell

ARTIFACT = Path("out/setup-todo-app-quiet-steady.single-repo.2.json")


def _outcome(opened: int, *, reused: bool = False) -> SetupOutcome:
    sessions = [
        Session(f"todo-{n}", issue=n, branch=f"feat/{n}", worktree_path=f"/w/{n}", pr_number=10 + n)
        for n in range(1, opened + 1)
    ]
    setup = new_setup(
        Cell("S2", "T1", 2),
        project="todo-app",
        repo="acme/todo",
        sessions=sessions,
        created_at=0.0,
        ready=opened == 2,
    )
    return SetupOutcome(ARTIFACT, setup, reused=reused, control_calls=3)


def test_a_ready_setup_lists_each_session_with_its_pr() -> None:
    outcome = _outcome(2)
    lines = outcome.lines()
    assert lines[0] == (
        f"Setup {outcome.setup.scenario_id}: ready, 2/2 sessions with open PRs in acme/todo"
    )
    assert lines[1].split() == ["todo-1", "issue", "#1", "feat/1", "PR", "#11"]
    assert lines[-2:] == ["  control calls: 3", f"  artifact: {ARTIFACT}"]
    outcome.raise_for_ready()


def test_a_reused_setup_says_so() -> None:
    assert ": reused, 2/2 sessions" in _outcome(2, reused=True).lines()[0]


def test_a_timed_out_setup_is_an_error_naming_its_partial_artifact() -> None:
    outcome = _outcome(1)
    assert ": NOT ready (timed out), 1/2 sessions" in outcome.lines()[0]
    with pytest.raises(GhbenchError, match=r"only 1 of 2 sessions opened a PR") as raised:
        outcome.raise_for_ready()
    assert f"partial artifact {ARTIFACT} (ready: false)" in str(raised.value)
