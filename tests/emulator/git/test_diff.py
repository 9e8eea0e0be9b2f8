"""A diff that only adds text files is written in Python (no repository on disk, no
git run); held here to what ``git diff-tree`` itself writes for the same trees."""

from __future__ import annotations

import pytest
from emu_helpers import new_emulator

from ghbench.emulator.git.diff import added_files, tree_changes

CASES: list[dict[str, str]] = [
    {"notes/feat/issue-1.md": "Fix #1 (after abc1234)\n"},
    {"a.txt": "one\ntwo\nthree\n", "dir/b c.md": "no newline at the end"},
    {"empty.txt": ""},
    {"crlf.txt": "a\r\nb\r\n", "utf8.md": "héllo wörld\n"},
    {"z.txt": "\n\n\n", "y/x/w.txt": "last\nline"},
]
FALLBACKS: list[dict[str, str]] = [
    {"README.md": "rewritten\n"},  # a change: git's line diff
    {'quo"te.txt': "x\n"},  # a path git quotes
    {"bin.dat": "a\0b"},  # binary
]


def _trees(files: dict[str, str]) -> tuple[object, str, str, str]:
    emulator = new_emulator()
    base = emulator.push("acme/todo", "main", files={"README.md": "hello\n"})
    head = emulator.push("acme/todo", "main", files=files)
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    old = store.commit(repo, base).tree_sha  # type: ignore[union-attr]
    new = store.commit(repo, head).tree_sha  # type: ignore[union-attr]
    return emulator, repo, old, new  # type: ignore[return-value]


@pytest.mark.parametrize("files", CASES)
def test_what_python_writes_is_what_git_writes(files: dict[str, str]) -> None:
    emulator, repo, old, new = _trees(files)
    git = emulator.git.repo(repo.id)  # type: ignore[attr-defined]
    mine = added_files(git.flat_tree(old), git.flat_tree(new), git.blob)
    assert emulator.git._temp is None  # type: ignore[attr-defined]  # nothing on disk yet
    theirs = tree_changes(emulator.store.git_dir(repo), old, new)  # type: ignore[attr-defined]
    assert mine == theirs
    emulator.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("files", FALLBACKS)
def test_anything_else_is_left_to_git(files: dict[str, str]) -> None:
    emulator, repo, old, new = _trees(files)
    git = emulator.git.repo(repo.id)  # type: ignore[attr-defined]
    assert added_files(git.flat_tree(old), git.flat_tree(new), git.blob) is None
    emulator.close()  # type: ignore[attr-defined]


def test_a_pull_requests_sizes_need_no_git_for_an_added_file() -> None:
    emulator = new_emulator()
    emulator.push("acme/todo", "main", files={"README.md": "hello\n"})
    number = emulator.create_pull("acme/todo", "feat/x", title="Fix")
    repo = emulator.store.get_repo("acme", "todo")
    pull = emulator.store.pull(repo, number)
    files = emulator.store.pull_files(pull)
    assert [(f.status, f.additions, f.deletions) for f in files] == [("added", 1, 0)]
    assert emulator.git._temp is None  # no repository was written for it
    emulator.close()
