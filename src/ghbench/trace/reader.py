"""Reading AO's JSONL trace (``AO_GH_TRACE_FILE``) tolerantly.

``read_trace`` gives the columnar ``TraceFrame`` every analysis uses; ``iter_rows`` gives
full ``TraceRow`` objects (args and all). Blank lines are ignored. A malformed or
truncated line (a trace still being written ends mid-line), a row without an ISO
``timestamp``, or a row with a wrong-typed field (see below) is skipped and reported as
a ``ReadWarning`` with its 1-based line number; unknown fields are kept out of the way.
A file that is missing, unreadable, empty or has no valid row is a ``TraceError``.

Which wrong-typed fields skip a row differs between the two, on purpose:

- ``iter_rows`` (and ``read_trace(path, fast=False)``) type-check every known field:
  a row with ``"cwd": 7`` is skipped.
- ``read_trace`` (default) type-checks only the fields the frame is built from:
  timestamp, durationMs, ok, exitCode, httpStatus, rateLimitLimit/Remaining/Reset/
  Resource, graphqlCost, graphqlRemaining, operation, component, sessionId, method,
  endpoint, origin, and ``args`` where ``repo`` comes from it (no ``repos/{o}/{r}``
  endpoint). A row whose other known fields are wrong-typed (or hold invalid UTF-8) is
  kept: they cannot change any figure. So ``"cwd": 7`` is accepted, ``"httpStatus":
  "200"`` is not.
- ``read_trace(path, columns=...)`` builds only those frame columns (a projection: each
  command reads what it computes over) and type-checks only their fields, by the same
  rule. ``ghbench report`` does not read endpoint, args or origin, so a row whose
  endpoint is a number counts in its scorecard and is skipped by ``analyze``.

Type checks are strict in both (``"12"`` is not 12, ``1.5`` not an integer, ``"yes"``
not a boolean). ``read_trace`` reads a big trace through a DuckDB columnar pass
(``ghbench.trace.fast``); any line that pass cannot vouch for is decided, with its line
number, by the line reader's ``FrameRowCheck`` (``ghbench.trace.exact``), which is the
definition of what ``read_trace`` accepts. DuckDB and pyarrow are an extra
(``ghbench[fast]``): without them a big trace is read by the line reader, with the same
result, about ten times slower (docs/performance.md).
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Collection, Iterator
from pathlib import Path

from ghbench.errors import TraceError
from ghbench.trace.exact import (
    MAX_WARNINGS,
    FrameRowCheck,
    iter_checked,
    iter_lines,
    read_exact,
)
from ghbench.trace.fast import read_fast
from ghbench.trace.frame import COLUMNS, ReadWarning, TraceFrame
from ghbench.trace.schema import TraceRow

__all__ = [
    "FAST_PATH_MIN_BYTES",
    "MAX_WARNINGS",
    "ReadWarning",
    "fast_reader_available",
    "iter_rows",
    "read_trace",
]

# Below this size (about 17,000 AO rows) the line reader is as quick as DuckDB with its
# start-up: measured 0.21 s vs 0.24 s at 9.7 MB, 0.52 s vs 0.30 s at 29 MB.
FAST_PATH_MIN_BYTES: int | None = 8 << 20
_HINT = "pass --trace with the path of an AO_GH_TRACE_FILE trace"


@functools.cache
def fast_reader_available() -> bool:
    """Whether DuckDB and pyarrow (the ``fast`` extra) can be imported."""
    try:
        # a probe, run once and only for a big trace: the fast path imports them anyway
        import duckdb  # noqa: F401, PLC0415
        import pyarrow  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def check_trace_path(path: Path) -> int:
    """Raise TraceError unless ``path`` is a readable, non-empty file; return its size."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise TraceError(f"trace file {path} does not exist; {_HINT}") from None
    except OSError as exc:
        raise TraceError(f"cannot read trace file {path}: {exc.strerror}; {_HINT}") from None
    if stat.S_ISDIR(st.st_mode):
        raise TraceError(f"trace file {path} is a directory; {_HINT}")
    if not os.access(path, os.R_OK):
        raise TraceError(f"cannot read trace file {path}: permission denied; {_HINT}")
    if st.st_size == 0:
        raise TraceError(f"trace file {path} is empty; has the traced process run yet?")
    return st.st_size


def _no_rows_error(path: Path, lines_read: int, skipped: int) -> TraceError:
    if lines_read == 0:
        return TraceError(f"trace file {path} has no rows (only blank lines)")
    return TraceError(
        f"trace file {path} has no valid rows: all {skipped} non-blank lines were skipped "
        "as malformed or wrong-typed; is it an AO_GH_TRACE_FILE JSONL trace?"
    )


def read_trace(
    path: Path | str, *, fast: bool | None = None, columns: Collection[str] = COLUMNS
) -> TraceFrame:
    """Read a trace into a ``TraceFrame`` holding ``columns`` (default: all).

    ``fast=True`` uses the DuckDB columnar pass, ``False`` the full-row line reader
    (``iter_rows``' rules); they give the same frame except on rows with a wrong-typed
    field the columns do not use (module doc). ``None`` (default) picks the columnar
    pass for files of ``FAST_PATH_MIN_BYTES`` or more when DuckDB and pyarrow are
    installed, and the line reader with the same column-field rules otherwise.
    """
    path = Path(path)
    size = check_trace_path(path)
    if fast and not fast_reader_available():
        raise TraceError(
            "the columnar trace reader needs DuckDB and pyarrow; pip install 'ghbench[fast]'"
        )
    small = FAST_PATH_MIN_BYTES is None or size < FAST_PATH_MIN_BYTES
    try:
        if fast is None and (small or not fast_reader_available()):
            frame = read_exact(path, FrameRowCheck(columns), columns)
        elif fast is False:
            frame = read_exact(path, columns=columns)
        else:
            frame = read_fast(path, columns)
    except OSError as exc:
        raise TraceError(f"cannot read trace file {path}: {exc.strerror}; {_HINT}") from None
    if len(frame) == 0:
        raise _no_rows_error(path, frame.lines_read, frame.skipped_lines)
    return frame


def iter_rows(
    path: Path | str, warnings: list[ReadWarning] | None = None
) -> Iterator[tuple[int, TraceRow]]:
    """Yield (1-based line number, row) for every accepted row, in file order.

    Skipped lines are appended to ``warnings`` when given (all of them, uncapped).
    The path is checked before the first row; a file with no valid row raises
    TraceError when iteration ends.
    """
    path = Path(path)
    check_trace_path(path)
    return _iter_rows(path, warnings)


def _iter_rows(path: Path, warnings: list[ReadWarning] | None) -> Iterator[tuple[int, TraceRow]]:
    lines_read = skipped = 0
    try:
        for number, result in iter_checked(iter_lines(path)):
            lines_read += 1
            if isinstance(result, str):
                skipped += 1
                if warnings is not None:
                    warnings.append(ReadWarning(number, result))
            else:
                yield number, result
    except OSError as exc:
        raise TraceError(f"cannot read trace file {path}: {exc.strerror}; {_HINT}") from None
    if lines_read == skipped:
        raise _no_rows_error(path, lines_read, skipped)
