"""The git sha and branch of a checkout, for the artifacts' ``gitSha``/``branch``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["git_head"]


def _git(path: Path, *args: str) -> str | None:
    git = shutil.which("git")
    if git is None or not path.is_dir():
        return None
    try:
        proc = subprocess.run(
            [git, "-C", str(path), *args],
            capture_output=True,
            text=True,
            timeout=10,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and out else None


def git_head(path: Path) -> tuple[str | None, str | None]:
    """(sha, branch) of the checkout at ``path``; None for what is unknown."""
    sha = _git(path, "rev-parse", "HEAD")
    branch = _git(path, "rev-parse", "--abbrev-ref", "HEAD")
    return sha, (None if branch == "HEAD" else branch)
