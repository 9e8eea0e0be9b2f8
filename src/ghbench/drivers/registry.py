"""Which driver runs a spec, and how it is built: a table, first match wins.

A ``DriverKind`` says whether it runs what a ``RunSpec`` names (``runs``: the driver's
name, and for AO what the binary behind ``--ao`` is), how to build it over one
project or several (a matrix cell's spread), how a matrix cell's projects are made
for it, and what it must check before a cell starts. A new orchestrator build is a
new row ahead of the one it refines (no flag: it is told apart by what it runs).

``build_driver`` is the one way the flows get a driver.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.ao import AoDriver
from ghbench.drivers.ao_cell import ensure_checkout, prepare_ao_cell
from ghbench.drivers.ao_command import is_daemon_build, resolve_ao_command
from ghbench.drivers.ao_daemon import AoDaemonDriver
from ghbench.drivers.ao_daemon_world import DaemonWorld
from ghbench.drivers.ao_runtime import AoRouting
from ghbench.drivers.ao_spread import AoSpreadDriver
from ghbench.drivers.ao_world import AoWorld
from ghbench.drivers.base import Driver
from ghbench.drivers.checkout_project import checkout_project
from ghbench.drivers.dashboard import choose_reader
from ghbench.drivers.project import Project, load_project, project_id
from ghbench.drivers.workload import WorkloadDriver, WorkloadFleet
from ghbench.errors import UsageError
from ghbench.github.backend import Backend
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec

__all__ = [
    "DRIVER_KINDS",
    "DriverContext",
    "DriverKind",
    "ao_routing",
    "build_driver",
    "cell_projects",
    "check_cell",
    "driver_kind",
    "find_project",
    "state_dir",
]


def state_dir(out_dir: Path, *parts: str) -> Path:
    """Where a run keeps what it must find again (``OUT/state/...``)."""
    return out_dir / "state" / Path(*parts)


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

    name: str
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
    # launches the agent model as its sessions' coding agents (--agents in S3, S4:
    # ``ghbench.drivers.agent_launcher``)
    runs_agent_model: bool = False


def ao_routing(backend: Backend) -> AoRouting:
    """Where a running backend sends AO's gh and git, and its agents'."""
    return AoRouting(
        env=backend.orchestrator_env(),
        agent_env=backend.agent_env(),
        gh_socket=backend.gh_socket,
    )


def _ao(ctx: DriverContext, project: Project) -> AoDriver:
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


def _build_ao(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    """One AO per project: ``ao start P`` polls project P alone."""
    drivers = tuple(_ao(ctx, p) for p in projects)
    return drivers[0] if len(drivers) == 1 else AoSpreadDriver(drivers)


def _model(ctx: DriverContext, project: Project, polled: Sequence[Project] = ()) -> WorkloadDriver:
    return WorkloadDriver(
        project=project,
        work_dir=state_dir(ctx.out_dir, "workload", project.id),
        backend=ctx.backend,
        spec=ctx.spec,
        base_env=dict(ctx.env),
        polled=tuple(polled),
    )


def _build_workload(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    """The model for one project; over several, one model process polling them all,
    whose state is kept under the first project's id with ``-spread`` for its
    ``-r1`` (the matrix names a spread's projects ``…-r1``, ``…-r2``)."""
    first = projects[0]
    if len(projects) == 1:
        return _model(ctx, first)
    combined = dataclasses.replace(first, id=f"{first.id.rsplit('-r', 1)[0]}-spread")
    return WorkloadFleet(
        members=tuple(_model(ctx, p) for p in projects),
        model=_model(ctx, combined, polled=projects),
    )


def _ao_cell_projects(
    cell: Cell, repos: Sequence[str], work_dir: Path, seeds_repos: bool, dashboard: bool
) -> list[Project]:
    config = prepare_ao_cell(cell, repos, work_dir, seeds_repos=seeds_repos, dashboard=dashboard)
    return list(config.projects)


def _model_cell_projects(
    cell: Cell, repos: Sequence[str], work_dir: Path, seeds_repos: bool, dashboard: bool
) -> list[Project]:
    """A project per repo, each with its own session prefix (``r1``, ``r2``, ...)."""
    projects = []
    for index, repo in enumerate(repos, start=1):
        pid = project_id(repo)
        projects.append(
            Project(
                id=pid,
                path=work_dir / "checkouts" / pid,
                repo=repo,
                default_branch="main",
                session_prefix=f"r{index}",
                config_path=None,
            )
        )
    return projects


def _project_id(spec: RunSpec) -> str:
    if spec.project is None:
        raise UsageError("--project is required: the id of the project to measure")
    return spec.project


def _config_project(spec: RunSpec, env: Mapping[str, str], cwd: Path, home: Path) -> Project:
    """``projects.<id>`` of the agent-orchestrator.yaml AO would read from here."""
    return load_project(_project_id(spec), env=env, cwd=cwd, home=home, explicit=spec.ao_config)


def _checkout_project(spec: RunSpec, env: Mapping[str, str], cwd: Path, home: Path) -> Project:
    """AO 0.10's project: the checkout ghbench runs in (it has no config file)."""
    if spec.ao_config is not None:
        raise UsageError(
            f"--config {spec.ao_config}: AO 0.10 has no agent-orchestrator.yaml; run ghbench"
            " from the project's checkout instead"
        )
    return checkout_project(_project_id(spec), cwd)


def _runs_ao_daemon(spec: RunSpec, env: Mapping[str, str]) -> bool:
    """``--driver ao`` whose ``--ao`` is AO 0.10 or later, the Go daemon."""
    return spec.driver == "ao" and is_daemon_build(resolve_ao_command(spec.ao_command, env))


def _daemon_world_key(projects: Sequence[Project]) -> str:
    """Projects a daemon runs together share its world: a matrix cell's (their config's
    directory), or one project's own."""
    first = projects[0]
    return first.config_path.parent.name if first.config_path is not None else first.id


def _build_ao_daemon(ctx: DriverContext, projects: Sequence[Project]) -> Driver:
    """One daemon over every project: AO 0.10 watches all the projects it has."""
    key = _daemon_world_key(projects)
    return AoDaemonDriver(
        projects=tuple(projects),
        command=resolve_ao_command(ctx.spec.ao_command, ctx.env),
        world=DaemonWorld(
            state_dir(ctx.out_dir, "ao-daemon", key),
            tuple(projects),
            rewrite_remotes=ctx.backend.seeds_repos,
        ),
        backend=ctx.backend,
        base_env=dict(ctx.env),
        # S3, S4 with --agents: the agent model is each session's claude
        agent_model=ctx.spec.agent_model,
        agent_speed=1.0 / ctx.spec.duration_scale,
    )


def _daemon_cell_projects(
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


def _check_ao_dashboard(env: Mapping[str, str]) -> None:
    choose_reader(env)  # a $GHBENCH_CHROMIUM that names no program is refused


# first match wins: a refinement of a driver (another build behind the same flag)
# goes before the row it refines
DRIVER_KINDS: tuple[DriverKind, ...] = (
    DriverKind(
        name="workload",
        runs=lambda spec, env: spec.driver == "workload",
        build=_build_workload,
        cell_projects=_model_cell_projects,
        uses_gh=lambda spec: spec.transport == "gh",
        find_project=_config_project,
    ),
    # AO 0.10, the Go daemon: it calls GitHub itself, through the front ghbench starts
    DriverKind(
        name="ao-daemon",
        runs=_runs_ao_daemon,
        build=_build_ao_daemon,
        cell_projects=_daemon_cell_projects,
        uses_gh=lambda spec: False,
        find_project=_checkout_project,
        runs_agent_model=True,
    ),
    DriverKind(
        name="ao",
        runs=lambda spec, env: spec.driver == "ao",
        build=_build_ao,
        cell_projects=_ao_cell_projects,
        uses_gh=lambda spec: True,
        find_project=_config_project,
        check_dashboard=_check_ao_dashboard,
        runs_agent_model=True,
    ),
)


def driver_kind(
    spec: RunSpec, env: Mapping[str, str], kinds: Sequence[DriverKind] = DRIVER_KINDS
) -> DriverKind:
    """The first of ``kinds`` that runs what ``spec`` names."""
    for kind in kinds:
        if kind.runs(spec, env):
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
    if spec.agent_model is not None and not kind.runs_agent_model:
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
