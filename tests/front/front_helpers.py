"""Running real clients through a front (a unique module name for the test path)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ghbench.front import Front, FrontSettings, start_front
from ghbench.record.network import emulator_token_env
from tools import gh_child_env

sys.path.append(str(Path(__file__).resolve().parents[1] / "emulator"))
from github_descriptions import NODE_DIR, need_node

__all__ = [
    "NODE_DIR",
    "SYSTEM_BUNDLE",
    "TOKEN",
    "client_env",
    "need_node",
    "python_client",
    "rows",
    "run",
    "running_front",
    "traced",
]

SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
TOKEN = "ghp_test0000000000000000000000000000000001"  # the root conftest's TEST_TOKEN
TIMEOUT_S = 120


@contextmanager
def running_front(
    state: Path,
    upstream: str | None,
    *,
    mode: str = "emulate",
    trace: Path | None = None,
    **more: Any,
) -> Iterator[Front]:
    """A front for a test (``more``: other ``FrontSettings``), stopped at the end."""
    settings = FrontSettings(
        mode="emulate" if mode == "emulate" else "forward",
        state_dir=str(state),
        upstream=upstream,
        trace=None if trace is None else str(trace),
        **more,
    )
    front = start_front(settings)
    try:
        yield front
    finally:
        front.stop()


@contextmanager
def traced(front: Front, where: Path) -> Iterator[Path]:
    """The front's rows (and counts) go to a trace of their own under ``where``."""
    path = where / "trace.jsonl"
    front.switch_trace(path)
    try:
        yield path
    finally:
        front.switch_trace(None)


def client_env(front: Front, root: Path, token: str, session: str | None = None) -> dict[str, str]:
    """A clean environment for a client of ``front``: gh's own under ``root`` (a private
    HOME, telemetry off), no proxy or CA of the developer's, the token where clients look
    for it, git's identity."""
    env = gh_child_env(root) | {
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Octo Cat",
        "GIT_AUTHOR_EMAIL": "octo@users.noreply.github.com",
        "GIT_COMMITTER_NAME": "Octo Cat",
        "GIT_COMMITTER_EMAIL": "octo@users.noreply.github.com",
    }
    env |= emulator_token_env(token, env)
    env |= front.client_env(env, session=session)
    return env


def run(
    argv: list[str], env: Mapping[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, env=dict(env), cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S
    )


def rows(trace: Path) -> list[dict[str, Any]]:
    if not trace.exists():
        return []
    return [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]


def python_client(env: Mapping[str, str], code: str) -> subprocess.CompletedProcess[str]:
    """A Python client in its own process (its TLS trust is read from the environment
    when it starts, as a user's script's is)."""
    return run([sys.executable, "-c", code], env)
