"""The sessions a driver spawned, kept in its world (``sessions.json``) for later runs.

A driver whose orchestrator does not keep what ghbench needs to find again (the model
keeps nothing; AO's daemon keeps its own database, which ghbench does not read) writes
``{"sessions": {id: {...}}}`` beside its state, atomically, and reads it back tolerantly
(an entry that is not an object is skipped).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ghbench.artifacts.io import replace_atomic
from ghbench.errors import GhbenchError

__all__ = ["SessionRegistry"]


@dataclass(frozen=True)
class SessionRegistry:
    path: Path

    def load(self) -> dict[str, dict[str, Any]]:
        """Every session by id; empty when none was ever saved."""
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except ValueError as exc:
            raise GhbenchError(f"{self.path}: not valid JSON ({exc}); remove it") from None
        sessions = data.get("sessions") if isinstance(data, dict) else None
        if not isinstance(sessions, dict):
            return {}
        return {str(k): dict(v) for k, v in sessions.items() if isinstance(v, dict)}

    def save(self, sessions: Mapping[str, Mapping[str, Any]]) -> None:
        body = json.dumps({"sessions": sessions}, indent=2, sort_keys=True) + "\n"
        replace_atomic(self.path, body.encode())
