"""The scorecard: pure computation from a ``TraceFrame``, a window and snapshots.

    build_scorecard_artifact(frame, *, window_start_ms, window_end_ms, ...) -> ScorecardArtifact
    render_console(artifact, *, color, paths) -> str
    write_scorecard(artifact, path) -> Path

Nothing here reads a file, a socket or the clock, except ``write_scorecard``, which
is the one place an artifact reaches the disk (atomically, never over a file).
"""

from __future__ import annotations

from pathlib import Path

from ghbench.artifacts.io import unique_path
from ghbench.artifacts.models import ScorecardArtifact, write_scorecard_file
from ghbench.scorecard.console import render_console, use_color
from ghbench.scorecard.engine import SCORECARD_COLUMNS, build_scorecard_artifact
from ghbench.scorecard.inputs import Snapshots
from ghbench.timefmt import parse_iso

__all__ = [
    "SCORECARD_COLUMNS",
    "Snapshots",
    "build_scorecard_artifact",
    "render_console",
    "scorecard_stem",
    "use_color",
    "write_scorecard",
]


def scorecard_stem(artifact: ScorecardArtifact) -> str:
    """The spec's ``scorecard-{scenarioId}-{timestamp}`` (unix seconds of ``measuredAt``)."""
    return f"scorecard-{artifact.scenario_id}-{int(parse_iso(artifact.measured_at))}"


def write_scorecard(artifact: ScorecardArtifact, path: Path) -> Path:
    """Write the artifact atomically and return where it went.

    ``path`` is the file to create (ArtifactError if it exists). When ``path`` is an
    existing directory, the spec's name ``scorecard-{scenarioId}-{timestamp}.json`` is
    used inside it, with ``-2``, ``-3``… appended if that name is taken.
    """
    path = Path(path)
    if path.is_dir():
        path = unique_path(path, scorecard_stem(artifact), ".json")
    return write_scorecard_file(artifact, path)
