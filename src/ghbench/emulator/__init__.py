"""The embedded GitHub API emulator: durable state, rate-limit ledger, REST, GraphQL,
a control API under ``/_ghbench/``, and servers (thread, subprocess, in-process).

Public API (imported lazily, so ``import ghbench.emulator`` stays cheap)::

    Emulator(clock=, rng=, seed=, state_dir=, config=)   .handle(EmuRequest) -> EmuResponse
    EmuRequest, EmuResponse, EmulatorConfig, load_config
    EmulatorServer(emulator, host, port=0, uds=None).start() -> url / .stop() / context manager
    start_emulator_process(state_dir, port=0, tokens=...) -> EmulatorProcess (.url, .stop())
    EmulatorTransport(emulator)   # sync httpx transport, no socket
    gh_environment(url, token, home) -> env vars for the real gh
    git_environment(url) -> env vars sending git's github.com remotes to the emulator
    gh_enterprise_environment(host, socket, token, home) -> the same as a GHES host
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "EmuRequest",
    "EmuResponse",
    "Emulator",
    "EmulatorConfig",
    "EmulatorProcess",
    "EmulatorServer",
    "EmulatorTransport",
    "LedgerEntry",
    "gh_enterprise_environment",
    "gh_environment",
    "git_environment",
    "load_config",
    "start_emulator_process",
]

_WHERE = {
    "EmuRequest": "http",
    "EmuResponse": "http",
    "Emulator": "core",
    "EmulatorConfig": "config",
    "load_config": "config",
    "EmulatorProcess": "process",
    "EmulatorServer": "thread_server",
    "gh_environment": "client_env",
    "git_environment": "client_env",
    "gh_enterprise_environment": "client_env",
    "start_emulator_process": "process",
    "EmulatorTransport": "transport",
    "LedgerEntry": "ratelimit",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ghbench.emulator' has no attribute {name!r}")
    return getattr(importlib.import_module(f"ghbench.emulator.{module}"), name)
