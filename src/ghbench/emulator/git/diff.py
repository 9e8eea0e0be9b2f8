"""Diffs from git itself: ``git diff-tree`` between two trees of a bare repository.

One run lists the changed files with git's status letters and line counts (``--raw
--numstat -z``, renames detected with ``-M`` as GitHub shows them) and the unified
diff (``-p``), in the same order: each file's part is its ``patch`` field and all of
them are the ``diff`` media type. A binary file has no line counts (GitHub reports 0)
and no hunk.

A diff that only adds text files (what a seeded or simulated PR's head does) is written
here as git writes it (``added_files``), with no repository on disk and no git run: a
simulation in virtual time needs none; anything else goes to git.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ghbench.emulator.git.command import run_git

__all__ = ["EMPTY_TREE", "FileChange", "added_files", "split_patch", "tree_changes"]

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


# git writes a path as it is when it is plain: no control character, quote, backslash
# or byte above 0x7e (core.quotePath); a name with a space is plain too
_PLAIN_PATH = re.compile(r"[\x20\x21\x23-\x5b\x5d-\x7e]+")
_REGULAR = frozenset({"100644", "100755"})
_BINARY_PROBE = 8000  # git's FIRST_FEW_BYTES: a NUL among them makes a file binary


def added_files(
    old: Mapping[str, tuple[str, str]],
    new: Mapping[str, tuple[str, str]],
    blob: Callable[[str], bytes | None],
) -> list[FileChange] | None:
    """``tree_changes`` of two flat trees (path -> (mode, blob id)) when ``new`` only
    adds plain-named regular text files to ``old``, as git would write it; None for any
    other diff (git then runs)."""
    if any(new.get(path) != entry for path, entry in old.items()):
        return None  # a file removed or changed: renames and line diffs are git's
    changes = []
    for path in sorted(set(new) - set(old)):
        mode, sha = new[path]
        data = blob(sha)
        if mode not in _REGULAR or data is None or not _PLAIN_PATH.fullmatch(path):
            return None
        if b"\0" in data[:_BINARY_PROBE]:
            return None
        changes.append(_added(path, mode, sha, data))
    return changes


def _added(path: str, mode: str, sha: str, data: bytes) -> FileChange:
    head = f"diff --git a/{path} b/{path}\nnew file mode {mode}\nindex {'0' * 7}..{sha[:7]}\n"
    if not data:
        return FileChange(path, "added", sha, 0, 0, None, head)
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    complete = text.endswith("\n")
    if complete:
        lines.pop()
    count = len(lines)
    span = "1" if count == 1 else f"1,{count}"
    body = "".join(f"+{line}\n" for line in lines)
    if not complete:
        body += "\\ No newline at end of file\n"
    tab = "\t" if " " in path else ""  # git ends a file line with a space in it so
    hunk = f"--- /dev/null\n+++ b/{path}{tab}\n@@ -0,0 +{span} @@\n{body}"
    return FileChange(path, "added", sha, count, 0, None, head + hunk)
