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
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ghbench.artifacts.io import replace_atomic
from ghbench.drivers.project import Project, parse_project
from ghbench.errors import ConfigError, GhbenchError
from ghbench.gitinfo import run_git

__all__ = ["AoWorld", "clone_keeping_origin", "derived_config", "origin_url"]

# Keys of AO's config that make AO reach outside the benchmark (notifications).
_DROPPED_TOP_LEVEL = ("notifiers", "notificationRouting")


def _git(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_git(*args, cwd=cwd, timeout=600)


def origin_url(checkout: Path, repo: str) -> str:
    """The checkout's ``origin`` URL; GitHub's HTTPS URL for ``repo`` when it has none."""
    proc = _git("-C", str(checkout), "remote", "get-url", "origin")
    url = proc.stdout.strip()
    return url if proc.returncode == 0 and url else f"https://github.com/{repo}.git"


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

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def checkout(self) -> Path:
        return self.root / "checkout" / self.project.path.name

    @property
    def config_path(self) -> Path:
        return self.root / "agent-orchestrator.yaml"

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
        self._write_gitconfig(user_gitconfig)
        if not (self.checkout / ".git").exists():
            self._clone()
        raw: Mapping[str, Any] = {"projects": {self.project.id: {}}}
        if self.project.config_path is not None:
            raw = _read_config(self.project.config_path)
        config = derived_config(raw, self.project, self.checkout)
        # AO reads YAML; JSON is YAML and keeps every value's type exactly
        replace_atomic(self.config_path, (json.dumps(config, indent=2) + "\n").encode())
        parse_project(config, self.project.id, self.config_path)  # what AO will read
        return self.bench_project

    def _write_gitconfig(self, user_gitconfig: Path | None) -> None:
        lines = ["# ghbench: AO's HOME; the user's own global config is only included\n"]
        if user_gitconfig is not None and user_gitconfig.is_file():
            lines.append(f"[include]\n\tpath = {json.dumps(str(user_gitconfig))}\n")
        replace_atomic(self.home / ".gitconfig", "".join(lines).encode())

    def _clone(self) -> None:
        clone_keeping_origin(self.project, self.checkout)


def clone_keeping_origin(project: Project, dest: Path) -> None:
    """Clone ``project``'s checkout into ``dest`` with ``origin`` still the user's remote
    (GitHub's HTTPS URL for its repo when it has none). An interrupted earlier clone
    (``dest.partial``) is ghbench's and is replaced."""
    source = project.path
    if not (source / ".git").exists():
        where = f"projects.{project.id}.path" if project.config_path else "the checkout"
        raise GhbenchError(
            f"{source} ({where}) is not a git checkout; point it at a clone of the repository"
        )
    url = origin_url(source, project.repo)
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    proc = _git("clone", "--quiet", str(source), str(partial))
    if proc.returncode != 0:
        detail = " ".join(proc.stderr.split())[:300]
        raise GhbenchError(f"cannot clone {source} into {partial}: {detail}")
    set_url = _git("-C", str(partial), "remote", "set-url", "origin", url)
    if set_url.returncode != 0:
        raise GhbenchError(f"cannot set origin of {partial}: {set_url.stderr.strip()}")
    partial.rename(dest)
