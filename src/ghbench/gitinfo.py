"""git for ghbench: the sha and branch of a checkout (the artifacts' ``gitSha``/``branch``),
and ``run_git`` for the flows that drive git themselves."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from ghbench.errors import ToolMissingError
from ghbench.procs import tool_output

__all__ = ["git_head", "run_git"]


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


def run_git(
    *args: str,
    cwd: Path | None = None,
    timeout: float = 600,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``git ARGS`` with its output captured (``env``: the whole environment, else
    ghbench's); ToolMissingError when git is not installed."""
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=None if env is None else dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise ToolMissingError("git is not installed; install it (apt-get install git)") from None
