"""A project as AO's daemon knows one: a checkout registered with ``ao project add``.

AO's daemon has no ``agent-orchestrator.yaml``: a project is a git checkout on disk whose
``origin`` is on github.com, with an id (``--id``; ghbench's ``--project``). So the
project ghbench measures is the checkout ghbench runs in (its top level), the repo is
its ``origin``'s, the default branch is ``origin``'s HEAD (else the branch checked out),
and the session prefix is the id's first 12 characters, as the daemon derives it.
"""

from __future__ import annotations

import re
from pathlib import Path

from ghbench.drivers.project import Project
from ghbench.errors import ConfigError
from ghbench.gitinfo import run_git

__all__ = ["checkout_project", "github_repo_of"]

_PROJECT_ID = re.compile(r"^[A-Za-z0-9_-]+$")
# the forms of a github.com remote git accepts, the repo's owner/name in group 1
_GITHUB_REMOTE = re.compile(
    r"^(?:https?://(?:[^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/"
    r"|git://github\.com/)([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?/?$"
)
_PREFIX_CHARS = 12  # the daemon's session ids: the project id's first 12 characters


def github_repo_of(url: str) -> str | None:
    """``owner/name`` of a github.com remote URL, or None for any other URL."""
    found = _GITHUB_REMOTE.match(url.strip())
    return found.group(1) if found else None


def _git_line(cwd: Path, *args: str) -> str | None:
    proc = run_git(*args, cwd=cwd, timeout=30)
    text = proc.stdout.strip()
    return text if proc.returncode == 0 and text else None


def checkout_project(project_id: str, cwd: Path) -> Project:
    """The checkout at (or above) ``cwd`` as project ``project_id``; ConfigError naming
    what is missing and what to do."""
    if not _PROJECT_ID.match(project_id):
        raise ConfigError(
            f"--project {project_id!r}: a project id may only use letters, digits, - and _"
        )
    top = _git_line(cwd, "rev-parse", "--show-toplevel")
    if top is None:
        raise ConfigError(
            f"{cwd} is not in a git checkout: run ghbench from your project's checkout"
            " (AO's daemon registers a checkout as its project)"
        )
    path = Path(top)
    origin = _git_line(path, "remote", "get-url", "origin")
    if origin is None:
        raise ConfigError(f"{path} has no 'origin' remote; add the repository's github.com URL")
    repo = github_repo_of(origin)
    if repo is None:
        shown = re.sub(r"//[^@/]*@", "//", origin)  # never a credential in a message
        raise ConfigError(
            f"{path}: origin {shown} is not a github.com repository; AO's daemon watches"
            " github.com remotes only"
        )
    head = _git_line(path, "symbolic-ref", "--short", "refs/remotes/origin/HEAD")
    branch = head.split("/", 1)[1] if head and "/" in head else None
    branch = branch or _git_line(path, "branch", "--show-current") or "main"
    return Project(
        id=project_id,
        path=path,
        repo=repo,
        default_branch=branch,
        session_prefix=project_id[:_PREFIX_CHARS],
        config_path=None,
    )
