"""The demo's run and project (``demo_spec``, ``write_demo_config``): whatever the flags
gave, the model on the emulator in its own project, an issue per session; the config
written once and kept. The demo end to end is tests/commands/test_demo.py."""

from __future__ import annotations

from pathlib import Path

import yaml

from ghbench.harness.demo import DEMO_PROJECT, DEMO_REPO, demo_spec, write_demo_config
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec


def test_the_demo_runs_the_model_on_the_emulator_an_issue_per_session() -> None:
    given = RunSpec(driver="ao", backend="github", cell=Cell("S4", "T2", 3), project="mine")
    spec = demo_spec(given)
    assert (spec.driver, spec.backend, spec.project) == ("workload", "emulator", DEMO_PROJECT)
    assert spec.cell == Cell("S2", "T1", 3)
    assert spec.issues == (1, 2, 3)
    assert spec.poll_interval.seconds == 1.0


def test_the_config_names_the_demo_project_and_is_written_once(tmp_path: Path) -> None:
    path = write_demo_config(tmp_path)
    project = yaml.safe_load(path.read_text())["projects"][DEMO_PROJECT]
    assert project["repo"] == DEMO_REPO
    assert Path(project["path"]) == (tmp_path / "todo").resolve() and Path(project["path"]).is_dir()
    path.write_text("edited: true\n")
    assert write_demo_config(tmp_path) == path
    assert path.read_text() == "edited: true\n"  # a user's edit is kept
