"""Reading a trace for ``summarize``/``analyze`` and the matrix.

``ghbench.trace.reader.read_trace`` (DuckDB-backed, tolerant) is the reader. Until it
is importable, a plain line-by-line msgspec reader stands in: tolerant in the same
way (bad lines skipped and counted), but slower on very large traces.
"""

from __future__ import annotations

from pathlib import Path

from ghbench.errors import TraceError
from ghbench.trace.frame import ReadWarning, TraceFrame

__all__ = ["load_trace"]


def load_trace(path: Path) -> TraceFrame:
    """The trace at ``path`` as a frame; TraceError when missing or unreadable."""
    path = Path(path)
    if not path.is_file():
        raise TraceError(f"trace {path} does not exist; pass the path of an AO JSONL trace")
    try:
        from ghbench.trace.reader import read_trace
    except ImportError:
        return _read_plain(path)
    frame: TraceFrame = read_trace(path)
    return frame


def _read_plain(path: Path) -> TraceFrame:
    import msgspec

    from ghbench.timefmt import parse_iso
    from ghbench.trace.schema import TraceRow

    decoder = msgspec.json.Decoder(TraceRow)
    rows: list[TraceRow] = []
    warnings: list[ReadWarning] = []
    lines = 0
    try:
        with path.open("rb") as fh:
            for lines, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    row = decoder.decode(line)
                    parse_iso(row.timestamp)
                except (msgspec.DecodeError, ValueError) as exc:
                    warnings.append(ReadWarning(lines, str(exc)))
                    continue
                rows.append(row)
    except OSError as exc:
        raise TraceError(f"cannot read trace {path}: {exc.strerror}") from exc
    return TraceFrame.from_rows(
        rows, lines_read=lines, skipped_lines=len(warnings), warnings=warnings[:100]
    )
