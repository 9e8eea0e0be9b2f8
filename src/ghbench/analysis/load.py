"""Reading a trace for ``summarize``/``analyze`` and the matrix."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from ghbench.errors import TraceError
from ghbench.trace.frame import COLUMNS, TraceFrame

__all__ = ["load_trace"]


def load_trace(path: Path, columns: Collection[str] = COLUMNS) -> TraceFrame:
    """The ``columns`` of the trace at ``path``; TraceError when missing or unreadable."""
    from ghbench.trace.reader import read_trace

    path = Path(path)
    if not path.is_file():
        raise TraceError(f"trace {path} does not exist; pass the path of an AO JSONL trace")
    return read_trace(path, columns=columns)
