"""The git sha and branch of a checkout, for the artifacts' ``gitSha``/``branch``."""

from __future__ import annotations

import shutil
from pathlib import Path

from ghbench.procs import tool_output

__all__ = ["git_head"]


def _git(path: Path, *args: str) -> str | None:
    git = shutil.which("git")
    if git is None or not path.is_dir():
        return None
    return tool_output([git, "-C", str(path), *args], timeout=10)


def git_head(path: Path) -> tuple[str | None, str | None]:
    """(sha, branch) of the checkout at ``path``; None for what is unknown."""
    sha = _git(path, "rev-parse", "HEAD")
    branch = _git(path, "rev-parse", "--abbrev-ref", "HEAD")
    return sha, (None if branch == "HEAD" else branch)
