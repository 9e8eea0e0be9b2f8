"""The git side of a private world, with real git: the clone that keeps the user's
origin, the default branch published to the run's repository, the worktrees AO made,
a matrix cell's checkout, and the HOME's git config."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ghbench.drivers.common.checkouts import (
    clone_keeping_origin,
    ensure_checkout,
    publish_default_branch,
    user_gitconfig,
    worktrees,
    write_home_gitconfig,
)
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError

pytestmark = pytest.mark.needs("git")
IDENTITY = ["-c", "user.name=Ada", "-c", "user.email=ada@example.com"]


def _git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def _user_checkout(root: Path, origin: str) -> Project:
    path = root / "src" / "todo-app"
    path.mkdir(parents=True)
    _git(path, "init", "-q", "-b", "main")
    _git(path, *IDENTITY, "commit", "-q", "--allow-empty", "-m", "init")
    _git(path, "remote", "add", "origin", origin)
    return Project("todo-app", path, "acme/todo", "main", "ta", None)


def test_the_clone_keeps_the_users_origin_and_replaces_an_interrupted_one(
    tmp_path: Path,
) -> None:
    project = _user_checkout(tmp_path, "git@github.com:acme/todo.git")
    dest = tmp_path / "world" / "todo-app"
    (dest.parent / "todo-app.partial").mkdir(parents=True)  # an earlier clone, cut short
    clone_keeping_origin(project, dest)
    assert _git(dest, "remote", "get-url", "origin") == "git@github.com:acme/todo.git"
    assert not (dest.parent / "todo-app.partial").exists()
    assert _git(project.path, "status", "--porcelain") == ""  # the user's is only read
    with pytest.raises(GhbenchError, match=r"\(the checkout\) is not a git checkout"):
        clone_keeping_origin(Project("x", tmp_path, "a/b", "main", "x", None), tmp_path / "c")


def test_the_default_branch_is_pushed_only_when_the_repository_differs(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    project = _user_checkout(tmp_path, str(remote))
    clone = tmp_path / "clone"
    clone_keeping_origin(project, clone)
    publish_default_branch(project, clone, {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert _git(remote, "rev-parse", "main") == _git(clone, "rev-parse", "main")
    # the repository's branch moved on elsewhere: the clone's wins (a forced push)
    _git(clone, *IDENTITY, "commit", "-q", "--allow-empty", "-m", "local")
    publish_default_branch(project, clone, {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert _git(remote, "rev-parse", "main") == _git(clone, "rev-parse", "main")
    trunk = Project("todo-app", project.path, "acme/todo", "trunk", "ta", tmp_path / "ao.yaml")
    with pytest.raises(
        GhbenchError, match=r"has no branch trunk \(projects\.todo-app\.defaultBranch"
    ):
        publish_default_branch(trunk, clone, {"PATH": "/usr/bin:/bin"})


def test_the_worktrees_ao_made_with_their_branches(tmp_path: Path) -> None:
    project = _user_checkout(tmp_path, "https://github.com/acme/todo.git")
    assert worktrees(project.path) == []
    _git(project.path, "worktree", "add", "-q", "-b", "ao/ta-1/root", str(tmp_path / "ta-1"))
    _git(project.path, "worktree", "add", "-q", "--detach", str(tmp_path / "ta-2"))
    assert worktrees(project.path) == [
        (tmp_path / "ta-1", "ao/ta-1/root"),
        (tmp_path / "ta-2", None),
    ]
    assert worktrees(tmp_path / "not-a-repo") == []


def test_a_cells_checkout_is_made_once_and_never_over_a_stranger(tmp_path: Path) -> None:
    path = tmp_path / "checkouts" / "acme-r1"
    ensure_checkout("acme/r1", path, local=True)
    assert _git(path, "remote", "get-url", "origin") == "https://github.com/acme/r1.git"
    head = _git(path, "rev-parse", "HEAD")
    ensure_checkout("acme/r1", path, local=True)  # already one: kept
    assert _git(path, "rev-parse", "HEAD") == head
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(GhbenchError, match="exists but is not a git checkout"):
        ensure_checkout("acme/r1", stranger, local=True)


def test_the_worlds_git_config_only_includes_the_users(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Ada\n")
    found = user_gitconfig({"HOME": str(home)})
    assert found == home / ".gitconfig"
    assert user_gitconfig({"HOME": str(home), "GIT_CONFIG_GLOBAL": "/etc/g"}) == Path("/etc/g")
    world = tmp_path / "world"
    world.mkdir()
    write_home_gitconfig(world, found)
    name = subprocess.run(
        ["git", "config", "--global", "--includes", "user.name"],
        env={"PATH": "/usr/bin:/bin", "HOME": str(world)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert name.stdout.strip() == "Ada"
    write_home_gitconfig(world, None)
    assert "[include]" not in (world / ".gitconfig").read_text()
