"""One project's private AO world: a HOME, ghbench's own clone of the checkout, a config.

ghbench never runs AO on the user's own checkout, config or HOME: AO's worktree plugin
fetches ``origin`` and adds worktrees and branches to the repository it is given, AO
keeps its sessions under ``~/.agent-orchestrator`` (a second ``ao start`` in the same
HOME attaches to a running AO instead of polling), and agents push. So every project
gets, under ``OUT/state/ao/<project id>/``:

- ``home/``: AO's HOME (its sessions, worktrees, ``~/.ao/bin`` wrappers) with a
  ``.gitconfig`` that only includes the user's global git config, so agents commit
  with the user's identity and whatever they write there stays here;
- ``checkout/<basename>``: a clone of the user's checkout (same basename, so AO derives
  the same session prefix) whose ``origin`` is the user's ``origin`` URL; git's
  environment config sends it to the emulator when the backend is the emulator;
- ``agent-orchestrator.yaml``: the user's config with only this project, its ``path``
  pointing at the clone, and no notifiers (a benchmark must not post to the user's
  Slack, Discord or webhooks).

The user's checkout is only read (``git clone`` from it, ``remote get-url``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.common.checkouts import clone_keeping_origin, write_home_gitconfig
from ghbench.drivers.common.layout import Below
from ghbench.drivers.project import Project, parse_project
from ghbench.errors import ConfigError

__all__ = ["AoWorld", "derived_config"]

# Keys of AO's config that make AO reach outside the benchmark (notifications).
_DROPPED_TOP_LEVEL = ("notifiers", "notificationRouting")


def derived_config(raw: Mapping[str, Any], project: Project, checkout: Path) -> dict[str, Any]:
    """The user's config reduced to ``project``, pointed at ``checkout``, without notifiers."""
    config = {k: v for k, v in raw.items() if k not in _DROPPED_TOP_LEVEL and k != "projects"}
    defaults = config.get("defaults")
    if isinstance(defaults, dict) and "notifiers" in defaults:
        config["defaults"] = {**defaults, "notifiers": []}
    projects = raw.get("projects")
    entry = dict(projects[project.id]) if isinstance(projects, dict) else {}
    entry.update(
        path=str(checkout),
        repo=project.repo,
        defaultBranch=project.default_branch,
        sessionPrefix=project.session_prefix,
    )
    config["projects"] = {project.id: entry}
    return config


def _read_config(path: Path) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: the top level must be a mapping with a 'projects' key")
    return raw


@dataclass(frozen=True)
class AoWorld:
    """``root`` holds everything AO gets for ``project`` (the user's project)."""

    root: Path
    project: Project

    home = Below("home")
    tmp = Below("tmp")
    logs = Below("logs")
    config_path = Below("agent-orchestrator.yaml")

    @property
    def checkout(self) -> Path:
        return self.root / "checkout" / self.project.path.name

    @property
    def bench_project(self) -> Project:
        """The project as AO sees it here: the clone and the derived config."""
        return Project(
            id=self.project.id,
            path=self.checkout,
            repo=self.project.repo,
            default_branch=self.project.default_branch,
            session_prefix=self.project.session_prefix,
            config_path=self.config_path,
        )

    def prepare(self, user_gitconfig: Path | None) -> Project:
        """Create the world (the clone only once) and rewrite the derived config."""
        for directory in (self.home, self.tmp, self.logs):
            directory.mkdir(parents=True, exist_ok=True)
        write_home_gitconfig(self.home, user_gitconfig)
        if not (self.checkout / ".git").exists():
            clone_keeping_origin(self.project, self.checkout)
        raw: Mapping[str, Any] = {"projects": {self.project.id: {}}}
        if self.project.config_path is not None:
            raw = _read_config(self.project.config_path)
        config = derived_config(raw, self.project, self.checkout)
        # AO reads YAML; JSON is YAML and keeps every value's type exactly
        replace_atomic(self.config_path, (json.dumps(config, indent=2) + "\n").encode())
        parse_project(config, self.project.id, self.config_path)  # what AO will read
        return self.bench_project
