"""The columnar trace pass: DuckDB reads the JSONL file in parallel into numeric arrays.

It decides what ``FrameRowCheck`` decides (``ghbench.trace.exact``): only the fields a
``TraceFrame`` uses are type-checked, ``args`` only where ``repo`` comes from it.

Two scans. The first reads those fields as raw JSON text, checks each one's JSON type in
SQL (so DuckDB's lenient casts, ``"12"`` read as 12, ``1.5`` as 2 or ``"yes"`` as true,
cannot slip through), computes the numeric columns and hashes the string columns. The
second lists the distinct string values, which Python decodes (and type-checks) once
each; the row hashes are then mapped to dictionary codes with numpy. No string column
ever becomes a Python object per row. ``repo`` comes from the endpoint label (decoded
once per distinct endpoint); the ``--repo``/``-R`` regexp over ``args`` runs in SQL only
on rows whose endpoint is not ``repos/{o}/{r}/…``.

A row the first scan cannot vouch for (malformed line, wrong type, a timestamp not in
AO's ``2026-04-16T14:17:02.123Z`` shape, ...) is marked suspect, and the exact reader
decides it by line number. DuckDB yields one row per non-blank line, in file order, so
suspect row ``i`` is the ``i``-th non-blank line.

Known differences from ``FrameRowCheck``, on input no writer produces: DuckDB keeps the
first of two duplicate keys where msgspec keeps the last.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from ghbench.trace.exact import (
    FRAME_FIELDS,
    INT_FIELDS,
    MAX_WARNINGS,
    FrameBuilder,
    FrameRowCheck,
    blank,
    iter_lines,
    read_exact,
)
from ghbench.trace.frame import NA, Categorical, ReadWarning, TraceFrame, repo_of
from ghbench.trace.schema import TraceRow

__all__ = ["read_fast"]

_FRAME_INTS = (
    ("exit_code", "exitCode"),
    ("http_status", "httpStatus"),
    ("rate_limit_limit", "rateLimitLimit"),
    ("rate_limit_remaining", "rateLimitRemaining"),
    ("rate_limit_reset", "rateLimitReset"),
    ("graphql_cost", "graphqlCost"),
    ("graphql_remaining", "graphqlRemaining"),
)
_FRAME_CATS = (
    ("operation", "operation"),
    ("component", "component"),
    ("resource", "rateLimitResource"),
    ("session_id", "sessionId"),
    ("method", "method"),
    ("endpoint", "endpoint"),
    ("origin", "origin"),
)
assert {name for _, name in _FRAME_INTS} == {f for f in INT_FIELDS if f in FRAME_FIELDS}
# The first --repo/-R pair or --repo=value element of a compact JSON array of strings.
_REPO_ARG = r'(?:\[|,)"(?:(?:--repo|-R)","(?:[^"\\]|\\.)*"|--repo=(?:[^"\\]|\\.)*")'
# An endpoint whose JSON text alone shows that repo_of takes the repo from it; rows
# without one take it from args (an escaped endpoint is settled by the exact reader).
_REPO_ENDPOINT = r'^"/*repos/[^/?"\\]+/[^/?"\\]'
# DuckDB sizes its read buffers from this; 1 GiB made the scan 2x slower and 400 MiB
# bigger. Longer lines still parse (the buffer grows); a failure falls back to exact.
_MAX_OBJECT_BYTES = 16 << 20


def _null(col: str) -> str:
    return f"({col} IS NULL OR {col} = 'null')"


def _int_ok(col: str) -> str:
    # A JSON integer is exactly the text its value prints as (``-0``, ``1e3``, ``1.0``
    # or ``"12"`` are not: they stay suspect and the exact reader decides them). Values
    # outside int32 are suspect too, so the result can ship int32 columns (half the
    # memory); the exact reader puts them back as int64.
    v = _int_cast(col)
    return (
        f"({_null(col)} OR ({v}::VARCHAR = {col}::VARCHAR"
        f" AND {v} BETWEEN {-_I32_MAX} AND {_I32_MAX}))"
    )


def _int_cast(col: str) -> str:
    # via VARCHAR: a third faster than casting the JSON value itself
    return f"TRY_CAST({col}::VARCHAR AS BIGINT)"


def _int_val(col: str) -> str:
    v = _int_cast(col)
    inside = f"CASE WHEN {v} BETWEEN {-_I32_MAX} AND {_I32_MAX} THEN {v} END"
    return f"coalesce({inside}, {_I32_NA})::INTEGER"


_I32_MAX = 2**31 - 1
_I32_NA = -(2**31)


def _widen(a: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """An int32 result column (missing = int32 min) as the frame's int64 (missing = NA)."""
    wide = a.astype(np.int64)
    wide[a == _I32_NA] = NA
    return wide


def _hash(expr: str, salt: int) -> str:
    # 32-bit codes halve the result's memory; a collision between two distinct values
    # is detected on the label list and the file is scanned again with another salt.
    return (
        f"(CASE WHEN {_null(expr)} THEN 0 ELSE hash({expr}, {salt}) % 4294967291 + 1 END)::UINTEGER"
    )


_TS_SHAPE = (
    "(timestamp[5] = '-' AND timestamp[8] = '-' AND timestamp[11] = 'T' AND timestamp[14] = ':'"
    " AND timestamp[17] = ':' AND timestamp[1:4] <> '0000' AND timestamp[12:13] < '24'"
    " AND timestamp[18:19] < '60' AND ((len(timestamp) = 24 AND timestamp[20] = '.'"
    " AND timestamp[24] = 'Z') OR (len(timestamp) = 20 AND timestamp[20] = 'Z')))"
)
_TS_MS = (
    "CASE WHEN len(timestamp) = 24 THEN epoch_ms(TRY_CAST(timestamp[1:23] AS TIMESTAMP))"
    " ELSE epoch_ms(TRY_CAST(timestamp[1:19] AS TIMESTAMP)) END"
)


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _columns() -> str:
    types = {f: "VARCHAR" if f == "timestamp" else "JSON" for f in FRAME_FIELDS}
    return "{" + ", ".join(f"{k}: '{v}'" for k, v in types.items()) + "}"


def _source(path: Path) -> str:
    return (
        f"read_json({_sql_str(str(path))}, format = 'newline_delimited', ignore_errors = true,"
        f" columns = {_columns()}, maximum_object_size = {_MAX_OBJECT_BYTES})"
    )


_ARGS_NEEDED = f"NOT coalesce(regexp_matches(endpoint, {_sql_str(_REPO_ENDPOINT)}), false)"
_REPO_MATCH = f"(CASE WHEN {_ARGS_NEEDED} THEN regexp_extract(args, {_sql_str(_REPO_ARG)}) END)"
_ARGS_OK = (
    f"(NOT {_ARGS_NEEDED} OR {_null('args')} OR args = '[]' OR"
    " (json_structure(args) = '[\"VARCHAR\"]'"
    " AND NOT contains(args, ',null') AND NOT starts_with(args, '[null')))"
)


def _row_query(path: Path, salt: int) -> str:
    checks = [
        f"({_TS_SHAPE} AND ts_ms IS NOT NULL)",
        "(ok IS NULL OR ok IN ('true', 'false', 'null'))",
        f"({_null('durationMs')} OR (json_type(durationMs) IN ('BIGINT', 'UBIGINT', 'DOUBLE')"
        " AND isfinite(TRY_CAST(durationMs AS DOUBLE))))",
        _ARGS_OK,
        *(_int_ok(name) for _, name in _FRAME_INTS),
    ]
    cols = [
        "coalesce(ts_ms, 0) AS ts_ms",
        "coalesce(TRY_CAST(durationMs AS DOUBLE), 'NaN'::DOUBLE) AS duration_ms",
        "(CASE ok WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE -1 END)::TINYINT AS ok",
        *(f"{_int_val(name)} AS {col}" for col, name in _FRAME_INTS),
        *(f"{_hash(name, salt)} AS {col}" for col, name in _FRAME_CATS),
        f"{_hash(_REPO_MATCH, salt)} AS repo_arg",
        f"NOT coalesce({' AND '.join(checks)}, false) AS suspect",
    ]
    return f"SELECT {', '.join(cols)} FROM (SELECT *, {_TS_MS} AS ts_ms FROM {_source(path)})"


def _label_query(path: Path, salt: int) -> str:
    pairs = [(col, name) for col, name in _FRAME_CATS] + [("repo_arg", _REPO_MATCH)]
    lists = [
        f"list(DISTINCT {{'h': {_hash(expr, salt)}, 'v': {expr}}}) AS {col}" for col, expr in pairs
    ]
    return f"SELECT {', '.join(lists)} FROM {_source(path)}"


class _Fallback(Exception):
    """The columnar pass cannot vouch for this file; use the exact reader."""


class _Collision(Exception):
    """Two distinct values of one column share a hash; scan again with another salt."""


_SALTS = (0, 1)


def _decode_label(raw: str) -> str | None:
    """A JSON text from DuckDB to its string; None when it is not a JSON string."""
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    return value if isinstance(value, str) else None


def _repo_from_match(raw: str) -> str | None:
    """The repo in a ``,"--repo","x"`` / ``,"--repo=x"`` match (see _REPO_ARG)."""
    try:
        parts = msgspec.json.decode("[" + raw[1:] + "]", type=list[str])
    except msgspec.DecodeError:
        return None
    return repo_of(None, parts)


class _Dictionary:
    """Maps a column of 32-bit value hashes to codes into ``values``."""

    def __init__(self, pairs: list[dict[str, Any]], decode: Any) -> None:
        kept = [p for p in pairs if p["h"] != 0]
        hashes = np.array([p["h"] for p in kept], dtype=np.uint32)
        if len(np.unique(hashes)) != len(hashes):
            raise _Collision
        order = np.argsort(hashes)
        self.hashes = hashes[order]
        values = [decode(p["v"]) for p in kept]
        self.values: list[str | None] = [values[i] for i in order]
        self.bad = np.array([v is None for v in self.values], dtype=np.bool_)

    def locate(self, h: npt.NDArray[np.uint32]) -> npt.NDArray[np.int32]:
        """Index into ``values`` per row; -1 where the value is missing."""
        idx = np.searchsorted(self.hashes, h).astype(np.int32)
        np.minimum(idx, max(len(self.hashes) - 1, 0), out=idx)
        present = h != 0
        if present.any() and not np.array_equal(self.hashes[idx[present]], h[present]):
            raise _Fallback("a row value is missing from the label list")
        idx[~present] = -1
        return idx


def _encode(values: list[str | None], index: npt.NDArray[np.int32]) -> Categorical:
    """A Categorical over the values some row uses, labels in sorted order."""
    used = np.bincount(index + 1, minlength=len(values) + 1)[1:] > 0
    labels = sorted({v for v, u in zip(values, used, strict=True) if u and v is not None})
    position = {label: i for i, label in enumerate(labels)}
    lookup = [position.get(v, -1) if v is not None else -1 for v in values] + [-1]
    return Categorical(np.array(lookup, dtype=np.int32)[index], tuple(labels))


def _scan(path: Path, salt: int) -> tuple[dict[str, Any], dict[str, _Dictionary]]:
    import duckdb

    con = duckdb.connect(config={"threads": max(1, os.cpu_count() or 1)})
    try:
        # no progress bar: it would draw on the CLI's stderr during a long scan
        con.execute("SET enable_progress_bar = false")
        # labels first: a hash collision is found before the big result is fetched
        pairs = con.execute(_label_query(path, salt)).fetchone()
        assert pairs is not None
        names = [col for col, _ in _FRAME_CATS] + ["repo_arg"]
        dicts = {
            col: _Dictionary(
                pairs[i] or [], _repo_from_match if col == "repo_arg" else _decode_label
            )
            for i, col in enumerate(names)
        }
        del pairs
        columns = con.execute(_row_query(path, salt)).fetchnumpy()
    except duckdb.Error as exc:
        raise _Fallback(str(exc)) from None
    finally:
        con.close()
    return {k: np.asarray(v) for k, v in columns.items()}, dicts


def _read_by_lines(path: Path) -> TraceFrame:
    return read_exact(path, FrameRowCheck())


def read_fast(path: Path) -> TraceFrame:
    """Read ``path`` through DuckDB; lines it cannot vouch for go to the exact reader."""
    for salt in _SALTS:
        try:
            columns, dicts = _scan(path, salt)
            break
        except _Collision:
            continue
        except _Fallback:
            return _read_by_lines(path)
    else:
        return _read_by_lines(path)
    n = len(columns["ts_ms"])
    suspect = columns.pop("suspect").astype(np.bool_)
    # One string column at a time, dropping its hashes as soon as it has codes: the
    # peak stays near the final frame's size.
    index = {col: dicts[col].locate(columns.pop(col)) for col in ("endpoint", "repo_arg")}
    endpoint_repo = [repo_of(v, None) for v in dicts["endpoint"].values]
    by_endpoint = np.array(
        [-1 if r is None else i for i, r in enumerate(endpoint_repo)] + [-1], dtype=np.int32
    )
    from_endpoint = by_endpoint[index["endpoint"]]
    from_args = index.pop("repo_arg")
    repo_index = np.where(
        from_endpoint >= 0,
        from_endpoint,
        np.where(from_args >= 0, from_args + len(endpoint_repo), -1),
    ).astype(np.int32)
    del from_endpoint, from_args
    repo = _encode(endpoint_repo + dicts["repo_arg"].values, repo_index)
    del repo_index
    cats: dict[str, Any] = {}
    for col, _ in _FRAME_CATS:
        d = dicts[col]
        idx = index.pop(col) if col in index else d.locate(columns.pop(col))
        # a string column whose value is not a JSON string (a number, an object...)
        if d.bad.any():
            suspect |= (idx >= 0) & d.bad[np.maximum(idx, 0)]
        cats[col] = _encode(d.values, idx)
        del idx
    ints: dict[str, Any] = {col: _widen(columns.pop(col)) for col, _ in _FRAME_INTS}
    frame = TraceFrame(
        ts_ms=columns["ts_ms"].astype(np.int64, copy=False),
        duration_ms=columns["duration_ms"].astype(np.float64, copy=False),
        ok=columns["ok"].astype(np.int8, copy=False),
        **ints,
        **cats,
        repo=repo,
        lines_read=n,
    )
    bad_rows = np.flatnonzero(suspect)
    if len(bad_rows) == 0:
        return frame
    return _resolve_suspects(path, frame, bad_rows)


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
    check = FrameRowCheck()
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
            return _read_by_lines(path)
    accepted = [o for o in bad_rows.tolist() if not isinstance(verdicts[o][1], str)]
    keep = np.ones(len(frame), dtype=np.bool_)
    keep[bad_rows] = False
    # Rebuild from the clean rows plus the suspect rows the exact reader accepted.
    builder = FrameBuilder()
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

    numeric: dict[str, Any] = {
        name: merge_num(getattr(frame, name), getattr(rescued, name))
        for name in ("ts_ms", "duration_ms", "ok", *(c for c, _ in _FRAME_INTS))
    }
    cats: dict[str, Any] = {
        name: merge_cat(getattr(frame, name), getattr(rescued, name))
        for name in (*(c for c, _ in _FRAME_CATS), "repo")
    }
    return TraceFrame(
        **numeric,
        **cats,
        lines_read=frame.lines_read,
        skipped_lines=skipped,
        warnings=tuple(sorted(warnings, key=lambda w: w.line)[:MAX_WARNINGS]),
    )
