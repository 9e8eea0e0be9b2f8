"""ghbench.drivers.ao_typescript.cell: AO's side of a matrix cell: one config over the
cell's repos (a project each, its own session prefix, the dashboard's port for S6) and
a checkout per repo; cells over the same repos share the config's directory."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path, PurePosixPath

import pytest

from ghbench.drivers.ao_typescript.cell import orchestrator_config, prepare_ao_cell
from ghbench.runspec.cells import Cell


def test_cell_config_gives_every_project_its_own_prefix_and_path() -> None:
    raw = orchestrator_config(["o/app", "p/app.js"], PurePosixPath("/w/checkouts"), port=4123)
    assert raw == {
        "projects": {
            "o-app": {
                "repo": "o/app",
                "path": "/w/checkouts/o-app",
                "defaultBranch": "main",
                "sessionPrefix": "r1",
            },
            "p-app-js": {
                "repo": "p/app.js",
                "path": "/w/checkouts/p-app-js",
                "defaultBranch": "main",
                "sessionPrefix": "r2",
            },
        },
        "port": 4123,
    }
    assert "port" not in orchestrator_config(["o/app"], PurePosixPath("/w"))


@pytest.mark.needs("git")
def test_a_cells_checkouts_and_config_on_the_emulator(tmp_path: Path) -> None:
    repos = ("ghbench-matrix/t2-10-r1", "ghbench-matrix/t2-10-r2")
    cell = prepare_ao_cell(Cell("S2", "T2", 10), repos, tmp_path, seeds_repos=True)
    assert cell.port is None
    assert [(p.id, p.session_prefix) for p in cell.projects] == [
        ("ghbench-matrix-t2-10-r1", "r1"),
        ("ghbench-matrix-t2-10-r2", "r2"),
    ]
    assert {p.config_path for p in cell.projects} == {cell.config_path}
    written = json.loads(cell.config_path.read_text())
    assert list(written["projects"]) == [p.id for p in cell.projects]
    origin = subprocess.run(
        ["git", "-C", str(cell.projects[1].path), "remote", "get-url", "origin"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert origin.stdout.strip() == "https://github.com/ghbench-matrix/t2-10-r2.git"
    s6 = prepare_ao_cell(Cell("S6", "T2", 10), repos, tmp_path, seeds_repos=True, dashboard=True)
    assert s6.config_path == cell.config_path  # the same repos: one config, rewritten
    assert json.loads(s6.config_path.read_text())["port"] == s6.port
    other = prepare_ao_cell(Cell("S2", "T2", 10), repos[:1], tmp_path, seeds_repos=True)
    assert other.config_path != cell.config_path
