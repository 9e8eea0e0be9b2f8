"""Reading a trace for ``summarize``/``analyze`` and the matrix, and scorecards for ``compare``."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from ghbench.analysis.compare import Run
from ghbench.artifacts.models import load_scorecard
from ghbench.errors import ArtifactError
from ghbench.trace.frame import COLUMNS, TraceFrame
from ghbench.trace.reader import read_trace

__all__ = ["load_scorecards", "load_trace"]


def load_trace(path: Path, columns: Collection[str] = COLUMNS) -> TraceFrame:
    """The ``columns`` of the trace at ``path`` (a file or a pipe); TraceError when it
    cannot be read or holds no row."""
    return read_trace(path, columns)


def load_scorecards(path: Path, role: str) -> list[Run]:
    """The scorecard at ``path``, or every ``scorecard-*.json`` under the directory ``path``
    (sorted by name); ArtifactError (one line, naming ``role``) when there is none."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.rglob("scorecard-*.json"))
        if not files:
            raise ArtifactError(
                f"{role} {path}: no scorecard-*.json in this directory; pass a scorecard"
                " or a directory of runs"
            )
    elif path.exists():
        files = [path]
    else:
        raise ArtifactError(
            f"{role} {path}: no such file or directory; pass a scorecard JSON file or a"
            " directory of runs"
        )
    runs = []
    for file in files:
        try:
            runs.append(Run(str(file), load_scorecard(file)))
        except ArtifactError as exc:
            raise ArtifactError(f"{role}: {exc}") from None
    return runs
