"""The workload model's row of the driver table: ``--driver workload``.

Over one project the model is a ``WorkloadDriver``; over a matrix cell's several, one
model process polls them all (``WorkloadFleet``), its state kept under the first
project's id with ``-spread`` for its ``-r1`` (the matrix names a spread's projects
``…-r1``, ``…-r2``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from ghbench.drivers.base import Driver
from ghbench.drivers.kind import DriverContext, DriverKind, config_project, state_dir
from ghbench.drivers.project import Project, project_id
from ghbench.drivers.workload.driver import WorkloadDriver, WorkloadFleet
from ghbench.runspec.cells import Cell

__all__ = ["WORKLOAD"]


def _model(ctx: DriverContext, project: Project, polled: Sequence[Project] = ()) -> WorkloadDriver:
    return WorkloadDriver(
        project=project,
        work_dir=state_dir(ctx.out_dir, "workload", project.id),
        backend=ctx.backend,
        spec=ctx.spec,
        base_env=dict(ctx.env),
        polled=tuple(polled),
    )


def _build(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    first = projects[0]
    if len(projects) == 1:
        return _model(ctx, first)
    combined = dataclasses.replace(first, id=f"{first.id.rsplit('-r', 1)[0]}-spread")
    return WorkloadFleet(
        members=tuple(_model(ctx, p) for p in projects),
        model=_model(ctx, combined, polled=projects),
    )


def _cell_projects(
    cell: Cell, repos: Sequence[str], work_dir: Path, seeds_repos: bool, dashboard: bool
) -> list[Project]:
    """A project per repo, each with its own session prefix (``r1``, ``r2``, ...)."""
    return [
        Project(
            id=project_id(repo),
            path=work_dir / "checkouts" / project_id(repo),
            repo=repo,
            default_branch="main",
            session_prefix=f"r{index}",
            config_path=None,
        )
        for index, repo in enumerate(repos, start=1)
    ]


WORKLOAD = DriverKind(
    name="workload",
    runs=lambda spec, env: spec.driver == "workload",
    build=_build,
    cell_projects=_cell_projects,
    uses_gh=lambda spec: spec.transport == "gh",
    find_project=config_project,
)
