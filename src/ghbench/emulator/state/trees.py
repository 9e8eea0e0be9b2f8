"""Files in commits: blob ids, tree diffs and merges. Pure functions over trees.

A tree maps a path to ``(git blob id, line count)``. File bodies are not kept, so a
diff knows which files changed but not which lines: a modified file counts as a
whole-file rewrite (its new lines added, its old lines deleted).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "MAX_LISTED_FILES",
    "DiffStat",
    "FileChange",
    "FileEntry",
    "Tree",
    "blob_entry",
    "diff_stat",
    "diff_trees",
    "merge_trees",
]

FileEntry = tuple[str, int]  # (git blob id, line count)
Tree = Mapping[str, FileEntry]

# A pull request's files list stops here, REST ("Responses include a maximum of 3000
# files") and GraphQL alike (its ``files`` connection, ``totalCount`` included, as
# clients report); ``changed_files``/``changedFiles`` still count every file.
MAX_LISTED_FILES = 3000


@dataclass(frozen=True)
class FileChange:
    """One file of a diff, as GitHub lists a pull request's files."""

    path: str
    status: str  # added | modified | removed
    sha: str  # the blob after the change (before it, for a removed file)
    additions: int
    deletions: int


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


def blob_entry(data: bytes) -> FileEntry:
    """git's blob id of ``data`` (what GitHub reports as a file's ``sha``) and its lines."""
    sha = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return sha, lines


def diff_trees(old: Tree, new: Tree) -> list[FileChange]:
    """What changed from ``old`` to ``new``, by path (git's order for plain paths)."""
    out = []
    for path in sorted(old.keys() | new.keys()):
        before, after = old.get(path), new.get(path)
        if before == after:
            continue
        if before is None and after is not None:
            out.append(FileChange(path, "added", after[0], after[1], 0))
        elif after is None and before is not None:
            out.append(FileChange(path, "removed", before[0], 0, before[1]))
        elif before is not None and after is not None:
            out.append(FileChange(path, "modified", after[0], after[1], before[1]))
    return out


def merge_trees(ours: Tree, ancestor: Tree, theirs: Tree) -> dict[str, FileEntry]:
    """``ours`` plus every change ``theirs`` made since ``ancestor``.

    Where both sides changed a file, ``theirs`` wins: content conflicts are not
    modelled (a pull request's ``mergeable`` flag stands for them).
    """
    out = dict(ours)
    for path in ancestor.keys() | theirs.keys():
        if theirs.get(path) == ancestor.get(path):
            continue
        if path in theirs:
            out[path] = theirs[path]
        else:
            out.pop(path, None)
    return out
