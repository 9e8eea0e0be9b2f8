"""AO's side of a real-time matrix cell: checkouts and one config over the cell's repos.

For ``--driver ao`` every cell (T1 and T2) runs AO on a config ghbench writes:

- a git checkout per repo under ``WORK/checkouts/{project id}``, as a user has one: its
  ``origin`` is the repo on github.com. On the emulator it is a new local repository
  with one commit (each AO's private world clones it and pushes its ``main`` to the
  emulator, as for a user's checkout); on GitHub a clone of the repo;
- ``WORK/ao/{topology}-{scale}-{hash of the repos}/agent-orchestrator.yaml``: one
  project per repo (``orchestrator_config``), each with its own ``sessionPrefix``,
  plus the dashboard's ``port`` for S6. Cells over the same repos share it, so their
  setups are reused.

Setup runs per project (one ``ao start <project>`` and ``batch-spawn`` each, as T1
does). The window runs one AO per project (``ghbench.drivers.ao_typescript.spread``: real AO polls
only the project ``ao start`` names), all tracing to the cell's one trace.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.common.checkouts import ensure_checkout
from ghbench.drivers.common.environment import free_loopback_port
from ghbench.drivers.project import Project, parse_project, project_id
from ghbench.runspec.cells import Cell

__all__ = ["AoCellConfig", "orchestrator_config", "prepare_ao_cell"]


@dataclass(frozen=True)
class AoCellConfig:
    """The config ghbench wrote for a cell and the projects in it (in repo order)."""

    config_path: Path
    projects: tuple[Project, ...]
    port: int | None  # the dashboard's, when S6 runs one


def orchestrator_config(
    repos: Sequence[str],
    checkouts: PurePosixPath,
    default_branch: str = "main",
    *,
    port: int | None = None,
) -> dict[str, Any]:
    """AO's config for a cell: one project per repo, each checked out under ``checkouts``.

    Each project gets its own ``sessionPrefix`` (``r1``, ``r2``, ...): AO derives the
    default from basename(path), and spread checkouts such as ``…-t2-10-r1`` and
    ``…-t2-10-r2`` would derive the same prefix and collide on session ids. ``port`` is
    the dashboard's (S6). Written as JSON (which is YAML) into the config's own
    directory, with ``AO_CONFIG_PATH`` pointing at it, so a run sees exactly these repos.
    """
    projects: dict[str, dict[str, str]] = {}
    for index, repo in enumerate(repos, start=1):
        pid = project_id(repo)
        projects[pid] = {
            "repo": repo,
            "path": str(checkouts / pid),
            "defaultBranch": default_branch,
            "sessionPrefix": f"r{index}",
        }
    config: dict[str, Any] = {"projects": projects}
    if port is not None:
        config["port"] = port
    return config


def _config_dir(cell: Cell, repos: Sequence[str], work_dir: Path) -> Path:
    digest = hashlib.sha256(",".join(repos).encode()).hexdigest()[:8]
    return work_dir / "ao" / f"{cell.topology.lower()}-{cell.sessions}-{digest}"


def prepare_ao_cell(
    cell: Cell,
    repos: Sequence[str],
    work_dir: Path,
    *,
    seeds_repos: bool,
    dashboard: bool = False,
) -> AoCellConfig:
    """Checkouts and the config for ``repos``; the config is rewritten for every cell."""
    checkouts = work_dir / "checkouts"
    port = free_loopback_port() if dashboard else None
    raw = orchestrator_config(repos, PurePosixPath(checkouts), port=port)
    for pid, entry in raw["projects"].items():
        ensure_checkout(entry["repo"], checkouts / pid, local=seeds_repos)
    config_path = _config_dir(cell, repos, work_dir) / "agent-orchestrator.yaml"
    replace_atomic(config_path, (json.dumps(raw, indent=2) + "\n").encode())
    projects = tuple(parse_project(raw, pid, config_path) for pid in raw["projects"])
    return AoCellConfig(config_path=config_path, projects=projects, port=port)
