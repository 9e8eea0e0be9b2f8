"""The GitHubs a run can talk to, by name (no imports: the CLI's flags use it)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["BACKEND_NAMES", "BackendName", "backend_name"]

BackendName = Literal["github", "emulator"]
BACKEND_NAMES: tuple[BackendName, ...] = get_args(BackendName)


def backend_name(text: str) -> BackendName:
    """``text`` as a backend name; ValueError naming the choices otherwise."""
    for name in BACKEND_NAMES:
        if text == name:
            return name
    raise ValueError(f"{text!r} is not a GitHub backend ({', '.join(BACKEND_NAMES)})")
