"""``RunResult``: what a run (a measurement, a simulation, a matrix cell) hands back.

The scorecard travels typed, as the engine made it; the file it was written to is for
the user, never read back by the flow that wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ghbench.artifacts.models import ScorecardArtifact, encode_artifact

__all__ = ["RunResult"]


@dataclass(frozen=True)
class RunResult:
    """A run's trace, its scorecard, and the file the scorecard was written to."""

    trace_path: Path
    scorecard_path: Path
    scorecard: ScorecardArtifact

    def scorecard_json(self) -> str:
        """The scorecard as its file holds it (what ``--json`` prints)."""
        return encode_artifact(self.scorecard).decode()
