"""A user's checkout and a daemon build, as the daemon driver's tests need them."""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["daemon_build", "make_checkout"]


def _git(path: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


def make_checkout(root: Path, origin: str | None) -> Path:
    path = root / "todo-app"
    path.mkdir(parents=True)
    _git(path, "init", "-q", "-b", "trunk")
    _git(
        path,
        "-c",
        "user.name=A",
        "-c",
        "user.email=a@x",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        ".",
    )
    if origin is not None:
        _git(path, "remote", "add", "origin", origin)
    return path


def daemon_build(root: Path) -> Path:
    """An executable that answers ``ao daemon --help`` as AO's daemon does (and nothing
    else: its line is the first, 0.10)."""
    path = root / "ao"
    path.write_text(
        '#!/bin/sh\n[ "$1" = daemon ] && echo "Run the AO backend daemon" && exit 0\nexit 1\n'
    )
    path.chmod(0o755)
    return path
