"""What a family of drivers tells the registry: one ``DriverKind``, a row of its table.

A ``DriverKind`` is named by ``runspec.names.DriverKindName`` (the flag table's
``takes`` column says which settings each kind acts on) and says whether it runs what a
``RunSpec`` names (``runs``: the driver's name, and for AO what the binary behind
``--ao`` is), how to build it over one project
or several (a matrix cell's spread), how a matrix cell's projects are made for it, and
what it must check before a cell starts. Each family (``ao_typescript``, ``ao_daemon``,
``workload``) defines its row; ``ghbench.drivers.registry`` holds the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project, load_project
from ghbench.errors import UsageError
from ghbench.github.backend import Backend
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import DriverKindName
from ghbench.runspec.spec import RunSpec

__all__ = ["DriverContext", "DriverKind", "config_project", "project_flag", "state_dir"]


def state_dir(out_dir: Path, *parts: str) -> Path:
    """Where a run keeps what it must find again (``OUT/state/...``)."""
    return out_dir / "state" / Path(*parts)


def project_flag(spec: RunSpec) -> str:
    """``--project``: the id of the project to measure (setup and measure need it)."""
    if spec.project is None:
        raise UsageError("--project is required: the id of the project to measure")
    return spec.project


def config_project(spec: RunSpec, env: Mapping[str, str], cwd: Path, home: Path) -> Project:
    """``projects.<id>`` of the ``agent-orchestrator.yaml`` AO would read from ``cwd``
    (AO's TypeScript builds and the model find their project so)."""
    return load_project(project_flag(spec), env=env, cwd=cwd, home=home, explicit=spec.ao_config)


@dataclass(frozen=True)
class DriverContext:
    """What every driver is built from besides its projects."""

    spec: RunSpec
    backend: Backend
    out_dir: Path  # the run's directory: its state goes under OUT/state
    env: Mapping[str, str]  # the user's environment, the base of the orchestrator's
    dashboard: bool = False  # the window reads the orchestrator's dashboard (S6)


@dataclass(frozen=True)
class DriverKind:
    """One kind of orchestrator ghbench drives."""

    name: DriverKindName
    runs: Callable[[RunSpec, Mapping[str, str]], bool]
    build: Callable[[DriverContext, Sequence[Project]], Driver]
    # a matrix cell's projects over its repos: (cell, repos, work dir, whether ghbench
    # seeds the repos, dashboard)
    cell_projects: Callable[[Cell, Sequence[str], Path, bool, bool], list[Project]]
    uses_gh: Callable[[RunSpec], bool]  # calls gh, so gh must reach the run's GitHub
    # the project ``--project`` names, for setup and measure: (spec, env, cwd, home)
    find_project: Callable[[RunSpec, Mapping[str, str], Path, Path], Project]
    # refuse early what a cell would fail on later (a browser named but not installed)
    check_dashboard: Callable[[Mapping[str, str]], None] = lambda env: None
