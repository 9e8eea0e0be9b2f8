"""git's object format in Python (``emulator.git.objects``), held to git itself: the ids
``git hash-object`` computes, trees in git's order, commits ``git log`` reads back and
``git fsck --strict`` accepts; a path cannot be both a file and a directory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_helpers import bare_git as git

from ghbench.emulator.git.objects import (
    FILE_MODE,
    Signature,
    commit_body,
    object_id,
    parse_commit,
    write_tree,
)


def test_ids_are_gits(tmp_path: Path) -> None:
    repo = tmp_path / "r.git"
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    data = b"hello\nworld\n"
    assert object_id("blob", data) == git(repo, "hash-object", "--stdin", data=data).strip()
    written: dict[str, tuple[str, bytes]] = {}

    def sink(kind: str, body: bytes) -> str:
        oid = object_id(kind, body)
        written[oid] = (kind, body)
        return oid

    blob = object_id("blob", data)
    flat = {"b.txt": (FILE_MODE, blob), "a/x.md": (FILE_MODE, blob), "a-b": (FILE_MODE, blob)}
    root = write_tree(flat, sink)
    for oid, (kind, body) in written.items():  # git reads them back with the same ids
        assert git(repo, "hash-object", "-w", "--stdin", "-t", kind, data=body).strip() == oid
    git(repo, "hash-object", "-w", "--stdin", data=data)
    listing = git(repo, "ls-tree", "-r", "--name-only", root).split()
    assert listing == ["a-b", "a/x.md", "b.txt"]  # git's order: "a-b" before "a/"
    author = Signature("Octo Cat", "1+octo@users.noreply.github.com", 1_700_000_000, "+0100")
    body = commit_body(root, [], author, author, "Subject\n\nBody line")
    commit = git(repo, "hash-object", "-w", "--stdin", "-t", "commit", data=body).strip()
    assert commit == object_id("commit", body)
    assert git(repo, "log", "-1", "--format=%an|%ae|%at|%s|%b", commit).strip() == (
        "Octo Cat|1+octo@users.noreply.github.com|1700000000|Subject|Body line"
    )
    parsed = parse_commit(body)
    assert (parsed.tree, parsed.author, parsed.message) == (root, author, "Subject\n\nBody line\n")
    git(repo, "fsck", "--strict", "--no-dangling")


def test_a_file_cannot_be_a_directory() -> None:
    blob = object_id("blob", b"")
    with pytest.raises(ValueError, match="is a file"):
        write_tree({"a": (FILE_MODE, blob), "a/b": (FILE_MODE, blob)}, lambda k, b: "0" * 40)
    with pytest.raises(ValueError, match="is a directory"):
        write_tree({"a/b": (FILE_MODE, blob), "a": (FILE_MODE, blob)}, lambda k, b: "0" * 40)
