"""Which driver runs a spec, from a table: a new build plugs in as a row, and one
driver or several projects' come from the same call."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec
import pytest

from ghbench.clock import VirtualClock
from ghbench.drivers.ao_typescript.driver import AoDriver
from ghbench.drivers.ao_typescript.spread import AoSpreadDriver
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.drivers.registry import (
    DRIVER_KINDS,
    DriverContext,
    DriverKind,
    build_driver,
    cell_projects,
    driver_kind,
)
from ghbench.drivers.workload.driver import WorkloadDriver, WorkloadFleet
from ghbench.errors import UsageError
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec


def _projects(root: Path, count: int) -> list[Project]:
    return [
        Project(f"o-t2-4-r{i}", root / f"r{i}", f"o/t2-4-r{i}", "main", f"r{i}", None)
        for i in range(1, count + 1)
    ]


def _backend(tmp_path: Path) -> EmulatorBackend:
    """An emulator's address, with nothing listening there: nothing here calls it."""
    return EmulatorBackend.attach(
        "http://127.0.0.1:9", "ghp_unused", VirtualClock(), tmp_path, control_key="unused"
    )


def test_the_spec_names_the_driver_and_several_projects_get_one_over_all(tmp_path: Path) -> None:
    backend, env = _backend(tmp_path), {"PATH": "/usr/bin:/bin"}

    def build(spec: RunSpec, count: int) -> Driver:
        return build_driver(
            spec, _projects(tmp_path, count), backend=backend, out_dir=tmp_path, env=env
        )

    model = RunSpec(driver="workload", transport="http")
    one, spread = build(model, 1), build(model, 2)
    assert isinstance(one, WorkloadDriver) and one.project_id == "o-t2-4-r1"
    assert isinstance(spread, WorkloadFleet) and spread.project_id == "o-t2-4-spread"
    config = spread.model.workload_config([])
    assert config.repos == ("o/t2-4-r1", "o/t2-4-r2") and config.transport == "http"
    ao = RunSpec(driver="ao", ao_command="/bin/true")
    assert isinstance(build(ao, 1), AoDriver) and isinstance(build(ao, 2), AoSpreadDriver)
    assert build(ao, 2).per_project_processes and not spread.per_project_processes


def test_a_build_told_apart_by_what_it_runs_is_a_row_ahead_of_the_one_it_refines(
    tmp_path: Path,
) -> None:
    """Another AO build behind the same --ao (no new flag): detected, not named."""
    ao = next(k for k in DRIVER_KINDS if k.name == "ao-typescript")
    built: list[str] = []

    def detect(spec: RunSpec, env: object) -> bool:
        return spec.driver == "ao" and (spec.ao_command or "").endswith("ao-go")

    def build(ctx: DriverContext, projects: object) -> Driver:
        built.append(ctx.spec.ao_command or "")
        return ao.build(ctx, projects)  # type: ignore[arg-type]

    newer = dataclasses.replace(ao, name="ao-go", runs=detect, build=build)
    kinds = (DRIVER_KINDS[0], newer, *DRIVER_KINDS[1:])
    assert driver_kind(RunSpec(driver="ao", ao_command="/x/ao-go"), {}, kinds) is newer
    assert driver_kind(RunSpec(driver="ao", ao_command="/x/ao"), {}, kinds) is ao
    assert driver_kind(RunSpec(driver="workload"), {}, kinds).name == "workload"
    assert isinstance(newer, DriverKind) and built == []


def test_a_cells_projects_are_the_drivers_own(tmp_path: Path) -> None:
    spec = RunSpec(driver="workload", cell=Cell("S2", "T2", 4))
    repos = ("ghbench-matrix/t2-4-r1", "ghbench-matrix/t2-4-r2")
    projects = cell_projects(spec, repos, backend=_backend(tmp_path), work_dir=tmp_path, env={})
    assert [(p.id, p.session_prefix) for p in projects] == [
        ("ghbench-matrix-t2-4-r1", "r1"),
        ("ghbench-matrix-t2-4-r2", "r2"),
    ]


def test_a_driver_that_does_not_launch_the_agent_model_refuses_agents(tmp_path: Path) -> None:
    """--agents in S3/S4: the TypeScript AO driver makes the model its claude; a driver
    whose row does not launch it refuses, rather than run other agents than asked."""
    backend, env = _backend(tmp_path), {"PATH": "/usr/bin:/bin"}
    s3 = Cell("S3", "T1", 1)
    ao = RunSpec(driver="ao", ao_command="/bin/true", cell=s3, agents="claude-code")
    driver = build_driver(ao, _projects(tmp_path, 1), backend=backend, out_dir=tmp_path, env=env)
    assert isinstance(driver, AoDriver) and driver.agent_model == "claude-code-gh-2.102"
    s2 = build_driver(
        msgspec.structs.replace(ao, cell=Cell("S2", "T1", 1)),
        _projects(tmp_path, 1), backend=backend, out_dir=tmp_path, env=env,
    )  # fmt: skip
    assert isinstance(s2, AoDriver) and s2.agent_model is None  # S2's sessions are idle
    model = RunSpec(driver="workload", transport="http", cell=s3, agents="claude-code")
    with pytest.raises(UsageError, match="--agents: the workload driver does not launch"):
        build_driver(model, _projects(tmp_path, 1), backend=backend, out_dir=tmp_path, env=env)
