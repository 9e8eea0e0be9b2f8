"""AO's daemon's row of the driver table: a matrix cell's checkouts and projects, which
cells over the same repos share."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ghbench.drivers.ao_daemon.kind import AO_DAEMON
from ghbench.runspec.cells import Cell


@pytest.mark.needs("git")
def test_a_cells_projects_are_named_after_their_repos_and_share_one_world(
    tmp_path: Path,
) -> None:
    repos = ("ghbench-matrix/t2-10-r1", "ghbench-matrix/t2-10-r2")
    projects = AO_DAEMON.cell_projects(Cell("S2", "T2", 10), repos, tmp_path, True, False)
    assert [(p.id, p.session_prefix) for p in projects] == [
        ("t2-10-r1", "t2-10-r1"),
        ("t2-10-r2", "t2-10-r2"),
    ]
    (config,) = {p.config_path for p in projects}
    assert config is not None and json.loads(config.read_text())["repos"] == list(repos)
    origin = subprocess.run(
        ["git", "-C", str(projects[0].path), "remote", "get-url", "origin"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert origin.stdout.strip() == "https://github.com/ghbench-matrix/t2-10-r1.git"
    # another scenario over the same repos: the same world, so its setup is reused
    again = AO_DAEMON.cell_projects(Cell("S4", "T2", 10), repos, tmp_path, True, False)
    assert {p.config_path for p in again} == {config}
    # two repos of one name under different owners keep their owners in their ids
    clash = AO_DAEMON.cell_projects(
        Cell("S2", "T1", 1), ("a/todo", "b/todo"), tmp_path, True, False
    )
    assert [p.id for p in clash] == ["a-todo", "b-todo"]
