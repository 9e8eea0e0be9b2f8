"""One AO per project: which project a session belongs to, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.drivers.ao_typescript.driver import AoDriver
from ghbench.drivers.ao_typescript.runtime import AoRouting
from ghbench.drivers.ao_typescript.spread import AoSpreadDriver
from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.common.ao_cli import AoCommand
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError


def _driver(pid: str, prefix: str) -> AoDriver:
    project = Project(pid, Path("/w") / pid, f"o/{pid}", "main", prefix, None)
    return AoDriver(
        project=project,
        command=AoCommand("ao"),
        world=AoWorld(Path("/out/state/ao") / pid, project),
        routing=lambda: AoRouting(env={}),
        base_env={"HOME": "/h"},
    )


def test_sessions_belong_to_the_project_of_their_prefix() -> None:
    spread = AoSpreadDriver((_driver("a", "r1"), _driver("b", "r2")))
    assert spread.project_id == "a" and spread.main.project.id == "a"
    assert spread.driver_for("r2-13").project.id == "b"
    assert spread.driver_for("r1-1").project.id == "a"
    with pytest.raises(
        GhbenchError, match=r"session r3-1 belongs to no project \(prefixes: r1, r2\)"
    ):
        spread.driver_for("r3-1")


def test_each_project_has_its_own_world_and_prefixes_differ() -> None:
    spread = AoSpreadDriver((_driver("a", "r1"), _driver("b", "r2")))
    assert len({d.home for d in spread.drivers}) == 2  # one HOME, hence one AO, each
    with pytest.raises(ValueError, match="share a session prefix"):
        AoSpreadDriver((_driver("a", "r1"), _driver("b", "r1")))
    with pytest.raises(ValueError, match="at least one project"):
        AoSpreadDriver(())
