"""What every family's row shares: the project ``--project`` names, and where a run's
state goes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ghbench.drivers.kind import config_project, project_flag, state_dir
from ghbench.errors import UsageError
from ghbench.runspec.spec import RunSpec


def test_setup_and_measure_need_the_project(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--project is required"):
        project_flag(RunSpec())
    assert project_flag(RunSpec(project="todo-app")) == "todo-app"
    assert state_dir(tmp_path, "ao", "p") == tmp_path / "state" / "ao" / "p"


def test_the_project_is_the_one_the_config_ao_would_read_names(tmp_path: Path) -> None:
    config = tmp_path / "agent-orchestrator.yaml"
    checkout = tmp_path / "src" / "todo-app"
    config.write_text(
        yaml.safe_dump({"projects": {"todo": {"path": str(checkout), "repo": "a/b"}}})
    )
    project = config_project(RunSpec(project="todo"), {}, tmp_path, tmp_path / "home")
    assert (project.id, project.repo, project.session_prefix) == ("todo", "a/b", "ta")
    assert project.config_path == config
