"""The programs the suite drives for real (gh, git, tmux, chromium, node, curl, ...).

A developer without one gets a skip that names it and how to install it; under CI
(``CI=true``, as ``.ci/run`` sets) a missing one fails the test, so it can never pass
as green by skipping.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

__all__ = ["coverage_env", "gh_child_env", "in_ci", "missing", "require_tool"]

# how to get each program the tests use (scripts/install-system-deps installs these)
INSTALL = {
    "gh": "apt-get install gh",
    "git": "apt-get install git",
    "tmux": "apt-get install tmux",
    "chromium": "apt-get install chromium",
    "curl": "apt-get install curl",
    "node": "install Node.js 20 or newer",
    "bash": "apt-get install bash",
    "shellcheck": "apt-get install shellcheck",
}


def coverage_env() -> dict[str, str]:
    """The variables that let coverage measure a Python child (``patch = subprocess``):
    tests that give a child a clean environment keep these, nothing else."""
    return {k: v for k, v in os.environ.items() if k.startswith("COVERAGE_")}


def gh_child_env(root: Path) -> dict[str, str]:
    """A clean environment for a child that runs gh: a HOME and an empty gh config of
    its own under ``root`` (no login of the developer's reaches it), coverage's
    variables kept."""
    home = root / "home"
    (home / ".config" / "gh").mkdir(parents=True)
    return {
        **coverage_env(),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GH_CONFIG_DIR": str(home / ".config" / "gh"),
        "LANG": "C.UTF-8",
    }


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(what: str, how: str) -> None:
    """Skip on a developer's machine; fail in CI, where everything must be installed."""
    message = f"{what} is not available: {how}"
    if in_ci():
        pytest.fail(f"{message} (CI must provide it)", pytrace=False)
    pytest.skip(message)


def require_tool(name: str) -> str:
    """The path of the program ``name``; otherwise a skip, or a failure under CI."""
    found = shutil.which(name)
    if found is None:
        missing(f"the {name} program", INSTALL.get(name, f"install {name}"))
    assert found is not None
    return found
