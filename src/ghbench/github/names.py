"""The GitHubs a run can talk to, by name (no imports: the CLI's flags use it)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["BACKEND_NAMES", "BackendName"]

BackendName = Literal["github", "emulator"]
BACKEND_NAMES: tuple[BackendName, ...] = get_args(BackendName)
