"""The environment a driver gives the orchestrator it starts in a private world.

An orchestrator ghbench starts inherits the user's environment, less what would send it,
gh, git or tmux somewhere other than the run's GitHub and ghbench's private world
(``SCRUBBED``; a family adds its own names), with a HOME of the world's
(``private_home``), so nothing of the user's (their gh login, their tmux server, their
global git config beyond an include) is read or written, and a loopback port of its own
for a server it runs (``free_loopback_port``).
"""

from __future__ import annotations

import socket
from collections.abc import Collection, Mapping
from pathlib import Path

__all__ = ["SCRUBBED", "TRACE_VARS", "free_loopback_port", "inherited", "private_home"]

# AO's tracer variables (its TypeScript builds): setup must not trace, so they are
# removed unless a driver sets them on purpose.
TRACE_VARS = ("AO_GH_TRACE_FILE", "AO_AGENT_GH_TRACE")

# Inherited variables that would send an orchestrator, gh, git or tmux somewhere else:
# the user's tmux server, GitHub host, tokens, gh config, proxies, git config and XDG
# directories (the world's HOME has its own).
SCRUBBED = frozenset(
    {
        "TMUX",
        "TMUX_PANE",
        "TMUX_TMPDIR",
        "GH_HOST",
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GH_ENTERPRISE_TOKEN",
        "GITHUB_ENTERPRISE_TOKEN",
        "GH_CONFIG_DIR",
        "GITHUB_API_URL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_COUNT",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
    }
)
_SCRUBBED_PREFIXES = ("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")


def inherited(
    base: Mapping[str, str],
    *,
    also: Collection[str] = (),
    prefixes: tuple[str, ...] = (),
) -> dict[str, str]:
    """``base`` without ``SCRUBBED``, the names in ``also`` and the names that start with
    one of ``prefixes`` (a family's own)."""
    dropped = SCRUBBED | frozenset(also)
    starts = _SCRUBBED_PREFIXES + prefixes
    return {k: v for k, v in base.items() if k not in dropped and not k.startswith(starts)}


def private_home(home: Path, tmp: Path, gh_config: Path) -> dict[str, str]:
    """The variables that put a process in a world's ``home``: its HOME, TMPDIR, XDG
    directories and gh's config directory, gh quiet and never prompting."""
    return {
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "GH_CONFIG_DIR": str(gh_config),
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
    }


def free_loopback_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the orchestrator binds it moments later:
    AO's daemon its API, AO's web dashboard its pages)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
