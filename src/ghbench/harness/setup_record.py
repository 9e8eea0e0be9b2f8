"""The setup artifact as the harness uses it, and its reading and writing.

The artifact's model (``schemaVersion`` 1, the spec's keys) belongs to
``ghbench.artifacts.models``; this module converts between it and the harness's
``SetupRecord`` and names the files: ``setup-{project}-{scenarioId}.json`` in the
output directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ghbench import BENCHMARK_VERSION
from ghbench.artifacts import models
from ghbench.drivers.base import BenchSession
from ghbench.drivers.project import Project
from ghbench.errors import ArtifactError
from ghbench.timefmt import iso_s, parse_iso

__all__ = [
    "SCENARIO",
    "TOPOLOGY",
    "SetupRecord",
    "make_scenario_id",
    "read_setup",
    "require_ready_setup",
    "setup_path",
    "write_setup",
]

SCENARIO = "quiet-steady"
TOPOLOGY = "single-repo"


def make_scenario_id(sessions: int) -> str:
    """v1 hard-codes the scenario and topology: ``quiet-steady.single-repo.{N}``."""
    return models.scenario_id(SCENARIO, TOPOLOGY, sessions)


def setup_path(out_dir: Path, project: str, scenario: str) -> Path:
    return out_dir / f"setup-{project}-{scenario}.json"


@dataclass(frozen=True)
class SetupRecord:
    scenario_id: str
    project: str
    repo: str
    session_count: int
    ready: bool
    sessions: tuple[BenchSession, ...]
    created_at: float
    git_sha: str | None = None
    branch: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


def write_setup(record: SetupRecord, path: Path) -> Path:
    """Write the artifact atomically; never over an existing file."""
    artifact = models.SetupArtifact(
        schema_version=1,
        benchmark_version=BENCHMARK_VERSION,
        scenario_id=record.scenario_id,
        created_at=iso_s(record.created_at),
        git_sha=record.git_sha,
        branch=record.branch,
        project=record.project,
        repo=record.repo,
        scenario=SCENARIO,
        topology=TOPOLOGY,
        session_count=record.session_count,
        ready=record.ready,
        sessions=[
            models.SetupSession(
                session_id=s.session_id,
                issue=s.issue,
                branch=s.branch,
                worktree_path=str(s.worktree_path),
                pr_number=s.pr_number,
                pr_url=s.pr_url,
            )
            for s in record.sessions
        ],
    )
    models.write_setup(artifact, path)
    return path


def read_setup(path: Path) -> SetupRecord:
    """Read and check an artifact; ArtifactError names the file and what to do."""
    if not path.is_file():
        raise ArtifactError(f"{path}: no setup artifact; run 'ghbench setup' first")
    art = models.load_setup(path)
    sessions = []
    for s in art.sessions:
        if s.pr_number is None or not s.branch or not s.worktree_path:
            raise ArtifactError(
                f"{path}: session {s.session_id} has no PR, branch or worktree; re-run setup"
            )
        sessions.append(
            BenchSession(
                session_id=s.session_id,
                issue=s.issue,
                branch=s.branch,
                worktree_path=Path(s.worktree_path),
                pr_number=int(s.pr_number),
                pr_url=s.pr_url or "",
            )
        )
    return SetupRecord(
        scenario_id=art.scenario_id,
        project=art.project,
        repo=art.repo,
        session_count=art.session_count,
        ready=bool(art.ready),
        sessions=tuple(sessions),
        created_at=parse_iso(art.created_at),
        git_sha=art.git_sha,
        branch=art.branch,
    )


def require_ready_setup(project: Project, sessions: int, out_dir: Path) -> tuple[Path, SetupRecord]:
    """The setup artifact for ``sessions`` in ``out_dir`` and its record; an
    ArtifactError when it is missing or partial (measure checks this before it starts
    anything, and again, with the live state, once the backend is up)."""
    scenario = make_scenario_id(sessions)
    path = setup_path(out_dir, project.id, scenario)
    if not path.exists():
        raise ArtifactError(
            f"{path}: no setup artifact for {scenario}; run 'ghbench setup --project"
            f" {project.id} --sessions {sessions} --issues ...' first (same --out)"
        )
    record = read_setup(path)
    if not record.ready:
        raise ArtifactError(
            f"{path}: the setup is partial (ready: false, {len(record.sessions)} of"
            f" {record.session_count} sessions have PRs); re-run 'ghbench setup'"
        )
    return path, record
