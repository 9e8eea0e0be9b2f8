"""AO's TypeScript builds' row of the driver table: ``--driver ao`` with an AO checkout,
or an ``ao`` executable that is no daemon build (``ghbench.drivers.ao_daemon`` comes
first in the table and takes those).

One AO per project: ``ao start P`` polls project P alone, so a matrix cell's several
projects are several AOs (``AoSpreadDriver``), each in its own world under
``OUT/state/ao/{project}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ghbench.drivers.ao_typescript.cell import prepare_ao_cell
from ghbench.drivers.ao_typescript.dashboard import choose_reader
from ghbench.drivers.ao_typescript.driver import AoDriver
from ghbench.drivers.ao_typescript.runtime import AoRouting
from ghbench.drivers.ao_typescript.spread import AoSpreadDriver
from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.base import Driver
from ghbench.drivers.common.ao_cli import resolve_ao_command
from ghbench.drivers.kind import DriverContext, DriverKind, config_project, state_dir
from ghbench.drivers.project import Project
from ghbench.github.backend import Backend
from ghbench.runspec.cells import Cell

__all__ = ["AO_TYPESCRIPT", "ao_routing"]


def ao_routing(backend: Backend) -> AoRouting:
    """Where a running backend sends AO's gh and git, and its agents'."""
    return AoRouting(
        env=backend.orchestrator_env(),
        agent_env=backend.agent_env(),
        gh_socket=backend.gh_socket,
    )


def _driver(ctx: DriverContext, project: Project) -> AoDriver:
    return AoDriver(
        project=project,
        command=resolve_ao_command(ctx.spec.ao_command, ctx.env),
        world=AoWorld(state_dir(ctx.out_dir, "ao", project.id), project),
        routing=lambda: ao_routing(ctx.backend),
        layout=ctx.spec.ao_layout,
        base_env=dict(ctx.env),
        agent_traces=ctx.out_dir.resolve(),
        publish_default_branch=ctx.backend.seeds_repos,
        dashboard=ctx.dashboard,
        # S3, S4 with --agents: the agent model is each session's claude
        agent_model=ctx.spec.agent_model,
        agent_speed=1.0 / ctx.spec.duration_scale,
    )


def _build(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    drivers = tuple(_driver(ctx, p) for p in projects)
    return drivers[0] if len(drivers) == 1 else AoSpreadDriver(drivers)


def _cell_projects(
    cell: Cell, repos: Sequence[str], work_dir: Path, seeds_repos: bool, dashboard: bool
) -> list[Project]:
    config = prepare_ao_cell(cell, repos, work_dir, seeds_repos=seeds_repos, dashboard=dashboard)
    return list(config.projects)


def _check_dashboard(env: Mapping[str, str]) -> None:
    choose_reader(env)  # a $GHBENCH_CHROMIUM that names no program is refused


AO_TYPESCRIPT = DriverKind(
    name="ao-typescript",
    runs=lambda spec, env: spec.driver == "ao",
    build=_build,
    cell_projects=_cell_projects,
    uses_gh=lambda spec: True,
    find_project=config_project,
    check_dashboard=_check_dashboard,
)
