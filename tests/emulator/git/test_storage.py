"""Real git behind the emulator's commits: the objects it writes in Python are git's.

Checked with git itself: ``git fsck --strict`` on the repositories, ``git hash-object``
and ``git mktree`` for the ids, ``git log`` for what a commit says. Where the
repositories live: under ``--state`` (kept across a restart), or in memory and in a
temporary directory only when git is needed (removed on close).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest
from emu_helpers import TOKEN, new_emulator
from git_helpers import bare_git as git

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.git.objects import (
    object_id,
)
from ghbench.errors import EmulatorError


def test_api_commits_are_git_commits_and_git_agrees(emulator: Emulator) -> None:
    emulator.push("acme/todo", "feat/x", "Add app", files={"src/app.py": "print(1)\n"})
    number = emulator.create_pull("acme/todo", "feat/x", author="octo")
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    pull = store.pull(repo, number)
    assert pull is not None
    git_dir = store.git_dir(repo)
    git(git_dir, "fsck", "--strict", "--no-dangling")
    refs = git(git_dir, "for-each-ref", "--format=%(refname) %(objectname)").splitlines()
    assert refs == [f"refs/{r.name} {r.sha}" for r in store.refs_with_prefix(repo, "")]
    assert refs[-1] == f"refs/pull/{number}/head {pull.head_sha}"  # GitHub's pull ref
    assert git(git_dir, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    log = git(git_dir, "log", "--format=%H %P|%an|%cn <%ce>|%s", "feat/x").splitlines()
    head = store.commit(repo, pull.head_sha)
    assert head is not None and log[0].startswith(f"{head.sha} {head.parents[0]}|")
    assert log[0].endswith("|GitHub <noreply@github.com>|Add app")
    assert git(git_dir, "show", "feat/x:src/app.py") == "print(1)\n"
    assert len(log) == 2 and log[1].endswith("|acme|GitHub <noreply@github.com>|Initial commit")


def test_memory_until_git_is_needed_then_a_temporary_directory_removed_on_close() -> None:
    emulator = new_emulator()
    emulator.push("acme/todo", "main", files={"a.txt": "1\n"})
    assert emulator.git.root is None and emulator.git._temp is None  # nothing on disk
    repo = emulator.store.get_repo("acme", "todo")
    git_dir = emulator.store.git_dir(repo)
    assert git_dir.is_dir() and git(git_dir, "show", "main:a.txt") == "1\n"
    emulator.push("acme/todo", "main", files={"a.txt": "2\n"})  # written through from now on
    assert git(git_dir, "show", "main:a.txt") == "2\n"
    emulator.close()
    assert not git_dir.exists()


def test_state_dir_keeps_repositories_across_a_restart(tmp_path: Path) -> None:
    first = new_emulator(state_dir=tmp_path)
    sha = first.push("acme/todo", "feat/x", files={"kept.txt": "v1\n"})
    first.close()
    git_dir = tmp_path / "git" / f"{first.store.get_repo('acme', 'todo').id}.git"
    assert git(git_dir, "rev-parse", "feat/x").strip() == sha
    again = Emulator(state_dir=tmp_path, clock=VirtualClock())
    repo = again.store.get_repo("acme", "todo")
    assert again.store.tree(repo, sha)["kept.txt"][1] == object_id("blob", b"v1\n")
    sha2 = again.push("acme/todo", "feat/x", files={"kept.txt": "v2\n"})
    assert git(git_dir, "log", "--format=%H", "feat/x").split()[:2] == [sha2, sha]
    again.close()


def test_a_state_dir_from_before_git_is_refused_in_one_line(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    shutil.rmtree(tmp_path / "git")
    with pytest.raises(EmulatorError, match=r"older ghbench.*remove the directory"):
        Emulator(state_dir=tmp_path)


def test_reset_forgets_the_repositories(tmp_path: Path) -> None:
    emulator = new_emulator(state_dir=tmp_path)
    assert list((tmp_path / "git").glob("*.git"))
    emulator.reset()
    assert not list((tmp_path / "git").glob("*.git"))
    emulator.create_repo("acme/again")
    assert len(list((tmp_path / "git").glob("*.git"))) == 1
    emulator.close()


def _merge(emulator: Emulator, number: int, method: str) -> tuple[int, dict[str, object]]:
    from ghbench.emulator.transport import EmulatorTransport

    client = httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url="http://api.github.localhost",
        headers={"Authorization": f"token {TOKEN}"},
    )
    with client:
        answer = client.put(f"/repos/acme/todo/pulls/{number}/merge", json={"merge_method": method})
    return answer.status_code, answer.json()


@pytest.mark.parametrize("method", ["merge", "squash", "rebase"])
def test_merges_are_gits_and_a_conflict_is_405(method: str) -> None:
    emulator = new_emulator()
    emulator.push("acme/todo", "main", files={"shared.txt": "a\nb\nc\n"})
    emulator.push("acme/todo", "feat/x", "one", files={"shared.txt": "A\nb\nc\n"})
    emulator.push("acme/todo", "feat/x", "two", files={"x.txt": "x\n"})
    emulator.push("acme/todo", "main", "main moves", files={"shared.txt": "a\nb\nC\n"})
    number = emulator.create_pull("acme/todo", "feat/x")
    status, body = _merge(emulator, number, method)
    assert status == 200 and body["merged"] is True
    repo = emulator.store.get_repo("acme", "todo")
    git_dir = emulator.store.git_dir(repo)
    # git's three-way merge: both sides' edits to shared.txt are kept
    assert git(git_dir, "show", "main:shared.txt") == "A\nb\nC\n"
    assert git(git_dir, "show", "main:x.txt") == "x\n"
    parents = git(git_dir, "log", "-1", "--format=%P", "main").split()
    subjects = git(git_dir, "log", "--format=%s", "main").splitlines()
    if method == "merge":
        assert len(parents) == 2 and subjects[0] == "Merge pull request #1 from acme/feat/x"
    elif method == "squash":
        assert len(parents) == 1 and subjects[:2] == ["Changes from feat/x (#1)", "main moves"]
    else:
        assert len(parents) == 1 and subjects[:3] == ["two", "one", "main moves"]
    assert git(git_dir, "rev-parse", "main").strip() == body["sha"]
    git(git_dir, "fsck", "--strict", "--no-dangling", "--connectivity-only")
    # a second PR editing the line main now has differently: git finds the conflict
    emulator.push("acme/todo", "feat/y", files={"shared.txt": "a\nb\nZ\n"})
    emulator.push("acme/todo", "main", files={"shared.txt": "a\nb\nM\n"})
    conflicted = emulator.create_pull("acme/todo", "feat/y")
    status, body = _merge(emulator, conflicted, method)
    assert (status, body["message"]) == (405, "Pull Request is not mergeable")
    emulator.close()


def test_a_temporary_directory_left_by_a_killed_process_is_swept() -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid nobody has now
    orphan = Path(tempfile.gettempdir()) / f"ghbench-git-{gone.pid}-left"
    (orphan / "1.git").mkdir(parents=True)
    mine = Path(tempfile.gettempdir()) / f"ghbench-git-{os.getpid()}-alive"
    mine.mkdir()
    emulator = new_emulator()
    emulator.store.git_dir(emulator.store.get_repo("acme", "todo"))
    assert not orphan.exists() and mine.exists()  # a live process's directory is kept
    mine.rmdir()
    emulator.close()
