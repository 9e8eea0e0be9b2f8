"""Which driver runs a spec, and how it is built: one table, first match wins.

Each family of drivers defines its row (``ghbench.drivers.kind.DriverKind``): AO's
daemon (``ao_daemon``: ``--driver ao`` whose ``--ao`` is a daemon build, 0.10 or 0.12),
AO's TypeScript builds (``ao_typescript``: every other ``--driver ao``) and the workload
model (``workload``). A refinement of a driver (another build behind the same flag, told
apart by what it runs) goes before the row it refines. A new release of a build is a
row of its family's own table, not of this one (AO's daemon: ``ao_daemon.versions``).

``build_driver`` is the one way the flows get a driver.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

from ghbench.drivers.ao_daemon.kind import AO_DAEMON
from ghbench.drivers.ao_typescript.kind import AO_TYPESCRIPT
from ghbench.drivers.base import Driver
from ghbench.drivers.kind import DriverContext, DriverKind, state_dir
from ghbench.drivers.project import Project
from ghbench.drivers.workload.kind import WORKLOAD
from ghbench.errors import UsageError
from ghbench.github.backend import Backend
from ghbench.runspec.build import check_kind
from ghbench.runspec.cells import Cell
from ghbench.runspec.flags import flag_for
from ghbench.runspec.spec import RunSpec

__all__ = [
    "DRIVER_KINDS",
    "DriverKind",
    "build_driver",
    "cell_projects",
    "check_cell",
    "driver_kind",
    "find_project",
    "state_dir",
]

# first match wins: a refinement of a driver goes before the row it refines
DRIVER_KINDS: tuple[DriverKind, ...] = (WORKLOAD, AO_DAEMON, AO_TYPESCRIPT)


def driver_kind(
    spec: RunSpec, env: Mapping[str, str], kinds: Sequence[DriverKind] = DRIVER_KINDS
) -> DriverKind:
    """The first of ``kinds`` that runs what ``spec`` names; a setting of ``spec`` that
    kind would not act on is refused (the flag table's, ``check_kind``)."""
    for kind in kinds:
        if kind.runs(spec, env):
            check_kind(spec, kind.name)
            return kind
    raise ValueError(f"no driver runs --driver {spec.driver}")


def build_driver(
    spec: RunSpec,
    projects: Sequence[Project],
    *,
    backend: Backend,
    out_dir: Path,
    env: Mapping[str, str],
    dashboard: bool = False,
) -> Driver:
    """The driver ``spec`` names, over ``projects`` (one, or a matrix cell's several),
    its state under ``OUT/state``. An orchestrator that calls gh must reach the GitHub
    the run's own calls read (``Backend.check_gh_route``)."""
    kind = driver_kind(spec, env)
    _check_agents(kind, spec)
    if kind.uses_gh(spec):
        backend.check_gh_route()
    return kind.build(DriverContext(spec, backend, out_dir, env, dashboard), projects)


def cell_projects(
    spec: RunSpec,
    repos: Sequence[str],
    *,
    backend: Backend,
    work_dir: Path,
    env: Mapping[str, str],
) -> list[Project]:
    """``spec``'s matrix cell's projects over ``repos``, as its driver needs them."""
    cell = spec.cell
    kind = driver_kind(spec, env)
    return kind.cell_projects(cell, repos, work_dir, backend.seeds_repos, cell.info.dashboard)


def _check_agents(kind: DriverKind, spec: RunSpec) -> None:
    """A cell whose agents run the agent model needs a kind that launches it (the flag
    table's ``--agents`` row: AO launches it as its sessions' claude in real time)."""
    if spec.agent_model is not None and not flag_for("agents").taken_by(kind.name, spec.backend):
        raise UsageError(
            f"--agents: the {kind.name} driver does not launch the agent model as its"
            " agents; drop --agents"
        )


def check_cell(spec: RunSpec, cell: Cell, env: Mapping[str, str]) -> None:
    """Refuse, before anything starts, what ``cell`` would fail on later."""
    kind = driver_kind(spec, env)
    _check_agents(kind, msgspec.structs.replace(spec, cell=cell))
    if cell.info.dashboard:
        kind.check_dashboard(env)


def find_project(spec: RunSpec, env: Mapping[str, str], cwd: Path, home: Path) -> Project:
    """The project ``--project`` names, found as ``spec``'s driver finds projects."""
    return driver_kind(spec, env).find_project(spec, env, cwd, home)
