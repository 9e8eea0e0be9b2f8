"""AO's daemon's row of the driver table: ``--driver ao`` whose ``--ao`` is a daemon
build (0.10 or 0.12; ``versions``), told apart by what the executable is, no flag.

One daemon watches every project it has, so a matrix cell's projects share one daemon
and one world (``OUT/state/ao-daemon/{key}``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.ao_daemon.driver import AoDaemonDriver
from ghbench.drivers.ao_daemon.project import checkout_project
from ghbench.drivers.ao_daemon.versions import DaemonBuild, daemon_build
from ghbench.drivers.ao_daemon.world import DaemonWorld
from ghbench.drivers.base import Driver
from ghbench.drivers.common.ao_cli import resolve_ao_command
from ghbench.drivers.common.checkouts import ensure_checkout
from ghbench.drivers.kind import DriverContext, DriverKind, project_flag, state_dir
from ghbench.drivers.project import Project, project_id
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec

__all__ = ["AO_DAEMON", "spec_build"]


def spec_build(spec: RunSpec, env: Mapping[str, str]) -> DaemonBuild | None:
    """The daemon build ``--driver ao --ao …`` names, or None (not a daemon)."""
    if spec.driver != "ao":
        return None
    return daemon_build(resolve_ao_command(spec.ao_command, env))


def _find_project(spec: RunSpec, env: Mapping[str, str], cwd: Path, home: Path) -> Project:
    """The daemon's project: the checkout ghbench runs in (it has no config file: the
    flag table refuses ``--config``)."""
    return checkout_project(project_flag(spec), cwd)


def _world_key(projects: Sequence[Project]) -> str:
    """Projects a daemon runs together share its world: a matrix cell's (their config's
    directory), or one project's own."""
    first = projects[0]
    return first.config_path.parent.name if first.config_path is not None else first.id


def _build(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    build = spec_build(ctx.spec, ctx.env)
    assert build is not None, "the table runs this row only for a daemon build"
    return AoDaemonDriver(
        projects=tuple(projects),
        build=build,
        world=DaemonWorld(
            state_dir(ctx.out_dir, "ao-daemon", _world_key(projects)),
            tuple(projects),
            line=build.version.line,
            rewrite_remotes=ctx.backend.seeds_repos,
        ),
        backend=ctx.backend,
        base_env=dict(ctx.env),
        # S3, S4 with --agents: the agent model is each session's claude
        agent_model=ctx.spec.agent_model,
        agent_speed=1.0 / ctx.spec.duration_scale,
    )


def _cell_projects(
    cell: Cell, repos: Sequence[str], work_dir: Path, seeds_repos: bool, dashboard: bool
) -> list[Project]:
    """A checkout per repo (``WORK/checkouts/{id}``), each a project named after its repo
    (``t2-10-r1``: the daemon's session ids begin with a project id's first 12
    characters), and ``WORK/ao-daemon/{topology}-{scale}-{hash}/projects.json`` naming
    them: cells over the same repos share the daemon's world, so their setups are reused."""
    names = [repo.rsplit("/", 1)[-1] for repo in repos]
    ids = names if len(set(names)) == len(names) else [project_id(r) for r in repos]
    ids = [project_id(i) for i in ids]
    digest = hashlib.sha256(",".join(repos).encode()).hexdigest()[:8]
    config = work_dir / "ao-daemon" / f"{cell.topology.lower()}-{cell.sessions}-{digest}"
    body = {"repos": list(repos), "projects": ids}
    replace_atomic(config / "projects.json", (json.dumps(body, indent=2) + "\n").encode())
    projects = []
    for pid, repo in zip(ids, repos, strict=True):
        path = work_dir / "checkouts" / pid
        ensure_checkout(repo, path, local=seeds_repos)
        projects.append(
            Project(
                id=pid,
                path=path,
                repo=repo,
                default_branch="main",
                session_prefix=pid[:12],
                config_path=config / "projects.json",
            )
        )
    return projects


AO_DAEMON = DriverKind(
    name="ao-daemon",
    runs=lambda spec, env: spec_build(spec, env) is not None,
    build=_build,
    cell_projects=_cell_projects,
    uses_gh=lambda spec: False,
    find_project=_find_project,
)
