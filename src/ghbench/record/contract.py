"""The environment contract between ``ghbench record`` and its gh shim.

``ghbench record`` bakes these variables into the shim script and also exports them
to the command's process tree, so every ``gh`` found on ``PATH`` below it, however
deeply nested, is the shim and knows where to write.

- ``GHBENCH_REAL_GH``: absolute path of the real gh.
- ``GHBENCH_RECORD_SINKS``: JSON list of ``[trace path, component, state dir]``; a
  ``ghbench record`` nested inside another adds its own sink, so both traces get
  the rows.
- ``GHBENCH_RECORD_SESSION`` / ``GHBENCH_RECORD_PROJECT``: when set, every row of the
  invocation carries them as ``sessionId`` / ``projectId`` (an agent shim copies them
  from the orchestrator's per-session variables).
- ``GH_DEBUG``: the shim runs gh with ``DEBUG_SENTINEL`` (it contains ``api``, so gh
  logs headers and bodies) and saves the user's own ``GH_DEBUG``/``DEBUG`` in
  ``GHBENCH_USER_DEBUG``. A shim further down the tree (gh running an extension
  that runs gh) sees the sentinel and recovers the user's setting from there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import NamedTuple

__all__ = [
    "DEBUG_SENTINEL",
    "ENV_PROJECT",
    "ENV_REAL_GH",
    "ENV_SESSION",
    "ENV_SINKS",
    "ENV_USER_DEBUG",
    "SHIM_MARKER",
    "Sink",
    "decode_sinks",
    "encode_sinks",
    "gh_child_env",
    "user_debug_env",
]

ENV_REAL_GH = "GHBENCH_REAL_GH"
ENV_SINKS = "GHBENCH_RECORD_SINKS"
ENV_USER_DEBUG = "GHBENCH_USER_DEBUG"
ENV_SESSION = "GHBENCH_RECORD_SESSION"
ENV_PROJECT = "GHBENCH_RECORD_PROJECT"
DEBUG_SENTINEL = "api:ghbench-record"
SHIM_MARKER = "# ghbench-record-shim"


class Sink(NamedTuple):
    """Where one ``ghbench record`` run wants rows: its trace, component and state dir.

    The state dir holds the once-only warning marker; it is removed when that run ends.
    (A NamedTuple, not a dataclass: the shim imports this before starting gh.)
    """

    trace: str
    component: str
    state_dir: str


def encode_sinks(sinks: Sequence[Sink]) -> str:
    return json.dumps([[s.trace, s.component, s.state_dir] for s in sinks])


def decode_sinks(text: str | None) -> list[Sink]:
    """The sinks in ``text``; malformed entries are skipped, never fatal to gh."""
    if not text:
        return []
    try:
        raw = json.loads(text)
    except ValueError:
        return []
    sinks: list[Sink] = []
    if isinstance(raw, list):
        for item in raw:
            if (
                isinstance(item, list)
                and len(item) == 3
                and all(isinstance(x, str) and x for x in item)
            ):
                sinks.append(Sink(item[0], item[1], item[2]))
    return sinks


def user_debug_env(env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The user's own ``(GH_DEBUG, DEBUG)`` (None = unset), seeing through a shim above us."""
    if env.get("GH_DEBUG") == DEBUG_SENTINEL and ENV_USER_DEBUG in env:
        try:
            saved = json.loads(env[ENV_USER_DEBUG])
        except ValueError:
            saved = None
        if isinstance(saved, list) and len(saved) == 2:
            gh_debug, legacy = saved
            return (
                gh_debug if isinstance(gh_debug, str) else None,
                legacy if isinstance(legacy, str) else None,
            )
    return env.get("GH_DEBUG"), env.get("DEBUG")


def gh_child_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment to run the real gh in: verbose debug on, the user's setting saved."""
    gh_debug, legacy = user_debug_env(env)
    child = dict(env)
    child["GH_DEBUG"] = DEBUG_SENTINEL
    child[ENV_USER_DEBUG] = json.dumps([gh_debug, legacy])
    return child
