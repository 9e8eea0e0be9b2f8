"""A real-time cell's repos: which, and how many sessions each gets.

T1 puts every session on one repo; T2 spreads N sessions round-robin over N/5 repos
(at least 2). For a run on real GitHub the repos come from the user (``--repos``).
Pure: returns data, writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ghbench.errors import UsageError
from ghbench.runspec.cells import Cell

__all__ = ["cell_repos", "sessions_per_repo"]

_SLUG = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def cell_repos(cell: Cell, pool: Sequence[str]) -> tuple[str, ...]:
    """The first ``cell.repo_count`` repos of ``pool`` (``owner/name`` each)."""
    for repo in pool:
        if not _SLUG.match(repo):
            raise UsageError(f"--repos: {repo!r} is not owner/name")
    need = cell.repo_count
    if len(pool) < need:
        raise UsageError(
            f"--repos: cell {cell.id} spreads {cell.sessions} sessions over {need} repos but only"
            f" {len(pool)} were given; pass at least {need} comma-separated owner/name repos"
        )
    return tuple(pool[:need])


def sessions_per_repo(scale: int, repos: Sequence[str]) -> dict[str, int]:
    """Round-robin counts: 12 sessions over 3 repos gives 4 each; remainders go first."""
    base, extra = divmod(scale, len(repos))
    return {r: base + (1 if i < extra else 0) for i, r in enumerate(repos)}
