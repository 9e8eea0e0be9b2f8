"""Find ``agent-orchestrator.yaml`` the way AO does, and read one project from it.

AO's search order (AO reference §2), first hit wins:

1. ``--config FILE`` (ghbench's own flag, when given)
2. ``$AO_CONFIG_PATH``
3. ``agent-orchestrator.yaml`` / ``.yml`` in the working directory or any parent
4. the global config: ``$AO_GLOBAL_CONFIG``, ``$XDG_CONFIG_HOME/agent-orchestrator/config.yaml``,
   ``~/.agent-orchestrator/config.yaml``
5. ``~/.agent-orchestrator.yaml`` / ``.yml``, ``~/.config/agent-orchestrator/config.yaml``

A project is ``projects.<id>`` with ``path`` (required, ``~`` expanded), ``repo``
(``owner/name``), ``defaultBranch`` (``main``) and ``sessionPrefix`` (derived from the
basename of ``path``, as AO derives it, not from the project id). Other keys are AO's
and are kept untouched. The keys ghbench reads are declared once, on ``_Entry``, and
checked by ``ghbench.validation``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import msgspec
import yaml

from ghbench.errors import ConfigError
from ghbench.validation import convert, read_text

__all__ = [
    "Project",
    "config_candidates",
    "find_config",
    "load_project",
    "project_id",
    "session_prefix",
]

CONFIG_NAMES = ("agent-orchestrator.yaml", "agent-orchestrator.yml")
_PROJECT_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


class _Entry(msgspec.Struct, kw_only=True, rename="camel"):
    """``projects.<id>`` as ghbench reads it; AO's other keys are AO's and are ignored."""

    path: Annotated[str, msgspec.Meta(pattern=r"\S", description="a directory path")]
    repo: Annotated[str, msgspec.Meta(pattern=_REPO.pattern, description="owner/name")]
    default_branch: Annotated[str, msgspec.Meta(min_length=1, description="a branch name")] = "main"
    session_prefix: str | None = None  # checked once derived too (see parse_project)


@dataclass(frozen=True)
class Project:
    """One resolved ``projects.<id>`` entry."""

    id: str
    path: Path
    repo: str
    default_branch: str
    session_prefix: str
    config_path: Path | None


def project_id(repo: str) -> str:
    """The project id ghbench gives a repo it makes a project for (a matrix cell's):
    ``owner/name`` with every other character as ``-``.

    The owner is kept so two repos of the same name never share an id (AO's ids allow
    only letters, digits, ``-`` and ``_``).
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", repo)


def session_prefix(name: str) -> str:
    """AO's default session prefix for a project directory name.

    Up to 4 characters are kept; CamelCase gives its capitals; kebab or snake case
    gives the initials (``todo-app`` -> ``ta``); anything else its first 3 characters.
    """
    if len(name) <= 4:
        return name.lower()
    capitals = [c for c in name if c.isupper()]
    if len(capitals) >= 2 and not re.search(r"[-_]", name):
        return "".join(capitals).lower()
    parts = [p for p in re.split(r"[-_]+", name) if p]
    if len(parts) >= 2:
        return "".join(p[0] for p in parts).lower()
    return name[:3].lower()


def config_candidates(env: Mapping[str, str], cwd: Path, home: Path) -> list[Path]:
    """Every path AO would try, in order (existence not checked)."""
    out: list[Path] = []
    if env.get("AO_CONFIG_PATH"):
        out.append(Path(env["AO_CONFIG_PATH"]).expanduser())
    for directory in (cwd, *cwd.parents):
        out.extend(directory / name for name in CONFIG_NAMES)
    if env.get("AO_GLOBAL_CONFIG"):
        out.append(Path(env["AO_GLOBAL_CONFIG"]).expanduser())
    if env.get("XDG_CONFIG_HOME"):
        out.append(Path(env["XDG_CONFIG_HOME"]) / "agent-orchestrator" / "config.yaml")
    out.append(home / ".agent-orchestrator" / "config.yaml")
    out.extend(home / f".{name}" for name in CONFIG_NAMES)
    out.append(home / ".config" / "agent-orchestrator" / "config.yaml")
    return out


def find_config(
    env: Mapping[str, str], cwd: Path, home: Path, explicit: Path | None = None
) -> Path:
    """The config file AO would use, or ConfigError saying where it looked."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"{explicit}: no such config file; check --config")
        return explicit
    if env.get("AO_CONFIG_PATH"):
        given = Path(env["AO_CONFIG_PATH"]).expanduser()
        if not given.is_file():
            raise ConfigError(f"AO_CONFIG_PATH points at {given}, which does not exist; fix it")
    for candidate in config_candidates(env, cwd, home):
        if candidate.is_file():
            return candidate
    raise ConfigError(
        "no agent-orchestrator.yaml found (looked in AO_CONFIG_PATH, this directory and its"
        " parents, and the global config); create one or pass --config FILE"
    )


def _read_yaml(path: Path) -> dict[str, Any]:
    text = read_text(path, str(path))
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: the top level must be a mapping with a 'projects' key")
    return raw


def parse_project(raw: Mapping[str, Any], project_id: str, source: Path | None) -> Project:
    """Validate ``projects.<project_id>`` of an already-parsed config."""
    where = str(source) if source else "<config>"
    projects = raw.get("projects")
    if not isinstance(projects, dict) or not projects:
        raise ConfigError(f"{where}: no 'projects' mapping; add projects.<id> with path and repo")
    entry = projects.get(project_id)
    if entry is None:
        known = ", ".join(sorted(str(k) for k in projects))
        raise ConfigError(
            f"{where}: unknown project {project_id!r} (known: {known}); fix --project"
        )
    if not _PROJECT_ID.match(project_id):
        raise ConfigError(
            f"{where}: project id {project_id!r} may only use letters, digits, - and _"
        )
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: projects.{project_id} must be a mapping")
    fields = convert(entry, _Entry, source=where, prefix=f"projects.{project_id}")
    path = Path(fields.path).expanduser()
    if not path.is_absolute() and source is not None:
        path = (source.parent / path).resolve()
    repo, branch = fields.repo, fields.default_branch
    prefix = fields.session_prefix or session_prefix(path.name)
    if not _PROJECT_ID.match(prefix):
        raise ConfigError(
            f"{where}: projects.{project_id}.sessionPrefix: {prefix!r} may only use letters,"
            " digits, - and _"
        )
    return Project(
        id=project_id,
        path=path,
        repo=repo,
        default_branch=branch,
        session_prefix=prefix,
        config_path=source,
    )


def load_project(
    project_id: str,
    *,
    env: Mapping[str, str],
    cwd: Path,
    home: Path,
    explicit: Path | None = None,
) -> Project:
    """Find the config by AO's search order and return ``projects.<project_id>``."""
    path = find_config(env, cwd, home, explicit)
    return parse_project(_read_yaml(path), project_id, path.resolve())
