"""A diff's files and totals, as the REST and GraphQL renderers use them. Pure.

The diff itself comes from git (``emulator/git/diff.py``, through
``Store.changes``); ``FileChange`` is defined there and re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ghbench.emulator.git.diff import FileChange

__all__ = ["MAX_LISTED_FILES", "DiffStat", "FileChange", "diff_stat"]

# A pull request's files list stops here, REST ("Responses include a maximum of 3000
# files") and GraphQL alike (its ``files`` connection, ``totalCount`` included, as
# clients report); ``changed_files``/``changedFiles`` still count every file.
MAX_LISTED_FILES = 3000


@dataclass(frozen=True)
class DiffStat:
    """A diff's totals: a pull request's REST ``changed_files``/``additions``/``deletions``
    and GraphQL ``changedFiles``/``additions``/``deletions``, one computation for both."""

    changed_files: int
    additions: int
    deletions: int


def diff_stat(changes: Sequence[FileChange]) -> DiffStat:
    """Totals over every changed file (not capped at the 3,000 the files list shows)."""
    return DiffStat(
        len(changes), sum(c.additions for c in changes), sum(c.deletions for c in changes)
    )
