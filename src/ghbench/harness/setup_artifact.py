"""The setup artifact: its file, and how the harness reads, checks and writes it.

``models.SetupArtifact`` (``schemaVersion`` 1, the spec's keys) is the one type a setup
is, in memory and on disk. This module names its file, ``setup-{project}-{scenarioId}.json``
in the output directory, and refuses one ``measure`` cannot use. ``setup`` and
``measure`` are the spec's v1: the scenario is always S2 on one repo, so a setup's
scenario id is ``quiet-steady.single-repo.{N}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ghbench import BENCHMARK_VERSION
from ghbench.artifacts import models
from ghbench.artifacts.models import Session, SetupArtifact
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError
from ghbench.runspec.cells import Cell
from ghbench.timefmt import iso_s

__all__ = [
    "new_setup",
    "read_setup",
    "require_ready_setup",
    "setup_cell",
    "setup_path",
    "write_setup",
]


def setup_cell(sessions: int) -> Cell:
    """v1's one scenario and topology: S2 on one repo."""
    return Cell("S2", "T1", sessions)


def setup_path(out_dir: Path, project: str, scenario: str) -> Path:
    return out_dir / f"setup-{project}-{scenario}.json"


def new_setup(
    cell: Cell,
    *,
    project: str,
    repo: str,
    sessions: Sequence[Session],
    created_at: float,
    version: tuple[str | None, str | None] = (None, None),
    ready: bool = True,
) -> SetupArtifact:
    """A setup of ``cell`` in ``repo`` (``version``: the orchestrator's sha and branch)."""
    sha, branch = version
    return SetupArtifact(
        schema_version=models.SETUP_SCHEMA_VERSION,
        benchmark_version=BENCHMARK_VERSION,
        scenario_id=cell.scenario_id,
        created_at=iso_s(created_at),
        git_sha=sha,
        branch=branch,
        project=project,
        repo=repo,
        scenario=cell.info.name,
        topology=cell.layout.name,
        session_count=cell.sessions,
        ready=ready,
        sessions=list(sessions),
    )


def write_setup(setup: SetupArtifact, path: Path) -> Path:
    """Write the artifact atomically; never over an existing file."""
    return models.write_setup(setup, path)


def read_setup(path: Path) -> SetupArtifact:
    """Read and check an artifact: every session has its PR, branch and worktree, which
    measuring relies on. ArtifactError names the file and what to do."""
    if not path.is_file():
        raise ArtifactError(f"{path}: no setup artifact; run 'ghbench setup' first")
    setup = models.load_setup(path)
    for s in setup.sessions:
        if s.pr_number is None or not s.branch or not s.worktree_path:
            raise ArtifactError(
                f"{path}: session {s.session_id} has no PR, branch or worktree; re-run setup"
            )
    return setup


def require_ready_setup(
    project: Project, sessions: int, out_dir: Path
) -> tuple[Path, SetupArtifact]:
    """The setup artifact for ``sessions`` in ``out_dir``; an ArtifactError when it is
    missing or partial (measure checks this before it starts anything, and the live
    state, with the backend up, before its window)."""
    scenario = setup_cell(sessions).scenario_id
    path = setup_path(out_dir, project.id, scenario)
    if not path.exists():
        raise ArtifactError(
            f"{path}: no setup artifact for {scenario}; run 'ghbench setup --project"
            f" {project.id} --sessions {sessions} --issues ...' first (same --out)"
        )
    setup = read_setup(path)
    if not setup.ready:
        raise ArtifactError(
            f"{path}: the setup is partial (ready: false, {len(setup.sessions)} of"
            f" {setup.session_count} sessions have PRs); re-run 'ghbench setup'"
        )
    return path, setup
