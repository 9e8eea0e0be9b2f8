"""Repos and orchestrator config for a cell's topology.

T1 puts every session on one repo; T2 spreads N sessions round-robin over N/5 repos
(at least 2). For a real run the repos come from the user (``--repos``); the
orchestrator config is AO's ``agent-orchestrator.yaml`` with one project per repo
(``ghbench.matrix.ao_cell`` writes it for ``--driver ao``).
Pure: returns data and text, writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from ghbench.errors import UsageError
from ghbench.matrix.cells import Cell

__all__ = ["cell_repos", "orchestrator_config", "project_id", "sessions_per_repo"]

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


def project_id(repo: str) -> str:
    """The matrix's project id for a repo: ``owner/name`` with every other character as ``-``.

    The owner is kept so two repos of the same name never share an id (AO's ids allow
    only letters, digits, ``-`` and ``_``).
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", repo)


def orchestrator_config(
    repos: Sequence[str],
    checkouts: PurePosixPath,
    default_branch: str = "main",
    *,
    port: int | None = None,
) -> dict[str, Any]:
    """AO's config for a cell: one project per repo, each checked out under ``checkouts``.

    Each project gets its own ``sessionPrefix`` (``r1``, ``r2``, ...): AO derives the
    default from basename(path), and spread checkouts such as ``…-t2-10-r1`` and
    ``…-t2-10-r2`` would derive the same prefix and collide on session ids. ``port`` is
    the dashboard's (S6). Written as JSON (which is YAML) into the config's own
    directory, with ``AO_CONFIG_PATH`` pointing at it, so a run sees exactly these repos.
    """
    projects: dict[str, dict[str, str]] = {}
    for index, repo in enumerate(repos, start=1):
        pid = project_id(repo)
        projects[pid] = {
            "repo": repo,
            "path": str(checkouts / pid),
            "defaultBranch": default_branch,
            "sessionPrefix": f"r{index}",
        }
    config: dict[str, Any] = {"projects": projects}
    if port is not None:
        config["port"] = port
    return config
