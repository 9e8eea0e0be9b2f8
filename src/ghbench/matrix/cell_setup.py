"""A real-time cell before its window: its repos, its projects, and a setup per repo.

1. Repos for the topology: T1 one repo, T2 N/5 (at least 2). When ghbench makes the
   repos (the emulator) they are ``ghbench-matrix/{t}-{n}-r{i}``; on GitHub the first
   repos of ``--repos``. S3 needs sessions that do not exist yet, so on the emulator it
   gets repos of its own, named with the run's timestamp.
2. Projects over the repos, as the driver needs them (``ghbench.drivers.registry``:
   for AO, checkouts and one config over every repo).
3. Setup per repo (``ghbench.harness.setup.run_setup``): reused when every worktree
   exists and every PR is open, else run fresh. A scenario whose sessions appear in the
   window (S3) only makes sure repos and issues exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ghbench.artifacts.models import Session
from ghbench.clock import Clock
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver, cell_projects
from ghbench.errors import GhbenchError
from ghbench.github.backend import Backend
from ghbench.harness.progress import LogProgress
from ghbench.harness.setup import run_setup
from ghbench.harness.setup_artifact import setup_cell
from ghbench.matrix.topology import cell_repos, sessions_per_repo
from ghbench.runspec.spec import RunSpec

__all__ = ["EMULATOR_OWNER", "CellPlace", "CellSetup", "cell_repos_on", "set_up_cell"]

EMULATOR_OWNER = "ghbench-matrix"
Log = Callable[[str], None]


@dataclass(frozen=True)
class CellPlace:
    """Where real-time cells run: the GitHub they measure, the clock, the user's
    environment, the directory their setups and drivers' state share, and the log."""

    backend: Backend
    clock: Clock
    env: Mapping[str, str]
    work_dir: Path
    log: Log


@dataclass
class CellSetup:
    """A cell's repos, sessions per repo and projects, and the sessions set up so far
    (with the repo of each: the S4 burst comments on their PRs)."""

    repos: tuple[str, ...]
    counts: dict[str, int]
    projects: list[Project]
    sessions: list[Session] = field(default_factory=list)
    session_repos: dict[str, str] = field(default_factory=dict)

    def add(self, repo: str, session: Session) -> None:
        self.sessions.append(session)
        self.session_repos[session.session_id] = repo


def cell_repos_on(spec: RunSpec, backend: Backend, stamp: int) -> tuple[str, ...]:
    """The repos ``spec``'s cell runs on: ghbench's own where it makes them, else the
    user's ``--repos``."""
    cell = spec.cell
    if not backend.seeds_repos:
        return cell_repos(cell, spec.repos)
    fresh = f"s3-{stamp}-" if not cell.info.prs_at_start else ""
    base = f"{EMULATOR_OWNER}/{fresh}{cell.topology.lower()}-{cell.sessions}"
    return tuple(f"{base}-r{i}" for i in range(1, cell.repo_count + 1))


def set_up_cell(spec: RunSpec, place: CellPlace) -> CellSetup:
    """Repos, projects and a setup per repo (reused when valid), under ``place.work_dir``."""
    cell = spec.cell
    backend, clock, env, work_dir = place.backend, place.clock, place.env, place.work_dir
    repos = cell_repos_on(spec, backend, int(clock.now()))
    projects = cell_projects(spec, repos, backend=backend, work_dir=work_dir, env=env)
    setup = CellSetup(repos, sessions_per_repo(cell.sessions, repos), projects)
    for project in projects:
        issues = tuple(range(1, setup.counts[project.repo] + 1))
        if not cell.info.prs_at_start:
            with backend.benchmark_client() as client:
                backend.ensure_repo(project.repo, issues, client)
            continue
        per_repo = msgspec.structs.replace(
            spec, cell=setup_cell(len(issues)), issues=issues, out_dir=work_dir
        )
        driver = build_driver(per_repo, [project], backend=backend, out_dir=work_dir, env=env)
        driver.check_tools()
        outcome = run_setup(
            per_repo,
            project,
            driver=driver,
            backend=backend,
            clock=clock,
            progress=LogProgress(place.log, cell.id),
        )
        if not outcome.setup.ready:
            raise GhbenchError(
                f"setup for {project.repo} timed out with {len(outcome.setup.sessions)}"
                f" of {len(issues)} PRs open ({outcome.path})"
            )
        for session in outcome.setup.sessions:
            setup.add(project.repo, session)
    return setup
