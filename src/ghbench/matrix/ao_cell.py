"""AO's side of a real-time cell: checkouts, one config over the cell's repos, the drivers.

For ``--driver ao`` every cell (T1 and T2) runs AO on a config ghbench writes:

- a git checkout per repo under ``OUT/realtime/checkouts/{project id}``, as a user has
  one: its ``origin`` is the repo on github.com. On the emulator it is a new local
  repository with one commit (each AO's private world clones it and pushes its
  ``main`` to the emulator, as for a user's checkout); on GitHub a clone of the repo;
- ``OUT/realtime/ao/{topology}-{scale}-{hash of the repos}/agent-orchestrator.yaml``:
  one project per repo (``ghbench.matrix.topology.orchestrator_config``), each with its
  own ``sessionPrefix``, plus the dashboard's ``port`` for S6. Cells over the same
  repos share it, so their setups are reused.

Setup runs per project (one ``ao start <project>`` and ``batch-spawn`` each, as T1
does). The window runs one AO per project (``ghbench.drivers.ao_spread``: real AO polls
only the project ``ao start`` names), all tracing to the cell's one trace; a T2 cell
whose trace never names one of its repos fails rather than record a spread it did not
measure.

S3 spawns its sessions inside the window (``spawn_storm``): ``batch-spawn`` into each
running AO; the agents open their PRs and AO's poller finds them.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.ao import AoDriver
from ghbench.drivers.project import Project, parse_project
from ghbench.errors import GhbenchError
from ghbench.gitinfo import run_git
from ghbench.matrix.cells import Cell
from ghbench.matrix.topology import orchestrator_config

__all__ = [
    "AoCellConfig",
    "ensure_checkout",
    "free_loopback_port",
    "prepare_ao_cell",
    "spawn_storm",
    "unpolled_repos",
]

_GIT_IDENTITY = ("-c", "user.name=ghbench", "-c", "user.email=ghbench@localhost")


@dataclass(frozen=True)
class AoCellConfig:
    """The config ghbench wrote for a cell and the projects in it (in repo order)."""

    config_path: Path
    projects: tuple[Project, ...]
    port: int | None  # the dashboard's, when S6 runs one


def free_loopback_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the dashboard binds it moments later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _git(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_git(*args, cwd=cwd, timeout=120)


def _checked(proc: subprocess.CompletedProcess[str], what: str) -> None:
    if proc.returncode != 0:
        detail = " ".join((proc.stderr or proc.stdout).split())[:200]
        raise GhbenchError(f"{what} failed: {detail}")


def _local_checkout(path: Path, repo: str) -> None:
    """A repository with one empty commit on ``main`` whose ``origin`` is ``repo`` on
    github.com: the emulator serves it there (git's URL rewriting)."""
    path.mkdir(parents=True, exist_ok=True)
    _checked(_git("init", "-q", "-b", "main", str(path)), f"git init {path}")
    _checked(
        _git(*_GIT_IDENTITY, "commit", "-q", "--allow-empty", "-m", "init", cwd=path),
        f"the first commit in {path}",
    )
    url = f"https://github.com/{repo}.git"
    _checked(_git("remote", "add", "origin", url, cwd=path), f"git remote add in {path}")


def ensure_checkout(repo: str, path: Path, backend_name: str) -> None:
    """Make ``path`` a checkout of ``repo`` unless it already is a git repository."""
    if (path / ".git").exists():
        return
    if path.exists() and any(path.iterdir()):
        raise GhbenchError(
            f"{path} exists but is not a git checkout; remove it so ghbench can create it"
        )
    if backend_name == "emulator":
        _local_checkout(path, repo)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = _git("clone", "-q", f"https://github.com/{repo}.git", str(path))
    if proc.returncode != 0:
        detail = " ".join(proc.stderr.split())[:200]
        raise GhbenchError(
            f"cannot clone {repo} into {path} ({detail}); clone it there yourself and re-run"
        )


def _config_dir(cell: Cell, repos: Sequence[str], work_dir: Path) -> Path:
    digest = hashlib.sha256(",".join(repos).encode()).hexdigest()[:8]
    return work_dir / "ao" / f"{cell.topology.lower()}-{cell.scale}-{digest}"


def prepare_ao_cell(
    cell: Cell,
    repos: Sequence[str],
    work_dir: Path,
    *,
    backend_name: str,
    dashboard: bool = False,
) -> AoCellConfig:
    """Checkouts and the config for ``repos``; the config is rewritten for every cell."""
    checkouts = work_dir / "checkouts"
    port = free_loopback_port() if dashboard else None
    raw = orchestrator_config(repos, PurePosixPath(checkouts), port=port)
    for pid, entry in raw["projects"].items():
        ensure_checkout(entry["repo"], checkouts / pid, backend_name)
    config_path = _config_dir(cell, repos, work_dir) / "agent-orchestrator.yaml"
    replace_atomic(config_path, (json.dumps(raw, indent=2) + "\n").encode())
    projects = tuple(parse_project(raw, pid, config_path) for pid in raw["projects"])
    return AoCellConfig(config_path=config_path, projects=projects, port=port)


def unpolled_repos(rows: Sequence[Mapping[str, object]], repos: Sequence[str]) -> list[str]:
    """The repos no trace row names (in its args or endpoint), in ``repos`` order."""
    # a name must end where the repo ends: ``…-r1`` is not seen in ``…-r10``
    patterns = {repo: re.compile(re.escape(repo) + r"(?![A-Za-z0-9_.-])") for repo in repos}
    seen: set[str] = set()
    for row in rows:
        text = json.dumps([row.get("args"), row.get("endpoint")])
        seen.update(repo for repo, pattern in patterns.items() if pattern.search(text))
    return [repo for repo in repos if repo not in seen]


def spawn_storm(
    projects: Sequence[Project], drivers: Sequence[AoDriver], counts: Mapping[str, int]
) -> list[str]:
    """S3 at t0: ``batch-spawn`` issues #1..k of each project's repo into the running AO
    (``drivers[i]`` runs from ``projects[i]``'s directory, so AO picks that project).

    The new sessions are read back from ``ao session ls`` (no GitHub call): their ids
    are returned, and each driver remembers them, so its ``stop_agents`` stops them
    after the window. Fewer sessions than asked fail the cell: the window would not
    measure its scale.
    """
    spawned: list[str] = []
    for project, driver in zip(projects, drivers, strict=True):
        wanted = counts[project.repo]
        driver.spawn(list(range(1, wanted + 1)))
        found = [info.session_id for info in driver.discover_sessions()]
        if len(found) != wanted:
            raise GhbenchError(
                f"S3: 'ao batch-spawn' in {project.id} started {len(found)} of {wanted}"
                " sessions, so the window would not measure the cell's scale"
            )
        spawned.extend(found)
    return spawned
