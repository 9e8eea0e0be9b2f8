"""The git side of a private world: the user's identity, ghbench's clone of their
checkout, the run's repository's default branch, the worktrees AO made, and a matrix
cell's checkouts.

The user's checkout is only read (``git clone`` from it, ``remote get-url``); AO works
in ghbench's clone, whose ``origin`` stays the user's remote, so AO and its agents name
the repository as they would in the user's checkout.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.project import Project
from ghbench.errors import GhbenchError
from ghbench.gitinfo import run_git

__all__ = [
    "clone_keeping_origin",
    "ensure_checkout",
    "origin_url",
    "publish_default_branch",
    "user_gitconfig",
    "worktrees",
    "write_home_gitconfig",
]

_GIT_IDENTITY = ("-c", "user.name=ghbench", "-c", "user.email=ghbench@localhost")


def _detail(proc: subprocess.CompletedProcess[str], limit: int = 300) -> str:
    return " ".join((proc.stderr or proc.stdout).split())[:limit]


def user_gitconfig(env: Mapping[str, str]) -> Path | None:
    """The user's global git config, as git finds it (it is only ever included)."""
    if env.get("GIT_CONFIG_GLOBAL"):
        return Path(env["GIT_CONFIG_GLOBAL"])
    home = Path(env.get("HOME") or Path.home())
    xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "git" / "config"
    for candidate in (home / ".gitconfig", xdg):
        if candidate.is_file():
            return candidate
    return None


def write_home_gitconfig(home: Path, user_config: Path | None) -> None:
    """``home/.gitconfig`` that only includes the user's global config: agents commit as
    the user, and whatever they write to their git config stays in the world."""
    lines = ["# ghbench: AO's HOME; the user's own global config is only included\n"]
    if user_config is not None and user_config.is_file():
        lines.append(f"[include]\n\tpath = {json.dumps(str(user_config))}\n")
    replace_atomic(home / ".gitconfig", "".join(lines).encode())


def origin_url(checkout: Path, repo: str) -> str:
    """The checkout's ``origin`` URL; GitHub's HTTPS URL for ``repo`` when it has none."""
    proc = run_git("-C", str(checkout), "remote", "get-url", "origin")
    url = proc.stdout.strip()
    return url if proc.returncode == 0 and url else f"https://github.com/{repo}.git"


def clone_keeping_origin(project: Project, dest: Path) -> None:
    """Clone ``project``'s checkout into ``dest`` with ``origin`` still the user's remote
    (GitHub's HTTPS URL for its repo when it has none). An interrupted earlier clone
    (``dest.partial``) is ghbench's and is replaced."""
    source = project.path
    if not (source / ".git").exists():
        where = f"projects.{project.id}.path" if project.config_path else "the checkout"
        raise GhbenchError(
            f"{source} ({where}) is not a git checkout; point it at a clone of the repository"
        )
    url = origin_url(source, project.repo)
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    proc = run_git("clone", "--quiet", str(source), str(partial))
    if proc.returncode != 0:
        raise GhbenchError(f"cannot clone {source} into {partial}: {_detail(proc)}")
    set_url = run_git("-C", str(partial), "remote", "set-url", "origin", url)
    if set_url.returncode != 0:
        raise GhbenchError(f"cannot set origin of {partial}: {set_url.stderr.strip()}")
    partial.rename(dest)


def publish_default_branch(project: Project, clone: Path, env: Mapping[str, str]) -> None:
    """Make the run's repository's default branch the clone's (a forced push when they
    differ), so AO's worktrees start from the user's code, as on GitHub. ``env`` routes
    git to the run's GitHub."""
    branch = project.default_branch
    local = run_git("-C", str(clone), "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}")
    if local.returncode != 0:
        hint = (
            f"projects.{project.id}.defaultBranch; check the project's config"
            if project.config_path is not None
            else "check out the default branch"
        )
        raise GhbenchError(f"{project.path} has no branch {branch} ({hint})")
    remote = run_git("-C", str(clone), "ls-remote", "origin", f"refs/heads/{branch}", env=env)
    if remote.returncode == 0 and remote.stdout.split()[:1] == local.stdout.split()[:1]:
        return
    push = run_git(
        "-C", str(clone), "push", "--quiet", "--force", "origin", f"{branch}:{branch}", env=env
    )
    if push.returncode != 0:
        raise GhbenchError(
            f"cannot push {branch} of {project.path} to {project.repo}: {_detail(push)}"
        )


def worktrees(clone: Path) -> list[tuple[Path, str | None]]:
    """The worktrees of ``clone`` besides itself: (path, branch or None when detached)."""
    proc = run_git("-C", str(clone), "worktree", "list", "--porcelain")
    if proc.returncode != 0:
        return []
    out: list[tuple[Path, str | None]] = []
    path: Path | None = None
    branch: str | None = None
    for line in [*proc.stdout.splitlines(), ""]:
        if line.startswith("worktree "):
            path, branch = Path(line[len("worktree ") :]), None
        elif line.startswith("branch "):
            branch = line[len("branch ") :].removeprefix("refs/heads/")
        elif not line and path is not None:
            out.append((path, branch))
            path = None
    return out[1:]  # the first is the main checkout


def _checked(proc: subprocess.CompletedProcess[str], what: str) -> None:
    if proc.returncode != 0:
        raise GhbenchError(f"{what} failed: {_detail(proc, 200)}")


def _local_checkout(path: Path, repo: str) -> None:
    """A repository with one empty commit on ``main`` whose ``origin`` is ``repo`` on
    github.com: the emulator serves it there (git's URL rewriting, or the front)."""
    path.mkdir(parents=True, exist_ok=True)
    _checked(run_git("init", "-q", "-b", "main", str(path), timeout=120), f"git init {path}")
    _checked(
        run_git(*_GIT_IDENTITY, "commit", "-q", "--allow-empty", "-m", "init", cwd=path),
        f"the first commit in {path}",
    )
    url = f"https://github.com/{repo}.git"
    _checked(run_git("remote", "add", "origin", url, cwd=path), f"git remote add in {path}")


def ensure_checkout(repo: str, path: Path, *, local: bool) -> None:
    """Make ``path`` a checkout of ``repo`` (a matrix cell's, as a user has one) unless it
    already is a git repository: a new local one (``local``: the run's GitHub gets its
    code from it), else a clone of the repo on GitHub."""
    if (path / ".git").exists():
        return
    if path.exists() and any(path.iterdir()):
        raise GhbenchError(
            f"{path} exists but is not a git checkout; remove it so ghbench can create it"
        )
    if local:
        _local_checkout(path, repo)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = run_git("clone", "-q", f"https://github.com/{repo}.git", str(path), timeout=120)
    if proc.returncode != 0:
        raise GhbenchError(
            f"cannot clone {repo} into {path} ({_detail(proc, 200)}); clone it there"
            " yourself and re-run"
        )
