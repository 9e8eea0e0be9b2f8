"""Where the real agent-orchestrator (AO) lives for the tests, and what happens without it.

``../shared/ao`` beside the repository holds AO's source tarballs, ``build-ao``,
``fetch-ao-go`` and the 0.12.6 binary (``GHBENCH_AO_SHARED`` overrides it). The real-AO
tests get built checkouts through ``GHBENCH_AO_MAIN`` and ``GHBENCH_AO_BENCH``, and the
daemon builds through ``GHBENCH_AO_GO`` (0.10.3) and ``GHBENCH_AO_GO012`` (0.12.6)
(``scripts/test-realao`` sets them).
A developer without them gets a skip that says how to get them; CI (``CI=true``)
fails instead, so a missing AO can never pass as green.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

from tools import missing

__all__ = [
    "BENCH_TARBALL",
    "REPO",
    "ao_checkout",
    "ao_go",
    "ao_go012",
    "ao_shared_dir",
    "extract_from_tarball",
    "missing",
]

REPO = Path(__file__).resolve().parents[1]
BENCH_TARBALL = "ao-bench-1e73a505.tar.gz"
_CHECKOUT_VARS = {"main": "GHBENCH_AO_MAIN", "bench": "GHBENCH_AO_BENCH"}


def ao_shared_dir() -> Path:
    """``$GHBENCH_AO_SHARED``, else the first ``shared/ao`` beside the repository or one
    of its parents (a git worktree sits deeper than the clone): AO's tarballs, build-ao."""
    override = os.environ.get("GHBENCH_AO_SHARED")
    candidates = [Path(override)] if override else [p / "shared" / "ao" for p in REPO.parents]
    for path in candidates:
        if (path / BENCH_TARBALL).is_file():
            return path
    missing(f"AO's source tarballs ({BENCH_TARBALL})", "set GHBENCH_AO_SHARED to the shared/ao dir")
    raise AssertionError("unreachable")


def extract_from_tarball(tarball: str, member: str, dest: Path) -> Path:
    """One file of an AO tarball, extracted under ``dest`` (AO's code stays out of the repo)."""
    with tarfile.open(ao_shared_dir() / tarball) as archive:
        archive.extract(member, dest, filter="data")
    return dest / member


def ao_checkout(version: str) -> Path:
    """A built AO checkout (``main`` or ``bench``) from ``GHBENCH_AO_MAIN``/``_BENCH``."""
    var = _CHECKOUT_VARS[version]
    value = os.environ.get(var)
    if not value:
        missing(
            f"the real AO ({version})",
            f"build it with ../shared/ao/build-ao {version} and export {var}=<printed path>",
        )
    path = Path(str(value))
    if not (path / "packages" / "cli" / "dist" / "index.js").is_file():
        missing(f"a built AO at {var}={path}", f"run ../shared/ao/build-ao {version}")
    return path


def ao_go() -> Path:
    """AO 0.10.3, the Go daemon's last npm release (``GHBENCH_AO_GO``;
    ``scripts/test-realao`` fetches it with ``../shared/ao/fetch-ao-go``)."""
    value = os.environ.get("GHBENCH_AO_GO")
    if not value:
        missing(
            "AO 0.10 (the Go daemon)",
            "fetch it with ../shared/ao/fetch-ao-go and export GHBENCH_AO_GO=<printed path>",
        )
    path = Path(str(value))
    if not (path.is_file() and os.access(path, os.X_OK)):
        missing(f"an ao executable at GHBENCH_AO_GO={path}", "run ../shared/ao/fetch-ao-go")
    return path


def ao_go012() -> Path:
    """AO 0.12.6, the Go daemon of the desktop line its users run today
    (``GHBENCH_AO_GO012``; ``scripts/test-realao`` takes ``../shared/ao/ao-go-0.12.6-linux-x64``,
    checked against the sha256 beside it)."""
    value = os.environ.get("GHBENCH_AO_GO012")
    if not value:
        missing(
            "AO 0.12.6 (the Go daemon)",
            "put ao-go-0.12.6-linux-x64 in ../shared/ao and run scripts/test-realao, or export"
            " GHBENCH_AO_GO012=<its path>",
        )
    path = Path(str(value))
    if not (path.is_file() and os.access(path, os.X_OK)):
        missing(f"an ao executable at GHBENCH_AO_GO012={path}", "check ../shared/ao")
    return path


def node_available() -> None:
    try:
        subprocess.run(["node", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        missing("node", "install Node.js 20 or newer (apt-get install nodejs)")
