"""Reading AO's JSONL trace (``AO_GH_TRACE_FILE``): the one reader every consumer calls.

    read_trace(path, columns=COLUMNS, *, empty_ok=False) -> TraceFrame
    read_rows(path, *, empty_ok=False) -> list[TraceRow]

``read_trace`` builds the frame columns a computation uses (``columns``: a projection;
only their fields are type-checked); ``read_rows`` gives whole rows, every known field
checked. Which lines are rows is decided by ``ghbench.trace.rules``, in one DuckDB scan
of the file; a skipped line becomes a ``ReadWarning`` with its line number (the first
``MAX_WARNINGS``; ``skipped_lines`` counts them all). A last line cut short (no newline
at its end, and no complete row: a trace still being written, or whose writer stopped)
is skipped and says so.

One notion of an empty trace: no row at all, whether the file has no byte, only blank
lines, or only skipped lines. That is a ``TraceError`` saying which, unless the caller
passes ``empty_ok=True`` (a measurement whose window saw no call), which gives an empty
frame or list, its warnings kept. A path that is missing, a directory or unreadable is
a ``TraceError`` either way. Pipes and FIFOs are read once, as they stream.

Strings are dictionary-encoded inside DuckDB: the labels of the first rows are
registered as ENUM types before the scan, which then yields small integer codes; a
label seen only later comes back as text on its row and is added in Python. No string
becomes a Python object per row, so memory stays near the frame's own size.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import os
import resource
import threading
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
import numpy.typing as npt

from ghbench.errors import TraceError
from ghbench.trace.frame import (
    CATEGORICAL_COLUMNS,
    COLUMNS,
    NUMERIC_COLUMNS,
    Categorical,
    ReadWarning,
    TraceFrame,
    missing_numbers,
)
from ghbench.trace.rules import Selection, quote
from ghbench.trace.schema import KNOWN_FIELDS, TraceRow
from ghbench.trace.source import MAX_LINE_BYTES, TraceInput, line_numbers, open_trace

if TYPE_CHECKING:
    import duckdb

__all__ = ["MAX_WARNINGS", "ReadWarning", "read_rows", "read_trace"]

MAX_WARNINGS = 100
_M_ARENA_MAX = -8  # mallopt's parameter number (glibc malloc.h)
# A trace of SAMPLE_MIN_BYTES or more has the labels of its first SAMPLE_ROWS rows
# registered before the scan, which codes them; any other label comes back as text.
SAMPLE_MIN_BYTES = 4 << 20
SAMPLE_ROWS = 20_000
_READS = itertools.count()  # names the ENUM types of each read
_ONE_READ_AT_A_TIME = threading.Lock()  # a DuckDB connection serves one thread at a time
_UNKNOWN = "LABELS"  # a row's note: labels its scan could not code (see rules.Selection)
CUT_SHORT = (
    "the last line is cut short (no newline at its end, no complete row): a trace still"
    " being written or whose writer stopped; it is not counted"
)


@functools.cache
def _database() -> duckdb.DuckDBPyConnection:
    """The process's one in-memory DuckDB connection; one read uses it at a time."""
    config: dict[str, str | bool | int | float | list[str]] = {
        "threads": max(1, os.cpu_count() or 1),
        "autoinstall_known_extensions": False,
    }
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit != resource.RLIM_INFINITY:
        # Under an address-space limit (ulimit -v) DuckDB's threads would each take a
        # glibc malloc arena, 64 MiB of addresses apiece: 650 MiB before a byte is read
        _cap_malloc_arenas()
        config["memory_limit"] = f"{max(limit // 4, 64 << 20) >> 20}MiB"
    # DuckDB takes ~90 ms to import: a path the reader refuses never pays it
    import duckdb  # noqa: PLC0415

    database = duckdb.connect(config=config)
    database.execute("SET TimeZone = 'UTC'")  # a time without an offset is UTC
    database.execute("SET enable_progress_bar = false")  # it would draw on a terminal
    return database


@contextlib.contextmanager
def _cursor(source: TraceInput) -> Iterator[duckdb.DuckDBPyConnection]:
    """The connection, for one read; DuckDB's failures become the trace's TraceError."""
    import duckdb  # noqa: PLC0415 - imported by _database already: see there

    with _ONE_READ_AT_A_TIME:
        try:
            yield _database()
        except duckdb.Error as exc:
            raise TraceError(f"cannot read {source.describe()}: {exc}") from None


def _cap_malloc_arenas() -> None:
    """At most two glibc malloc arenas from now on (``M_ARENA_MAX``); nothing elsewhere."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: no such arenas
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 2)


def read_trace(
    path: Path | str, columns: Collection[str] = COLUMNS, *, empty_ok: bool = False
) -> TraceFrame:
    """The ``columns`` of the trace at ``path`` (the others are missing-value
    placeholders); TraceError when it cannot be read, or has no row unless ``empty_ok``."""
    selection = Selection.of(columns)
    with open_trace(path) as source:
        frame = _read_frame(source, selection) if source.size else _empty(selection)
        if len(frame) == 0 and not empty_ok:
            raise _no_rows(source, frame.lines_read, frame.warnings)
    return frame


def read_rows(path: Path | str, *, empty_ok: bool = False) -> list[TraceRow]:
    """Every row of the trace at ``path``, whole and in file order, each known field
    type-checked (for the few consumers that read fields the frame does not hold)."""
    selection = Selection.whole_rows()
    rows: list[TraceRow] = []
    reasons: list[tuple[int, str]] = []
    with open_trace(path) as source:
        found: list[tuple[Any, ...]] = []
        if source.size:
            with _cursor(source) as cursor:
                query = selection.rows_query(str(source.path), MAX_LINE_BYTES)
                found = cursor.execute(query).fetchall()
        for ordinal, (*texts, note) in enumerate(found):
            if note is not None:
                reasons.append((ordinal, note))
                continue
            values = {
                f: msgspec.json.decode(t)
                for f, t in zip(KNOWN_FIELDS, texts, strict=True)
                if t is not None
            }
            rows.append(msgspec.convert(values, TraceRow))
        if not rows and not empty_ok:
            lines = len(found) + len(source.long_lines)
            raise _no_rows(source, lines, _warnings(source, reasons, len(found)))
    return rows


def _empty(selection: Selection) -> TraceFrame:
    return _assemble(selection, {}, {}, 0, lines_read=0, warnings=())


def _read_frame(source: TraceInput, selection: Selection) -> TraceFrame:
    with _cursor(source) as cursor:
        path = str(source.path)
        labels: dict[str, list[str]] = {c: [] for c in selection.categories}
        enums: dict[str, str] = {}
        if selection.categories and source.size >= SAMPLE_MIN_BYTES:
            enums = _register_labels(cursor, selection, path, labels)
        try:
            result = cursor.execute(selection.query(path, MAX_LINE_BYTES, enums)).fetchnumpy()
        finally:
            for name in enums.values():
                cursor.execute(f"DROP TYPE {name}")
    note = result.pop("note")
    rows = len(note)
    noted = np.flatnonzero(~np.ma.getmaskarray(note))
    reasons: list[tuple[int, str]] = []
    late: dict[int, str] = {}
    for ordinal, text in zip(noted.tolist(), np.ma.getdata(note)[noted].tolist(), strict=True):
        if text.startswith(_UNKNOWN):
            late[ordinal] = text[len(_UNKNOWN) :]
        else:
            reasons.append((ordinal, text))
    del note
    codes = {c: np.asarray(result.pop(f"code_{c}"), dtype=np.int32) for c in selection.categories}
    _add_late_labels(selection.categories, codes, labels, late)
    keep = _kept(rows, [o for o, _ in reasons])
    # a row skipped for its timestamp has none: its masked entry is dropped here
    kept_numbers = {c: np.asarray(a)[keep] for c, a in result.items()}
    kept_codes = {c: a[keep] for c, a in codes.items()}
    del codes, result
    return _assemble(
        selection,
        kept_numbers,
        {c: _categorical(kept_codes[c], labels[c]) for c in selection.categories},
        len(reasons) + len(source.long_lines),
        lines_read=rows + len(source.long_lines),
        warnings=_warnings(source, reasons, rows),
    )


def _register_labels(
    cursor: duckdb.DuckDBPyConnection, selection: Selection, path: str, labels: dict[str, list[str]]
) -> dict[str, str]:
    """Put each categorical column's labels (JSON texts) in the first rows in ``labels``
    and register them as an ENUM type; return the types' names by column."""
    found = cursor.execute(selection.labels(path, MAX_LINE_BYTES, SAMPLE_ROWS)).fetchone()
    read = next(_READS)
    enums: dict[str, str] = {}
    for column, values in zip(selection.categories, found or (), strict=False):
        labels[column] = sorted(v for v in values or () if v is not None)
        # an ENUM needs a member: one no row holds (a label is a JSON text)
        members = ", ".join(quote(v) for v in labels[column]) or quote("none")
        enums[column] = f"labels_{read}_{column}"
        cursor.execute(f"CREATE TYPE {enums[column]} AS ENUM ({members})")
    return enums


def _add_late_labels(
    columns: tuple[str, ...],
    codes: dict[str, npt.NDArray[np.int32]],
    labels: dict[str, list[str]],
    late: dict[int, str],
) -> None:
    """Code the rows whose label was not registered: appended to the column's labels
    (``late``: each row's JSON array of label texts, null where the label was known)."""
    index = {c: {v: i for i, v in enumerate(labels[c])} for c in columns}
    for ordinal, text in late.items():
        for column, value in zip(columns, msgspec.json.decode(text), strict=True):
            if value is not None:
                known = index[column]
                if value not in known:
                    known[value] = len(known)
                    labels[column].append(value)
                codes[column][ordinal] = known[value]


def _kept(rows: int, skipped: list[int]) -> slice | npt.NDArray[np.bool_]:
    """The rows kept: a slice when the skipped ones are all at the end (a trace still
    being written), which costs no copy; else a mask."""
    if not skipped or skipped[0] == rows - len(skipped):
        return slice(0, rows - len(skipped))
    keep = np.ones(rows, dtype=np.bool_)
    keep[skipped] = False
    return keep


def _categorical(codes: npt.NDArray[np.int32], texts: list[str]) -> Categorical:
    """The codes over the strings some row uses (``texts``: their JSON texts), sorted."""
    used = np.bincount(codes + 1, minlength=len(texts) + 1)[1:] > 0
    strings = [
        msgspec.json.decode(t, type=str) if u else "" for t, u in zip(texts, used, strict=True)
    ]
    kept = sorted({s for s, u in zip(strings, used, strict=True) if u})
    position = {label: i for i, label in enumerate(kept)}
    lookup = np.array(
        [position[s] if u else -1 for s, u in zip(strings, used, strict=True)] + [-1],
        dtype=np.int32,
    )
    return Categorical(lookup[codes], tuple(kept))


def _assemble(
    selection: Selection,
    numbers: dict[str, npt.NDArray[Any]],
    categories: dict[str, Categorical],
    skipped: int,
    *,
    lines_read: int,
    warnings: tuple[ReadWarning, ...],
) -> TraceFrame:
    n = len(numbers["ts_ms"]) if "ts_ms" in numbers else 0
    built: dict[str, Any] = {}
    for column in COLUMNS:
        if column in numbers:
            dtype, _ = NUMERIC_COLUMNS[column]
            built[column] = np.ascontiguousarray(numbers[column], dtype=dtype)
        elif column in categories:
            built[column] = categories[column]
        elif column in CATEGORICAL_COLUMNS:
            built[column] = Categorical.missing(n)
        else:
            built[column] = missing_numbers(column, n)
    return TraceFrame(
        **built,
        lines_read=lines_read,
        skipped_lines=skipped,
        warnings=warnings,
        columns=selection.columns,
    )


def _warnings(
    source: TraceInput, reasons: list[tuple[int, str]], rows: int
) -> tuple[ReadWarning, ...]:
    """The first MAX_WARNINGS skipped lines, by line number."""
    shown = reasons[:MAX_WARNINGS]
    numbers = line_numbers(source.path, [o for o, _ in shown], rows)
    found = [
        ReadWarning(number, CUT_SHORT if source.cut_short and ordinal == rows - 1 else reason)
        for number, (ordinal, reason) in zip(numbers, shown, strict=True)
    ]
    found += [
        ReadWarning(
            number,
            f"line is {length:,} bytes, longer than a trace row may be"
            f" ({MAX_LINE_BYTES >> 20} MiB)",
        )
        for number, length in source.long_lines.items()
    ]
    return tuple(sorted(found, key=lambda w: w.line)[:MAX_WARNINGS])


def _no_rows(source: TraceInput, lines: int, warnings: Collection[ReadWarning]) -> TraceError:
    """Why a trace holds no row, as one line."""
    what = source.describe()
    if source.size == 0:
        if source.streamed:
            return TraceError(f"{what} gave no data; did the command feeding it fail?")
        return TraceError(f"{what} is empty (0 bytes); has the traced process run yet?")
    if lines == 0:
        return TraceError(f"{what} has no rows, only blank lines")
    first = next(iter(warnings), None)
    example = f" (line {first.line}: {first.message})" if first else ""
    return TraceError(
        f"{what} has no valid rows: all {lines:,} non-blank lines were skipped{example};"
        " is it an AO_GH_TRACE_FILE JSONL trace?"
    )
