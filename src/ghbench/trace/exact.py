"""The exact, line-by-line trace reader: the definition of which lines are accepted.

``RowCheck`` (full rows, ``iter_rows``): a non-blank line is accepted when it decodes as
a ``TraceRow`` (msgspec, strict types), its ``timestamp`` parses as ISO-8601 and its
integers fit the frame's int64 columns. Everything else is skipped with a ``ReadWarning``.

``FrameRowCheck`` (the ``TraceFrame`` path, ``read_trace``): the same, but only the
fields of the frame columns being built are type-checked; ``args`` only where ``repo``
is derived from it (no ``repos/{o}/{r}`` endpoint). A wrong-typed field those columns
ignore cannot change any figure computed from them, so the row is kept. The DuckDB pass
(``ghbench.trace.fast``) must agree with ``FrameRowCheck`` on every file and every
projection; tests hold it to that.

What no writer produces is skipped by both, never a crash: a line longer than
``MAX_LINE_BYTES`` (read without being held whole), a timestamp or ``rateLimitReset``
outside years 1 to 9999, an integer beyond 64 bits. A value nested too deeply for the
decoder to follow is looked at through a shallow stand-in of its kind (``_shallow``):
no known field nests, so the verdict is the one its kind gets (an unknown field's
content never matters, as it does not to DuckDB).
"""

from __future__ import annotations

import array
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect
import msgspec.structs
import numpy as np

from ghbench.timefmt import parse_iso
from ghbench.trace.frame import (
    CATEGORICAL_COLUMNS,
    COLUMNS,
    NA,
    NUMERIC_COLUMNS,
    Categorical,
    ReadWarning,
    TraceFrame,
    missing_numbers,
    repo_of,
)
from ghbench.trace.schema import TraceRow

__all__ = [
    "COLUMN_FIELDS",
    "FRAME_FIELDS",
    "INT_COLUMNS",
    "MAX_LINE_BYTES",
    "MAX_WARNINGS",
    "TEXT_COLUMNS",
    "FrameBuilder",
    "FrameRowCheck",
    "LongLine",
    "RowCheck",
    "fields_for",
    "iter_checked",
    "read_exact",
]

MAX_WARNINGS = 100
MAX_LINE_BYTES = 16 << 20  # longer lines are skipped (the DuckDB pass reads no longer)
# rateLimitReset is epoch seconds: the datetimes of years 1 to 9999 (UTC)
_RESET_RANGE = (-62_135_596_800, 253_402_300_799)
_ROW_INFO: Any = msgspec.inspect.type_info(TraceRow)
INT_FIELDS: tuple[str, ...] = tuple(
    f.name
    for f in _ROW_INFO.fields
    if any(isinstance(t, msgspec.inspect.IntType) for t in getattr(f.type, "types", (f.type,)))
)
_INT64_MAX = 2**63 - 1
_READ_BLOCK = 1 << 20


class LongLine(bytes):
    """A line longer than MAX_LINE_BYTES: its first bytes and its ``length``."""

    length: int

    def __new__(cls, head: bytes, length: int) -> LongLine:
        line = super().__new__(cls, head)
        line.length = length
        return line

    @property
    def reason(self) -> str:
        return (
            f"line is {self.length:,} bytes, longer than a trace row may be"
            f" ({MAX_LINE_BYTES >> 20} MiB)"
        )


def blank(line: bytes) -> bool:
    """A line of nothing but whitespace (what JSON readers skip)."""
    return not isinstance(line, LongLine) and not line.strip()


_KEEP_DEPTH = 2  # the row object, and a list in it (args): no known field nests deeper
_OPEN, _CLOSE, _QUOTE, _ESCAPE = b"[{", b"]}", 0x22, 0x5C


def _shallow(line: bytes) -> bytes:
    """``line`` with every array or object nested deeper than _KEEP_DEPTH replaced by
    ``[0]`` or ``{}``; strings and malformed input are copied as they are, so the
    decoder still reports them. Iterative: any depth."""
    out = bytearray()
    depth = 0
    skipping = in_string = False
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        step = 2 if in_string and c == _ESCAPE else 1
        if in_string:
            in_string = c != _QUOTE
        elif c == _QUOTE:
            in_string = True
        elif c in _OPEN:
            depth += 1
            if depth == _KEEP_DEPTH + 1 and not skipping:
                out += b"[0]" if c == _OPEN[0] else b"{}"
                skipping = True
        elif c in _CLOSE:
            depth -= 1
            if skipping and depth == _KEEP_DEPTH:
                skipping = False
                i += 1
                continue
        if not skipping:
            out += line[i : i + step]
        i += step
    return bytes(out)


def _decode(decoder: msgspec.json.Decoder[Any], line: bytes) -> Any:
    try:
        return decoder.decode(line)
    except RecursionError:
        return decoder.decode(_shallow(line))


Check = Callable[[bytes], "TraceRow | str"]


def _validate(row: Any, int_fields: Iterable[str]) -> str | None:
    """The reason a decoded row is skipped (timestamp, int64 range, a reset that is no
    time), or None."""
    try:
        parse_iso(row.timestamp)
    except ValueError:
        return f"timestamp {row.timestamp[:40]!r} is not an ISO-8601 time in years 1 to 9999"
    for name in int_fields:
        v = getattr(row, name)
        if v is not None and not (-_INT64_MAX <= v <= _INT64_MAX):
            return f"wrong type: {name} {str(v)[:40]} is out of the 64-bit integer range"
    reset = getattr(row, "rateLimitReset", None) if "rateLimitReset" in int_fields else None
    if reset is not None and not (_RESET_RANGE[0] <= reset <= _RESET_RANGE[1]):
        return f"rateLimitReset {str(reset)[:40]} is not a time in years 1 to 9999"
    return None


class RowCheck:
    """Decodes and validates one line; returns the row or the reason it is skipped."""

    def __init__(self) -> None:
        self._decoder = msgspec.json.Decoder(TraceRow)

    def __call__(self, line: bytes) -> TraceRow | str:
        if isinstance(line, LongLine):
            return line.reason
        try:
            row = _decode(self._decoder, line)
        except msgspec.ValidationError as exc:
            return f"wrong type: {exc}"
        except msgspec.DecodeError as exc:
            return f"not a JSON object line ({exc}); truncated or corrupt"
        return _validate(row, INT_FIELDS) or row


# The trace fields each frame column is built from (``repo``: the endpoint, else args).
COLUMN_FIELDS: dict[str, tuple[str, ...]] = {
    "ts_ms": ("timestamp",),
    "duration_ms": ("durationMs",),
    "ok": ("ok",),
    "exit_code": ("exitCode",),
    "http_status": ("httpStatus",),
    "rate_limit_limit": ("rateLimitLimit",),
    "rate_limit_remaining": ("rateLimitRemaining",),
    "rate_limit_reset": ("rateLimitReset",),
    "graphql_cost": ("graphqlCost",),
    "graphql_remaining": ("graphqlRemaining",),
    "operation": ("operation",),
    "component": ("component",),
    "resource": ("rateLimitResource",),
    "session_id": ("sessionId",),
    "method": ("method",),
    "endpoint": ("endpoint",),
    "repo": ("endpoint", "args"),
    "origin": ("origin",),
}
assert set(COLUMN_FIELDS) == set(COLUMNS)
FRAME_FIELDS: tuple[str, ...] = tuple(
    f for f in TraceRow.__struct_fields__ if any(f in fs for fs in COLUMN_FIELDS.values())
)
_FIELD_TYPES: dict[str, Any] = {
    f.name: f.type for f in msgspec.structs.fields(TraceRow) if f.name in FRAME_FIELDS
}
_FRAME_INT_FIELDS = tuple(f for f in INT_FIELDS if f in FRAME_FIELDS)
# (column, field) of the integer columns and of the string columns read as they are
# (``repo`` is derived, so it is in neither)
INT_COLUMNS: tuple[tuple[str, str], ...] = tuple(
    (col, fields[0]) for col, fields in COLUMN_FIELDS.items() if fields[0] in _FRAME_INT_FIELDS
)
TEXT_COLUMNS: tuple[tuple[str, str], ...] = tuple(
    (col, fields[0])
    for col, fields in COLUMN_FIELDS.items()
    if col in CATEGORICAL_COLUMNS and col != "repo"
)
_ARGS_TYPE = list[str] | None


def fields_for(columns: Collection[str]) -> tuple[str, ...]:
    """The trace fields ``columns`` are built from, in schema order (timestamp always)."""
    unknown = set(columns) - set(COLUMNS)
    if unknown:
        raise ValueError(f"unknown trace frame column(s): {', '.join(sorted(unknown))}")
    wanted = {"timestamp"}.union(*(COLUMN_FIELDS[c] for c in columns))
    return tuple(f for f in FRAME_FIELDS if f in wanted)


@lru_cache(maxsize=16)
def _fields_struct(fields: tuple[str, ...]) -> Any:
    """A msgspec Struct of ``fields`` (``args`` left undecoded: it is checked on demand)."""

    def spec(name: str) -> tuple[str, Any] | tuple[str, Any, Any]:
        if name == "timestamp":
            return (name, str)  # required
        if name == "args":
            return (name, msgspec.Raw, msgspec.Raw(b"null"))
        return (name, _FIELD_TYPES[name], None)

    return msgspec.defstruct("FrameFields", [spec(f) for f in fields], kw_only=True)


class FrameRowCheck:
    """Like ``RowCheck``, but type-checks only the fields ``columns`` are built from
    (see module doc; default: every frame column).

    An accepted row comes back as a ``TraceRow`` holding only those fields (``args``
    only when ``repo`` needs it).
    """

    def __init__(self, columns: Collection[str] = COLUMNS) -> None:
        self.columns = frozenset(columns)
        self._fields = fields_for(self.columns)
        self._ints = tuple(f for f in _FRAME_INT_FIELDS if f in self._fields)
        self._repo = "repo" in self.columns
        self._decoder = msgspec.json.Decoder(_fields_struct(self._fields))

    def __call__(self, line: bytes) -> TraceRow | str:
        if isinstance(line, LongLine):
            return line.reason
        try:
            row = _decode(self._decoder, line)
        except msgspec.ValidationError as exc:
            return f"wrong type: {exc}"
        except msgspec.DecodeError as exc:
            return f"not a JSON object line ({exc}); truncated or corrupt"
        reason = _validate(row, self._ints)
        if reason is not None:
            return reason
        values = {f: getattr(row, f) for f in self._fields if f != "args"}
        if self._repo and repo_of(row.endpoint, None) is None:
            try:
                values["args"] = msgspec.json.decode(row.args, type=_ARGS_TYPE)
            except msgspec.ValidationError as exc:
                # worded as RowCheck words it: the path is relative to the row
                where = str(exc)
                where = (
                    where.replace("`$", "`$.args", 1) if "`$" in where else f"{where} - at `$.args`"
                )
                return f"wrong type: {where}"
        return TraceRow(**values)


def iter_lines(path: Path, start_line: int = 1, offset: int = 0) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, bytes) of every line, read in blocks from ``offset``; a
    line longer than MAX_LINE_BYTES comes as a ``LongLine``, never held whole."""
    number = start_line
    tail: list[bytes] = []  # the line being read, while it is short enough to keep
    length = 0  # its length so far
    with open(path, "rb") as fh:
        fh.seek(offset)
        while block := fh.read(_READ_BLOCK):
            parts = block.split(b"\n")
            last = parts.pop()
            for part in parts:
                length += len(part)
                if length <= MAX_LINE_BYTES:
                    yield number, b"".join((*tail, part)) if tail else part
                else:
                    yield number, LongLine((b"".join(tail) + part)[:64], length)
                number += 1
                tail, length = [], 0
            length += len(last)
            tail = [*tail, last] if length <= MAX_LINE_BYTES else tail[:1]
    if length:
        yield number, b"".join(tail) if length <= MAX_LINE_BYTES else LongLine(b"", length)


def iter_checked(
    lines: Iterable[tuple[int, bytes]], check: Check | None = None
) -> Iterator[tuple[int, TraceRow | str]]:
    """(line number, row or skip reason) for every non-blank line (``RowCheck`` default)."""
    check = check or RowCheck()
    for number, line in lines:
        if not blank(line):
            yield number, check(line)


class _Codes:
    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.codes = array.array("i")

    def add(self, value: str | None) -> None:
        if value is None:
            self.codes.append(-1)
        else:
            self.codes.append(self.index.setdefault(value, len(self.index)))

    def build(self) -> Categorical:
        return Categorical(np.frombuffer(self.codes, dtype=np.int32).copy(), tuple(self.index))


class FrameBuilder:
    """Accumulates accepted rows into compact columns; ``build`` gives the TraceFrame.

    Equivalent to ``TraceFrame.from_rows`` on the same rows, without keeping the rows.
    """

    def __init__(self, columns: Collection[str] = COLUMNS) -> None:
        self.columns = frozenset(columns) | {"ts_ms"}
        self.ts_ms = array.array("q")
        self.duration_ms = array.array("d")
        self.ok = array.array("b")
        self.ints = {col: array.array("q") for col, _ in INT_COLUMNS}
        self.cats = {col: _Codes() for col, _ in TEXT_COLUMNS}
        self.repo = _Codes()
        self._last_ts: tuple[str, int] = ("", 0)

    def add(self, row: TraceRow) -> None:
        if row.timestamp != self._last_ts[0]:
            self._last_ts = (row.timestamp, round(parse_iso(row.timestamp) * 1000))
        self.ts_ms.append(self._last_ts[1])
        self.duration_ms.append(np.nan if row.durationMs is None else float(row.durationMs))
        self.ok.append(-1 if row.ok is None else int(row.ok))
        for col, name in INT_COLUMNS:
            v = getattr(row, name)
            self.ints[col].append(NA if v is None else v)
        for col, name in TEXT_COLUMNS:
            self.cats[col].add(getattr(row, name))
        self.repo.add(repo_of(row.endpoint, row.args))

    def __len__(self) -> int:
        return len(self.ts_ms)

    def build(
        self, *, lines_read: int, skipped_lines: int, warnings: Iterable[ReadWarning]
    ) -> TraceFrame:
        def arr(a: array.array[int] | array.array[float], dtype: type) -> Any:
            return np.frombuffer(a, dtype=dtype).copy() if len(a) else np.empty(0, dtype)

        n = len(self.ts_ms)
        built: dict[str, Any] = {
            "ts_ms": arr(self.ts_ms, np.int64),
            "duration_ms": arr(self.duration_ms, np.float64),
            "ok": arr(self.ok, np.int8),
            **{col: arr(a, np.int64) for col, a in self.ints.items()},
            **{col: codes.build() for col, codes in self.cats.items()},
            "repo": self.repo.build(),
        }
        for col in COLUMNS:
            if col not in self.columns:
                built[col] = (
                    missing_numbers(col, n) if col in NUMERIC_COLUMNS else Categorical.missing(n)
                )
        return TraceFrame(
            **built,
            lines_read=lines_read,
            skipped_lines=skipped_lines,
            warnings=tuple(warnings),
            columns=frozenset(self.columns),
        )


def read_exact(
    path: Path, check: Check | None = None, columns: Collection[str] = COLUMNS
) -> TraceFrame:
    """The whole file through the line reader (``read_trace`` validates ``path`` first).

    ``check`` decides each line: ``RowCheck`` (the default) or ``FrameRowCheck``; the
    frame holds ``columns``.
    """
    builder = FrameBuilder(columns)
    warnings: list[ReadWarning] = []
    lines_read = skipped = 0
    for number, result in iter_checked(iter_lines(path), check):
        lines_read += 1
        if isinstance(result, str):
            skipped += 1
            if len(warnings) < MAX_WARNINGS:
                warnings.append(ReadWarning(number, result))
        else:
            builder.add(result)
    return builder.build(lines_read=lines_read, skipped_lines=skipped, warnings=warnings)
