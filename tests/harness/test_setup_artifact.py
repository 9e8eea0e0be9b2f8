"""ghbench.harness.setup_artifact: the setup a measurement relies on, written once and
read back checked: where it lives, a session without its PR, a partial setup."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.artifacts.models import Session
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError
from ghbench.harness.setup_artifact import (
    new_setup,
    read_setup,
    require_ready_setup,
    setup_cell,
    setup_path,
    write_setup,
)

PROJECT = Project("todo-app", Path("/w/todo-app"), "acme/todo", "main", "ta", None)


def _session(n: int, **missing: None) -> Session:
    fields: dict[str, object] = {
        "session_id": f"ta-{n}",
        "issue": n,
        "branch": f"feat/{n}",
        "worktree_path": f"/w/ta-{n}",
        "pr_number": 10 + n,
    }
    fields.update(missing)
    return Session(**fields)  # type: ignore[arg-type]


def _write(out: Path, sessions: list[Session], *, ready: bool = True, count: int = 2) -> Path:
    setup = new_setup(
        setup_cell(count),
        project=PROJECT.id,
        repo=PROJECT.repo,
        sessions=sessions,
        created_at=1_776_400_000.0,
        version=("abc123", "main"),
        ready=ready,
    )
    return write_setup(setup, setup_path(out, PROJECT.id, setup.scenario_id))


def test_a_ready_setup_round_trips_from_where_measure_looks(tmp_path: Path) -> None:
    path = _write(tmp_path, [_session(1), _session(2)])
    assert path == tmp_path / "setup-todo-app-quiet-steady.single-repo.2.json"
    found, setup = require_ready_setup(PROJECT, 2, tmp_path)
    assert found == path
    assert [s.pr_number for s in setup.sessions] == [11, 12]
    assert (setup.git_sha, setup.branch, setup.created_at) == (
        "abc123",
        "main",
        "2026-04-17T04:26:40Z",
    )
    with pytest.raises(ArtifactError):
        write_setup(setup, path)  # never over the setup measured against


def test_a_missing_setup_says_which_command_makes_it(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="run 'ghbench setup --project todo-app --sessions 3"):
        require_ready_setup(PROJECT, 3, tmp_path)
    with pytest.raises(ArtifactError, match="no setup artifact; run 'ghbench setup' first"):
        read_setup(tmp_path / "nowhere.json")


@pytest.mark.parametrize("field", ["pr_number", "branch", "worktree_path"])
def test_a_session_without_what_measuring_needs_is_refused(field: str, tmp_path: Path) -> None:
    _write(tmp_path, [_session(1), _session(2, **{field: None})])
    with pytest.raises(ArtifactError, match="session ta-2 has no PR, branch or worktree"):
        require_ready_setup(PROJECT, 2, tmp_path)


def test_a_partial_setup_is_refused_with_how_far_it_got(tmp_path: Path) -> None:
    _write(tmp_path, [_session(1)], ready=False, count=3)
    with pytest.raises(ArtifactError, match=r"partial \(ready: false, 1 of 3 sessions"):
        require_ready_setup(PROJECT, 3, tmp_path)
