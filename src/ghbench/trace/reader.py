"""Reading AO's JSONL trace (``AO_GH_TRACE_FILE``) tolerantly.

``read_trace`` gives the columnar ``TraceFrame`` every analysis uses; ``iter_rows`` gives
full ``TraceRow`` objects (args and all) with the same tolerance. Blank lines are
ignored. A malformed or truncated line (a trace still being written ends mid-line),
a row whose known field has the wrong type, or a row without an ISO ``timestamp`` is
skipped and reported as a ``ReadWarning`` with its 1-based line number; unknown fields
are kept out of the way. A file that is missing, unreadable, empty or has no valid row
is a ``TraceError``.

Large clean traces go through a DuckDB columnar pass (``ghbench.trace.fast``); any line
that pass cannot vouch for is decided by the exact line reader (``ghbench.trace.exact``),
which is the definition of what is accepted.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ghbench.errors import TraceError
from ghbench.trace.exact import MAX_WARNINGS, iter_checked, iter_lines, read_exact
from ghbench.trace.frame import ReadWarning, TraceFrame
from ghbench.trace.schema import TraceRow

__all__ = ["FAST_PATH_MIN_BYTES", "MAX_WARNINGS", "ReadWarning", "iter_rows", "read_trace"]

# The DuckDB pass is exact but not yet faster enough to be the default (see
# docs/performance.md, "report"); until it is, read_trace uses it only when asked.
FAST_PATH_MIN_BYTES: int | None = None
_HINT = "pass --trace with the path of an AO_GH_TRACE_FILE trace"


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


def read_trace(path: Path | str, *, fast: bool | None = None) -> TraceFrame:
    """Read a trace into a ``TraceFrame``.

    ``fast=True`` uses the DuckDB columnar pass, ``False`` the exact line reader; both
    give the same frame (tests hold them to it). ``None`` picks the default.
    """
    path = Path(path)
    size = check_trace_path(path)
    if fast is None:
        fast = FAST_PATH_MIN_BYTES is not None and size >= FAST_PATH_MIN_BYTES
    use_fast = fast
    try:
        if use_fast:
            from ghbench.trace.fast import read_fast

            frame = read_fast(path)
        else:
            frame = read_exact(path)
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
