"""Repos and orchestrator config for a cell's topology.

T1 puts every session on one repo; T2 spreads N sessions round-robin over N/5 repos
(at least 2). For a real run the repos come from the user (``--repos``); the
orchestrator config is AO's ``agent-orchestrator.yaml`` with one project per repo.
Pure: returns data and text, writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from ghbench.errors import UsageError
from ghbench.matrix.cells import Cell

__all__ = ["cell_repos", "orchestrator_config", "sessions_per_repo"]

_SLUG = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def cell_repos(cell: Cell, pool: Sequence[str]) -> tuple[str, ...]:
    """The first ``cell.repo_count`` repos of ``pool`` (``owner/name`` each)."""
    for repo in pool:
        if not _SLUG.match(repo):
            raise UsageError(f"--repos: {repo!r} is not owner/name")
    need = cell.repo_count
    if len(pool) < need:
        raise UsageError(
            f"--repos: cell {cell.id} spreads {cell.scale} sessions over {need} repos but only"
            f" {len(pool)} were given; pass at least {need} comma-separated owner/name repos"
        )
    return tuple(pool[:need])


def sessions_per_repo(scale: int, repos: Sequence[str]) -> dict[str, int]:
    """Round-robin counts: 12 sessions over 3 repos gives 4 each; remainders go first."""
    base, extra = divmod(scale, len(repos))
    return {r: base + (1 if i < extra else 0) for i, r in enumerate(repos)}


def _project_id(repo: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", repo.split("/", 1)[1])


def orchestrator_config(
    cell: Cell, repos: Sequence[str], checkouts: PurePosixPath, default_branch: str = "main"
) -> dict[str, Any]:
    """AO's config for the cell: one project per repo, each checked out under ``checkouts``.

    Dump it with ``yaml.safe_dump`` into the cell's own directory and point
    ``AO_CONFIG_PATH`` at it, so a T2 run polls exactly its spread repos.
    """
    projects: dict[str, dict[str, str]] = {}
    for repo in repos:
        pid = _project_id(repo)
        if pid in projects:  # two owners, same name
            pid = f"{pid}-{len(projects) + 1}"
        projects[pid] = {
            "repo": repo,
            "path": str(checkouts / pid),
            "defaultBranch": default_branch,
        }
    return {"projects": projects}
