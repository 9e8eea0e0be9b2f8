"""The columnar trace pass: DuckDB parses the JSONL file in parallel, in one scan.

It decides what ``FrameRowCheck`` decides (``ghbench.trace.exact``): only the fields of
the frame columns asked for are type-checked, ``args`` only where ``repo`` comes from it.

DuckDB's typed JSON reads are lenient (``"12"`` is read as 12, ``1.5`` as 2, ``"yes"``
as true), so every field is read as its JSON text and judged by its shape:

- numbers, ``ok`` and the timestamp are converted and checked in SQL, row by row; a
  value that is not what msgspec would accept (a float or out-of-int32 integer in an
  integer field, a timestamp not in AO's ``2026-04-16T14:17:02.123Z`` shape, ...)
  makes the row *suspect*;
- strings (and ``args``, only on rows whose endpoint is not ``repos/{o}/{r}/…``) leave
  DuckDB as their JSON text in Arrow batches, are dictionary-encoded batch by batch
  (Arrow, C++), and each distinct text is decoded once by msgspec; a row whose text is
  not a JSON string (or, for ``args``, a list of strings) is suspect.

No string ever becomes a Python object per row. A suspect row is decided, with its line
number, by the exact reader. DuckDB yields one row per non-blank line (a malformed line
gives a row of NULLs, hence suspect), in file order, so suspect row ``i`` is the
``i``-th non-blank line.

Known differences from ``FrameRowCheck``, on input no writer produces: DuckDB keeps the
first of two duplicate keys where msgspec keeps the last.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from ghbench.trace.exact import (
    INT_COLUMNS,
    MAX_LINE_BYTES,
    MAX_WARNINGS,
    TEXT_COLUMNS,
    FrameBuilder,
    FrameRowCheck,
    blank,
    fields_for,
    iter_lines,
    read_exact,
)
from ghbench.trace.frame import (
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

__all__ = ["read_fast"]

# An endpoint whose JSON text alone shows that repo_of takes the repo from it; rows
# without one take it from args (an escaped endpoint is settled in Python, per label).
_REPO_ENDPOINT = r'^"/*repos/[^/?"\\]+/[^/?"\\]'
# DuckDB sizes its read buffers from this; 1 GiB made the scan 2x slower and 400 MiB
# bigger. It is no exact limit (a line up to about twice as long still parses), so a
# file with a line longer than MAX_LINE_BYTES is read by the exact reader, which skips
# that line (``_has_long_line``).
_MAX_OBJECT_BYTES = MAX_LINE_BYTES
# Rows per Arrow batch: big enough to amortise the per-batch Python work, small enough
# that DuckDB's in-flight batches stay a few MiB.
_BATCH_ROWS = 1 << 17

_I32_NA = -(2**31)
# AO's shapes only (toISOString, or whole seconds); fromisoformat accepts more, and the
# exact reader decides those. Hours 00-23 and seconds 00-59 as fromisoformat requires.
_TS_SHAPE = r"\d{4}-\d\d-\d\dT([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d\d\d)?Z"


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _int_value(col: str) -> str:
    return f"TRY_CAST({col}::VARCHAR AS INTEGER)"


def _int_ok(col: str) -> str:
    # TRY_CAST alone reads 1.5 as 2 and 1e3 as 1000: the text must be exactly the
    # integer's own text (a regexp costs twice as much; ``-0`` stays suspect and the
    # exact reader decides it). Values outside int32 (and int32 min, the missing
    # marker) are suspect too, so the batches carry int32 columns; the exact reader
    # puts them back as int64.
    value = _int_value(col)
    return f"({col} IS NULL OR ({value}::VARCHAR = {col}::VARCHAR AND {value} > {_I32_NA}))"


@dataclass(frozen=True)
class _Plan:
    """What one scan reads and builds, from the frame columns asked for."""

    columns: frozenset[str]
    fields: tuple[str, ...]  # trace fields DuckDB extracts
    ints: tuple[tuple[str, str], ...]  # (column, field)
    texts: tuple[tuple[str, str], ...]  # (column or "endpoint", field) read as JSON text

    @classmethod
    def of(cls, columns: Collection[str]) -> _Plan:
        wanted = frozenset(columns) | {"ts_ms"}
        # repo is derived from the endpoint text even when endpoint itself is not wanted
        texts = tuple(
            (col, name)
            for col, name in TEXT_COLUMNS
            if col in wanted or (col == "endpoint" and "repo" in wanted)
        )
        return cls(
            columns=wanted,
            fields=fields_for(wanted),
            ints=tuple((col, name) for col, name in INT_COLUMNS if col in wanted),
            texts=texts,
        )

    @property
    def numeric(self) -> tuple[str, ...]:
        plain = tuple(c for c in ("ts_ms", "duration_ms", "ok") if c in self.columns)
        return (*plain, *(col for col, _ in self.ints), "suspect")

    @property
    def text_columns(self) -> tuple[str, ...]:
        return (*(col for col, _ in self.texts), *(("args",) if "repo" in self.columns else ()))


def _source(path: Path, fields: tuple[str, ...]) -> str:
    types = {f: "VARCHAR" if f == "timestamp" else "JSON" for f in fields}
    columns = "{" + ", ".join(f"{k}: '{v}'" for k, v in types.items()) + "}"
    return (
        f"read_json({_sql_str(str(path))}, format = 'newline_delimited', ignore_errors = true,"
        f" columns = {columns}, maximum_object_size = {_MAX_OBJECT_BYTES})"
    )


_ARGS_NEEDED = f"NOT coalesce(regexp_matches(endpoint, {_sql_str(_REPO_ENDPOINT)}), false)"


def _query(path: Path, plan: _Plan) -> str:
    checks = [
        f"regexp_full_match(timestamp, {_sql_str(_TS_SHAPE)})",
        # year 0 is valid for DuckDB (1 BC), not for fromisoformat
        "NOT starts_with(timestamp, '0000')",
        "ts_ms IS NOT NULL",
    ]
    cols = ["coalesce(ts_ms, 0) AS ts_ms"]
    if "duration_ms" in plan.columns:
        checks.append("(durationMs IS NULL OR isfinite(TRY_CAST(durationMs::VARCHAR AS DOUBLE)))")
        cols.append(
            "coalesce(TRY_CAST(durationMs::VARCHAR AS DOUBLE), 'NaN'::DOUBLE) AS duration_ms"
        )
    if "ok" in plan.columns:
        checks.append("(ok IS NULL OR ok IN ('true', 'false'))")
        cols.append("(CASE ok WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE -1 END)::TINYINT AS ok")
    checks.extend(_int_ok(name) for _, name in plan.ints)
    cols.extend(f"coalesce({_int_value(name)}, {_I32_NA}) AS {col}" for col, name in plan.ints)
    cols.extend(f"{name}::VARCHAR AS {col}" for col, name in plan.texts)
    if "repo" in plan.columns:
        cols.append(f"(CASE WHEN {_ARGS_NEEDED} THEN args::VARCHAR END) AS args")
    cols.append(f"NOT coalesce({' AND '.join(checks)}, false) AS suspect")
    ts_ms = "epoch_ms(TRY_CAST(timestamp AS TIMESTAMP))"
    source = _source(path, plan.fields)
    return f"SELECT {', '.join(cols)} FROM (SELECT *, {ts_ms} AS ts_ms FROM {source})"


class _Fallback(Exception):
    """The columnar pass cannot vouch for this file; use the exact reader."""


@dataclass
class _TextColumn:
    """One JSON-text column: per-row codes into ``texts`` (-1 = missing), batch by batch."""

    texts: dict[str, int] = field(default_factory=dict)
    parts: list[npt.NDArray[np.int32]] = field(default_factory=list)

    def add(self, column: Any) -> None:
        # pyarrow and DuckDB take ~0.5 s to import (docs/performance.md); only a trace
        # big enough for the fast reader pays it
        import pyarrow.compute as pc  # noqa: PLC0415

        encoded = pc.dictionary_encode(column)
        distinct = encoded.dictionary.to_pylist()
        index = self.texts
        remap = np.fromiter(
            (index.setdefault(t, len(index)) for t in distinct), np.int32, len(distinct)
        )
        remap = np.append(remap, np.int32(-1))
        rows = pc.fill_null(encoded.indices, len(distinct)).to_numpy()
        self.parts.append(remap[rows])

    def codes(self) -> npt.NDArray[np.int32]:
        codes = np.concatenate(self.parts) if self.parts else np.empty(0, np.int32)
        self.parts.clear()
        return codes

    def decoded(self, decode: Any) -> tuple[list[Any], npt.NDArray[np.bool_]]:
        """Each distinct text decoded, and which of them ``decode`` rejected (None)."""
        values = [decode(t) for t in self.texts]
        return values, np.array([v is None for v in values] + [False], dtype=np.bool_)


def _as_str(text: str) -> str | None:
    try:  # typed: a nested value fails at once, however deep
        return msgspec.json.decode(text, type=str)
    except msgspec.DecodeError:
        return None


def _as_args_repo(text: str) -> tuple[str | None] | None:
    """``(repo or None,)`` from an args JSON text; None when it is not a list of strings."""
    try:
        args = msgspec.json.decode(text, type=list[str] | None)
    except msgspec.DecodeError:
        return None
    return (repo_of(None, args),)


@dataclass
class _Scan:
    numeric: dict[str, list[npt.NDArray[Any]]]
    texts: dict[str, _TextColumn]


def _scan(path: Path, plan: _Plan) -> _Scan:
    import duckdb  # noqa: PLC0415 - see _TextColumn.add: only big traces pay for it

    scan = _Scan(
        {name: [] for name in plan.numeric}, {name: _TextColumn() for name in plan.text_columns}
    )
    con = duckdb.connect(config={"threads": max(1, os.cpu_count() or 1)})
    try:
        # no progress bar: it would draw on the CLI's stderr during a long scan
        con.execute("SET enable_progress_bar = false")
        for batch in con.sql(_query(path, plan)).to_arrow_reader(_BATCH_ROWS):
            for name, parts in scan.numeric.items():
                # a copy: a view would keep the whole batch (strings and all) alive
                parts.append(np.array(batch.column(name).to_numpy(False)))
            for name, column in scan.texts.items():
                column.add(batch.column(name))
    except (duckdb.Error, OSError) as exc:  # OSError: DuckDB's errors through pyarrow
        raise _Fallback(str(exc)) from None
    finally:
        con.close()
    return scan


def _read_by_lines(path: Path, columns: Collection[str]) -> TraceFrame:
    return read_exact(path, FrameRowCheck(columns), columns)


def _encode(values: list[str | None], index: npt.NDArray[np.int32]) -> Categorical:
    """A Categorical over the values some row uses, labels in sorted order."""
    used = np.bincount(index + 1, minlength=len(values) + 1)[1:] > 0
    labels = sorted({v for v, u in zip(values, used, strict=True) if u and v is not None})
    position = {label: i for i, label in enumerate(labels)}
    lookup = [position.get(v, -1) if v is not None else -1 for v in values] + [-1]
    return Categorical(np.array(lookup, dtype=np.int32)[index], tuple(labels))


def _joined(parts: list[npt.NDArray[Any]], dtype: Any) -> npt.NDArray[Any]:
    out = np.concatenate(parts).astype(dtype, copy=False) if parts else np.empty(0, dtype)
    parts.clear()
    return out


def _widen(a: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """An int32 column (missing = int32 min) as the frame's int64 (missing = NA)."""
    wide = a.astype(np.int64)
    wide[a == _I32_NA] = NA
    return wide


def _has_long_line(path: Path) -> bool:
    """Whether a line is longer than MAX_LINE_BYTES (True when it cannot be told).

    From each newline, the next must come within MAX_LINE_BYTES: searching each such
    window backwards finds one within a row's length, so a file costs a few searches
    per MAX_LINE_BYTES, not a pass over its lines."""
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            size, last = len(mm), -1  # the last newline seen
            while size - last - 1 > MAX_LINE_BYTES:
                last = mm.rfind(b"\n", last + 1, last + 2 + MAX_LINE_BYTES)
                if last < 0:
                    return True
            return False
    except (OSError, ValueError):
        return True


def read_fast(path: Path, columns: Collection[str] = COLUMNS) -> TraceFrame:
    """Read ``columns`` of ``path`` through DuckDB; lines it cannot vouch for go to the
    exact reader. Unread columns are missing-value placeholders."""
    plan = _Plan.of(columns)
    if _has_long_line(path):
        return _read_by_lines(path, plan.columns)
    try:
        scan = _scan(path, plan)
    except _Fallback:
        return _read_by_lines(path, plan.columns)
    suspect = _joined(scan.numeric.pop("suspect"), np.bool_)
    n = len(suspect)
    built: dict[str, Any] = {}
    endpoint_values: list[str | None] = []
    endpoint_codes = np.empty(0, np.int32)
    for col, _ in plan.texts:
        values, bad = scan.texts[col].decoded(_as_str)
        codes = scan.texts[col].codes()
        # a string field holding a number, an object... (JSON text that is not a string)
        suspect |= bad[codes]
        if col in plan.columns:
            built[col] = _encode(values, codes)
        if col == "endpoint":
            endpoint_values, endpoint_codes = values, codes
        del codes
    if "repo" in plan.columns:
        built["repo"] = _repo(scan.texts["args"], endpoint_values, endpoint_codes, suspect)
    del endpoint_codes
    dtypes = {"ts_ms": np.int64, "duration_ms": np.float64, "ok": np.int8}
    for col, parts in scan.numeric.items():
        joined = _joined(parts, dtypes.get(col, np.int32))
        built[col] = joined if col in dtypes else _widen(joined)
        del joined
    for col in COLUMNS:
        if col not in plan.columns:
            built[col] = (
                missing_numbers(col, n) if col in NUMERIC_COLUMNS else Categorical.missing(n)
            )
    frame = TraceFrame(**built, lines_read=n, columns=plan.columns)
    bad_rows = np.flatnonzero(suspect)
    if len(bad_rows) == 0:
        return frame
    return _resolve_suspects(path, frame, bad_rows)


def _repo(
    args: _TextColumn,
    endpoint_values: list[str | None],
    endpoint_codes: npt.NDArray[np.int32],
    suspect: npt.NDArray[np.bool_],
) -> Categorical:
    """``repo`` per row: from the endpoint, else from ``--repo``/``-R`` in args.

    Marks ``suspect`` the rows that need args and hold args that are not a list of
    strings (``FrameRowCheck`` checks args only there).
    """
    endpoint_repo = [None if v is None else repo_of(v, None) for v in endpoint_values]
    by_endpoint = np.array(
        [-1 if r is None else i for i, r in enumerate(endpoint_repo)] + [-1], dtype=np.int32
    )
    from_endpoint = by_endpoint[endpoint_codes]
    parsed, args_bad = args.decoded(_as_args_repo)
    args_codes = args.codes()
    needs_args = from_endpoint < 0
    suspect |= needs_args & args_bad[args_codes]
    args_repo = [None if p is None else p[0] for p in parsed]
    by_args = np.array(
        [-1 if r is None else len(endpoint_repo) + i for i, r in enumerate(args_repo)] + [-1],
        dtype=np.int32,
    )
    repo_index = np.where(needs_args, by_args[args_codes], from_endpoint).astype(np.int32)
    return _encode(endpoint_repo + args_repo, repo_index)


def _nonblank_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    for number, line in iter_lines(path):
        if not blank(line):
            yield number, line


_TAIL_BYTES = 1 << 20


def _tail_lines(path: Path, count: int) -> list[tuple[int, bytes]] | None:
    """The last ``count`` non-blank lines with their numbers, if they fit in the last
    megabyte; None otherwise. Line numbers come from a newline count of the rest."""
    if count > 64:
        return None
    size = path.stat().st_size
    start = max(0, size - _TAIL_BYTES)
    with open(path, "rb") as fh:
        fh.seek(start)
        block = fh.read()
        if start > 0:
            cut = block.find(b"\n")
            if cut < 0:
                return None
            start += cut + 1
            block = block[cut + 1 :]
        fh.seek(0)
        before = 0
        remaining = start
        while remaining > 0:
            chunk = fh.read(min(remaining, 8 << 20))
            if not chunk:
                break
            before += chunk.count(b"\n")
            remaining -= len(chunk)
    lines = [(before + i + 1, line) for i, line in enumerate(block.split(b"\n"))]
    nonblank = [(n, line) for n, line in lines if not blank(line)]
    if len(nonblank) < count:
        return None
    return nonblank[len(nonblank) - count :]


def _resolve_suspects(path: Path, frame: TraceFrame, bad_rows: npt.NDArray[np.intp]) -> TraceFrame:
    """Let the exact reader decide the suspect rows and splice its verdicts in."""
    check = FrameRowCheck(frame.columns)
    verdicts: dict[int, tuple[int, TraceRow | str]] = {}
    tail = _tail_lines(path, len(frame) - int(bad_rows[0]))
    if tail is not None:
        # Only the last rows are suspect (a trace still being written): no full scan.
        first = len(frame) - len(tail)
        for ordinal, (number, line) in enumerate(tail, start=first):
            verdicts[ordinal] = (number, check(line))
    else:
        wanted = set(bad_rows.tolist())
        seen = 0
        for ordinal, (number, line) in enumerate(_nonblank_lines(path)):
            seen = ordinal + 1
            if ordinal in wanted:
                verdicts[ordinal] = (number, check(line))
        if seen != len(frame):
            # DuckDB and the line splitter disagree about the lines: use the exact path.
            return _read_by_lines(path, frame.columns)
    accepted = [o for o in bad_rows.tolist() if not isinstance(verdicts[o][1], str)]
    keep = np.ones(len(frame), dtype=np.bool_)
    keep[bad_rows] = False
    # Rebuild from the clean rows plus the suspect rows the exact reader accepted.
    builder = FrameBuilder(frame.columns)
    for o in accepted:
        row = verdicts[o][1]
        assert not isinstance(row, str)
        builder.add(row)
    warnings = [
        ReadWarning(number, result)
        for number, result in (verdicts[o] for o in bad_rows.tolist())
        if isinstance(result, str)
    ]
    skipped = len(warnings)
    rescued = builder.build(lines_read=0, skipped_lines=0, warnings=())
    return _splice(frame, keep, rescued, np.array(accepted, dtype=np.intp), skipped, warnings)


def _splice(  # noqa: PLR0917
    frame: TraceFrame,
    keep: npt.NDArray[np.bool_],
    rescued: TraceFrame,
    rescued_at: npt.NDArray[np.intp],
    skipped: int,
    warnings: list[ReadWarning],
) -> TraceFrame:
    """``frame`` rows where ``keep``, with ``rescued`` rows put back at ``rescued_at``."""
    order = np.concatenate([np.flatnonzero(keep), rescued_at])
    position = np.argsort(order, kind="stable")

    def merge_num(a: Any, b: Any) -> Any:
        return np.concatenate([a[keep], b])[position]

    def merge_cat(a: Categorical, b: Categorical) -> Categorical:
        labels = sorted(set(a.labels) | set(b.labels))
        remap_a = np.array([labels.index(x) for x in a.labels] + [-1], dtype=np.int32)
        remap_b = np.array([labels.index(x) for x in b.labels] + [-1], dtype=np.int32)
        codes = np.concatenate([remap_a[a.codes[keep]], remap_b[b.codes]])[position]
        used = np.unique(codes[codes >= 0])
        final = np.full(len(labels) + 1, -1, dtype=np.int32)
        final[used] = np.arange(len(used), dtype=np.int32)
        return Categorical(final[codes], tuple(labels[i] for i in used))

    n = len(position)
    merged: dict[str, Any] = {}
    for name in COLUMNS:
        a, b = getattr(frame, name), getattr(rescued, name)
        if name not in frame.columns:
            merged[name] = (
                missing_numbers(name, n) if name in NUMERIC_COLUMNS else Categorical.missing(n)
            )
        elif isinstance(a, Categorical):
            merged[name] = merge_cat(a, b)
        else:
            merged[name] = merge_num(a, b)
    return TraceFrame(
        **merged,
        lines_read=frame.lines_read,
        skipped_lines=skipped,
        warnings=tuple(sorted(warnings, key=lambda w: w.line)[:MAX_WARNINGS]),
        columns=frame.columns,
    )
