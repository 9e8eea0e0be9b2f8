"""AO's two on-disk session layouts (AO reference §3, §9), read and written the same way.

=========  =====================================================  ==========================
layout     session metadata                                       tmux session name
=========  =====================================================  ==========================
``json``   ``~/.agent-orchestrator/projects/{project}/sessions/``  the session id
           ``{id}.json`` (current AO, after the storage redesign)
``kv``     ``~/.agent-orchestrator/{storageKey}/sessions/{id}``    ``{storageKey}-{id}``
           ``key=value`` lines (bench-era AO); storageKey is
           ``{sha256(realpath(config dir))[:12]}-{basename(path)}``
=========  =====================================================  ==========================

``mark_pr_open`` writes what makes AO's poller treat a session as alive with an open
PR: ``status: pr_open`` and the PR's URL, with the lifecycle fields a stop rewrote
(``lifecycle``, ``stateVersion``/``statePayload``) removed so AO derives the state
from ``status`` again, as it does for metadata it has not upgraded yet.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ghbench.artifacts.io import replace_atomic

__all__ = [
    "JsonLayout",
    "KvLayout",
    "Layout",
    "detect_layout",
    "layout_of_checkout",
    "parse_kv",
    "render_kv",
    "storage_key",
]

# Fields that carry AO's own view of a session's state; a stop rewrites them to "killed".
_STATE_FIELDS = ("lifecycle", "stateVersion", "statePayload")
_KV_LINE = re.compile(r"^([A-Za-z0-9_]+)=(.*)$")


def parse_kv(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = _KV_LINE.match(line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def render_kv(values: Mapping[str, str]) -> str:
    return "".join(f"{k}={v}\n" for k, v in values.items())


def storage_key(config_path: Path, project_path: Path) -> str:
    """Bench-era AO's directory key: 12 hex of sha256(realpath(config dir)) + basename."""
    digest = hashlib.sha256(os.path.realpath(config_path.parent).encode()).hexdigest()[:12]
    return f"{digest}-{project_path.name}"


class Layout(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def sessions_dir(self) -> Path: ...

    def metadata_path(self, session_id: str) -> Path: ...

    def tmux_name(self, session_id: str) -> str: ...

    def read(self, session_id: str) -> dict[str, Any] | None: ...

    def mark_pr_open(self, fields: Mapping[str, str]) -> None:
        """Write (or rewrite) the session's metadata as alive with an open PR."""
        ...

    def orchestrator_id(self, prefix: str) -> str:
        """The id AO gives the project's orchestrator session."""
        ...

    def mark_orchestrator_live(self, prefix: str, workspace: Path, branch: str) -> str:
        """Write the orchestrator session's metadata as live (AO then reuses it and
        launches no orchestrator agent); return its tmux name."""
        ...


@dataclass(frozen=True)
class JsonLayout:
    home: Path
    project_id: str
    name: str = "json"

    @property
    def sessions_dir(self) -> Path:
        return self.home / ".agent-orchestrator" / "projects" / self.project_id / "sessions"

    def metadata_path(self, session_id: str) -> Path:
        return self.sessions_dir / f"{session_id}.json"

    def tmux_name(self, session_id: str) -> str:
        return session_id

    def read(self, session_id: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.metadata_path(session_id).read_text())
        except (FileNotFoundError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def mark_pr_open(self, fields: Mapping[str, str]) -> None:
        sid = fields["id"]
        current = self.read(sid) or {}
        for key in _STATE_FIELDS:
            current.pop(key, None)
        current.update({k: v for k, v in fields.items() if k != "id"})
        current["status"] = "pr_open"
        current["tmuxName"] = self.tmux_name(sid)
        current.setdefault("agent", "claude-code")
        body = json.dumps(current, indent=2) + "\n"
        replace_atomic(self.metadata_path(sid), body.encode())

    def orchestrator_id(self, prefix: str) -> str:
        return f"{prefix}-orchestrator"  # AO main: one canonical orchestrator per project

    def mark_orchestrator_live(self, prefix: str, workspace: Path, branch: str) -> str:
        sid = self.orchestrator_id(prefix)
        tmux = self.tmux_name(sid)
        meta = _orchestrator_fields(self.project_id, tmux, workspace, branch)
        meta["runtimeHandle"] = {"id": tmux, "runtimeName": "tmux", "data": {}}
        replace_atomic(self.metadata_path(sid), (json.dumps(meta, indent=2) + "\n").encode())
        return tmux


@dataclass(frozen=True)
class KvLayout:
    home: Path
    key: str
    project_id: str = ""
    name: str = "kv"

    @property
    def sessions_dir(self) -> Path:
        return self.home / ".agent-orchestrator" / self.key / "sessions"

    def metadata_path(self, session_id: str) -> Path:
        return self.sessions_dir / session_id

    def tmux_name(self, session_id: str) -> str:
        return f"{self.key}-{session_id}"

    def read(self, session_id: str) -> dict[str, Any] | None:
        try:
            return dict(parse_kv(self.metadata_path(session_id).read_text()))
        except FileNotFoundError:
            return None

    def mark_pr_open(self, fields: Mapping[str, str]) -> None:
        sid = fields["id"]
        current = {k: str(v) for k, v in (self.read(sid) or {}).items()}
        for key in _STATE_FIELDS:
            current.pop(key, None)
        current.update({k: v for k, v in fields.items() if k != "id"})
        tmux = self.tmux_name(sid)
        current["status"] = "pr_open"
        current["tmuxName"] = tmux
        current.setdefault("agent", "claude-code")
        current.setdefault(
            "runtimeHandle", json.dumps({"id": tmux, "runtimeName": "tmux", "data": {}})
        )
        replace_atomic(self.metadata_path(sid), render_kv(current).encode())

    def orchestrator_id(self, prefix: str) -> str:
        return f"{prefix}-orchestrator-1"  # bench-era AO numbers its orchestrators

    def mark_orchestrator_live(self, prefix: str, workspace: Path, branch: str) -> str:
        sid = self.orchestrator_id(prefix)
        tmux = self.tmux_name(sid)
        fields = _orchestrator_fields(self.project_id, tmux, workspace, branch)
        meta: dict[str, str] = {k: str(v) for k, v in fields.items()}
        meta["runtimeHandle"] = json.dumps({"id": tmux, "runtimeName": "tmux", "data": {}})
        replace_atomic(self.metadata_path(sid), render_kv(meta).encode())
        return tmux


def _orchestrator_fields(
    project: str, tmux: str, workspace: Path, branch: str
) -> dict[str, object]:
    """A live orchestrator session as AO writes one, minus the lifecycle AO derives.

    The workspace is a directory of ghbench's, never a checkout: stopping AO destroys
    each session's workspace, deleting the directory when it is not a git worktree.
    """
    return {
        "worktree": str(workspace),
        "branch": branch,
        "status": "working",
        "tmuxName": tmux,
        "project": project,
        "agent": "claude-code",
        "role": "orchestrator",
        "createdAt": "2026-01-01T00:00:00.000Z",
    }


# AO's storage redesign (36fed87b2) added this function to its core's paths module.
_JSON_LAYOUT_MARK = b"getProjectSessionsDir"


def layout_of_checkout(checkout: Path | None) -> str | None:
    """``json`` or ``kv`` for a built AO checkout, from what its core exports; None
    when there is no checkout to look at (an ``ao`` executable elsewhere)."""
    if checkout is None:
        return None
    paths = checkout / "packages" / "core" / "dist" / "paths.js"
    try:
        return "json" if _JSON_LAYOUT_MARK in paths.read_bytes() else "kv"
    except OSError:
        return None


def detect_layout(
    requested: str,
    *,
    home: Path,
    project_id: str,
    config_path: Path | None,
    project_path: Path,
    checkout: Path | None = None,
) -> Layout | None:
    """The layout to use. ``auto`` asks the AO checkout (two builds may share one HOME:
    an A/B run), then looks on disk; None when neither tells."""
    json_layout = JsonLayout(home, project_id)
    kv_layout = KvLayout(home, _kv_key(home, config_path, project_path, project_id), project_id)
    if requested == "auto":
        requested = layout_of_checkout(checkout) or "auto"
    if requested == "auto":
        if json_layout.sessions_dir.is_dir():
            return json_layout
        if kv_layout.sessions_dir.is_dir():
            return kv_layout
    if requested == "json":
        return json_layout
    if requested == "kv":
        return kv_layout
    return None


def _kv_key(home: Path, config_path: Path | None, project_path: Path, project_id: str) -> str:
    """The storage key on disk if one matches this project, else the computed one."""
    root = home / ".agent-orchestrator"
    if config_path is not None:
        computed = storage_key(config_path, project_path)
        if (root / computed).is_dir():
            return computed
        digest = computed.split("-", 1)[0]
        # AO's reference gives the suffix as basename(path) in one place and the
        # project id in another; accept either when it is on disk.
        alt = f"{digest}-{project_id}"
        if (root / alt).is_dir():
            return alt
        return computed
    matches = sorted(root.glob(f"*-{project_id}/sessions"))
    return matches[0].parent.name if matches else f"000000000000-{project_id}"
