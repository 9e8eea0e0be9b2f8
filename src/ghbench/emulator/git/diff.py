"""Diffs from git itself: ``git diff-tree`` between two trees of a bare repository.

One run lists the changed files with git's status letters and line counts (``--raw
--numstat -z``, renames detected with ``-M`` as GitHub shows them) and the unified
diff (``-p``), in the same order: each file's part is its ``patch`` field and all of
them are the ``diff`` media type. A binary file has no line counts (GitHub reports 0)
and no hunk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ghbench.emulator.git.command import run_git

__all__ = ["EMPTY_TREE", "FileChange", "split_patch", "tree_changes"]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git knows it without storing it
_STATUS = {
    "A": "added",
    "D": "removed",
    "M": "modified",
    "R": "renamed",
    "C": "copied",
    "T": "changed",
}
_DIFF_ARGS = ["diff-tree", "-r", "-M", "--no-color", "--no-ext-diff", "--no-textconv"]


@dataclass(frozen=True)
class FileChange:
    """One file of a diff, as GitHub lists a pull request's or a commit's files."""

    path: str
    status: str  # added | removed | modified | renamed | copied | changed (type)
    sha: str  # the blob after the change (before it, for a removed file)
    additions: int
    deletions: int
    previous_path: str | None = None  # renamed or copied from
    diff: str = ""  # this file's part of the unified diff, from its "diff --git" line

    @property
    def patch(self) -> str | None:
        """The hunks without the file's headers (GitHub's ``patch`` field); None when
        there is no hunk (a binary file, an empty new file, a pure rename)."""
        start = self.diff.find("\n@@")
        return None if start < 0 else self.diff[start + 1 :].rstrip("\n")


def tree_changes(git_dir: Path, old: str | None, new: str) -> list[FileChange]:
    """The files that differ between trees ``old`` (None: empty) and ``new``, in git's
    order (by path), with git's added and deleted line counts and each file's diff."""
    args = [*_DIFF_ARGS, "-z", "--no-abbrev", "--raw", "--numstat", "-p", old or EMPTY_TREE, new]
    _, out = run_git(git_dir, args)
    # -z: NUL-terminated raw and numstat records, an empty record, then the patch text
    listing, _, patch = out.partition(b"\0\0diff --git ")
    tokens = listing.split(b"\0")
    raw: list[tuple[str, str, str, str, str | None]] = []  # status, old, new, path, was
    counts: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.startswith(b":"):
            fields = token[1:].decode().split(" ")
            letter = fields[4][:1]
            if letter in ("R", "C"):
                before, after = _path(tokens[i + 1]), _path(tokens[i + 2])
                raw.append((letter, fields[2], fields[3], after, before))
                i += 3
            else:
                raw.append((letter, fields[2], fields[3], _path(tokens[i + 1]), None))
                i += 2
        elif token.count(b"\t") >= 2:
            added, deleted, path = token.split(b"\t", 2)
            counts.append((_count(added), _count(deleted)))
            i += 1 if path else 3  # a rename's paths follow in two records
        else:
            i += 1
    text = ("diff --git " + patch.decode("utf-8", "replace")) if patch else ""
    diffs = split_patch(text)
    if len(diffs) != len(raw):
        diffs = [""] * len(raw)  # never expected: the same diff queue in both parts
    changes = []
    for (letter, old_sha, new_sha, name, was), (plus, minus), diff in zip(
        raw, counts, diffs, strict=True
    ):
        status = _STATUS.get(letter, "modified")
        blob = old_sha if status == "removed" else new_sha
        changes.append(FileChange(name, status, blob, plus, minus, was, diff))
    return changes


def split_patch(text: str) -> list[str]:
    """A multi-file unified diff cut at each ``diff --git`` line."""
    parts: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("diff --git ") or not parts:
            parts.append(line)
        else:
            parts[-1] += line
    return parts


def _path(token: bytes) -> str:
    return token.decode("utf-8", "surrogateescape")


def _count(value: bytes) -> int:
    return int(value) if value.isdigit() else 0  # "-" for a binary file
