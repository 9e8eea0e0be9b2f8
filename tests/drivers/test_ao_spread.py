"""ONE AO over several projects: which project a session belongs to, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.drivers.ao import AoCommand, AoDriver
from ghbench.drivers.ao_spread import AoSpreadDriver
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError


def _driver(pid: str, prefix: str, config: Path | None) -> AoDriver:
    project = Project(pid, Path("/w") / pid, f"o/{pid}", "main", prefix, config)
    return AoDriver(project=project, command=AoCommand("ao"), base_env={"HOME": "/h"})


def test_sessions_belong_to_the_project_of_their_prefix() -> None:
    cfg = Path("/w/agent-orchestrator.yaml")
    spread = AoSpreadDriver((_driver("a", "r1", cfg), _driver("b", "r2", cfg)))
    assert spread.project_id == "a" and spread.main.project.id == "a"
    assert spread.driver_for("r2-13").project.id == "b"
    assert spread.driver_for("r1-1").project.id == "a"
    with pytest.raises(
        GhbenchError, match=r"session r3-1 belongs to no project \(prefixes: r1, r2\)"
    ):
        spread.driver_for("r3-1")


def test_projects_must_share_one_config_and_differ_in_prefix() -> None:
    one, other = Path("/w/one.yaml"), Path("/w/other.yaml")
    with pytest.raises(ValueError, match="share one config"):
        AoSpreadDriver((_driver("a", "r1", one), _driver("b", "r2", other)))
    with pytest.raises(ValueError, match="share a session prefix"):
        AoSpreadDriver((_driver("a", "r1", one), _driver("b", "r1", one)))
    with pytest.raises(ValueError, match="at least one project"):
        AoSpreadDriver(())
