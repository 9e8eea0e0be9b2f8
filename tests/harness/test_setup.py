"""ghbench.harness.setup: one session per issue, each with its PR, as the workload driver
opens them against the session's emulator over a real socket; a valid setup reused, a
stale one (a PR no longer open) run afresh; issues that do not match the sessions
refused before anything starts. (The same through the CLI, with the emulator as its own
process: tests/harness/test_workload_flow.py.)

The outcome as ``ghbench setup`` reports it: a line per session with its PR, and a
setup whose sessions did not all open one is an error that keeps its artifact."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
import pytest

from ghbench.artifacts.models import Session
from ghbench.clock import SystemClock
from ghbench.drivers.project import Project
from ghbench.drivers.workload.driver import WorkloadDriver
from ghbench.errors import GhbenchError, UsageError
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.harness.progress import LineProgress
from ghbench.harness.setup import SetupOutcome, run_setup
from ghbench.harness.setup_artifact import new_setup
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec

from .helpers import clean_env

TOKEN = "ghp_test0000000000000000000000000000000001"  # the conftest emulator's


def _spec(out: Path, issues: tuple[int, ...], sessions: int) -> RunSpec:
    return RunSpec(
        driver="workload",
        backend="emulator",
        transport="http",
        tick=Duration(0.2, "0.2s"),
        cell=Cell("S2", "T1", sessions),
        issues=issues,
        poll_interval=Duration(0.2, "0.2s"),
        setup_timeout=Duration(30.0, "30s"),
        out_dir=out,
    )


@pytest.mark.slow
def test_sessions_get_their_prs_then_the_setup_is_reused_until_it_is_stale(
    emulator_server: Any, tmp_path: Path
) -> None:
    clock = SystemClock()
    backend = EmulatorBackend.attach(
        emulator_server.url,
        TOKEN,
        clock,
        tmp_path / "state",
        control_key=emulator_server.emulator.control_key,
    )
    project = Project("todo-app", tmp_path / "todo-app", "acme/todo", "main", "ta", None)
    spec = _spec(tmp_path / "out", (1, 2), 2)
    said = io.StringIO()

    def setup() -> Any:
        driver = WorkloadDriver(
            project, tmp_path / "work", backend, spec, base_env=clean_env(tmp_path)
        )
        return run_setup(
            spec, project, driver=driver, backend=backend, clock=clock, progress=LineProgress(said)
        )

    first = setup()
    assert not first.reused and first.setup.ready
    assert [s.issue for s in first.setup.sessions] == [1, 2]
    assert all(s.pr_number and s.branch for s in first.setup.sessions)
    again = setup()
    assert again.reused and again.setup == first.setup
    assert "Setup already exists, reusing." in said.getvalue()
    closed = first.setup.sessions[0]
    with httpx.Client(base_url=backend.url, headers={"Authorization": f"token {TOKEN}"}) as api:
        api.patch(f"/repos/acme/todo/pulls/{closed.pr_number}", json={"state": "closed"})
    fresh = setup()
    assert not fresh.reused and fresh.path == first.path
    assert f"is stale ({closed.session_id}: PR #{closed.pr_number} is not open)" in said.getvalue()


def test_issues_that_do_not_match_the_sessions_are_refused_first(tmp_path: Path) -> None:
    clock = SystemClock()
    backend = EmulatorBackend(state_dir=tmp_path / "state", clock=clock)  # never started
    project = Project("todo-app", tmp_path / "todo-app", "acme/todo", "main", "ta", None)
    spec = _spec(tmp_path / "out", (1, 2, 3), 2)
    driver = WorkloadDriver(project, tmp_path / "work", backend, spec, base_env={})
    with pytest.raises(UsageError, match="--issues lists 3 issues but --sessions is 2"):
        run_setup(
            spec,
            project,
            driver=driver,
            backend=backend,
            clock=clock,
            progress=LineProgress(io.StringIO()),
        )
    assert not (tmp_path / "out").exists()


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
