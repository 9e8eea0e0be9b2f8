"""The tolerant reader: bad inputs, warnings, and the fast pass agreeing with the exact one.

``read_trace`` type-checks only the fields the frame uses; ``iter_rows`` and
``read_trace(fast=False)`` check every known field (see the reader's module doc).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghbench.analysis.analyze import ANALYSIS_COLUMNS
from ghbench.analysis.summarize import SUMMARY_COLUMNS
from ghbench.errors import TraceError
from ghbench.scorecard import SCORECARD_COLUMNS
from ghbench.trace.exact import fields_for
from ghbench.trace.frame import COLUMNS, NA, TraceFrame, repo_of
from ghbench.trace.reader import iter_rows, read_trace
from ghbench.trace.schema import KNOWN_FIELDS, TraceRow

GOOD = b'{"timestamp":"2026-04-16T14:00:00.125Z","operation":"gh.pr.list","ok":true}'
GOOD2 = (
    b'{"timestamp":"2026-04-16T14:00:01Z","operation":"gh.api.guard-pr-list","httpStatus":304,'
    b'"endpoint":"repos/acme/todo/pulls?per_page=1","rateLimitRemaining":4999,"extra":{"a":1}}'
)
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _write(tmp_path: Path, data: bytes, name: str = "t.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _decoded(frame: TraceFrame) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for name in (
        "ts_ms",
        "ok",
        "exit_code",
        "http_status",
        "rate_limit_limit",
        "rate_limit_remaining",
        "rate_limit_reset",
        "graphql_cost",
        "graphql_remaining",
    ):
        out[name] = getattr(frame, name).tolist()
    out["duration_ms"] = [None if np.isnan(v) else v for v in frame.duration_ms.tolist()]
    for name in ("operation", "component", "resource", "session_id", "method", "endpoint"):
        cat = getattr(frame, name)
        out[name] = [cat.value(i) for i in range(len(frame))]
    out["repo"] = [frame.repo.value(i) for i in range(len(frame))]
    out["origin"] = [frame.origin.value(i) for i in range(len(frame))]
    # A line both truncated and wrong-typed may be blamed for either (the readers check
    # fields in a different order); test_bad_line_is_skipped_with_its_line_number pins
    # the reasons.
    out["meta"] = [frame.lines_read, frame.skipped_lines, [w.line for w in frame.warnings]]
    return out


def _read(
    path: Path, fast: bool | None, columns: tuple[str, ...] = COLUMNS
) -> dict[str, list[Any]] | str:
    try:
        return _decoded(read_trace(path, fast=fast, columns=columns))
    except TraceError as exc:
        return f"TraceError: {str(exc).replace(str(path), 'PATH')}"


def test_reads_rows_and_skips_blank_lines(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, GOOD + b"\n\n  \n" + GOOD2 + b"\n"))
    assert len(frame) == 2
    assert frame.lines_read == 2
    assert frame.skipped_lines == 0
    assert frame.ts_ms.tolist() == [1776348000125, 1776348001000]
    assert frame.repo.value(1) == "acme/todo"
    assert frame.http_status[1] == 304


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (b'{"timestamp":"2026-04-16T14:00:00Z","ok":tr', "truncated"),
        (b"not json at all", "truncated or corrupt"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","httpStatus":"200"}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","ok":"yes"}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","exitCode":1.5}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","args":["a",1]}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","args":["-R",null]}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","durationMs":"12"}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","ok":1}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","operation":12}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","graphqlCost":1e3}', "wrong type"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","httpStatus":99999999999999999999}', "range"),
        (b'{"operation":"gh.pr.list"}', "wrong type"),
        (b'{"timestamp":"yesterday"}', "ISO-8601"),
        (b'{"timestamp":12}', "wrong type"),
        (b'\xff\xfe{"timestamp":"2026-04-16T14:00:00Z"}', "truncated or corrupt"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","operation":"\xe9"}', "truncated or corrupt"),
        (b"[1, 2]", "wrong type"),
    ],
)
@pytest.mark.parametrize("fast", [False, True, None])
def test_bad_line_is_skipped_with_its_line_number(
    tmp_path: Path, bad: bytes, reason: str, fast: bool
) -> None:
    path = _write(tmp_path, GOOD + b"\n\n" + bad + b"\n" + GOOD2 + b"\n")
    frame = read_trace(path, fast=fast)
    assert len(frame) == 2
    assert frame.lines_read == 3
    assert frame.skipped_lines == 1
    assert [w.line for w in frame.warnings] == [3]
    assert reason in frame.warnings[0].message


@pytest.mark.parametrize("fast", [False, True])
def test_truncated_last_line_of_a_live_trace(tmp_path: Path, fast: bool) -> None:
    path = _write(tmp_path, (GOOD + b"\n") * 50 + GOOD2[:40])
    frame = read_trace(path, fast=fast)
    assert len(frame) == 50
    assert frame.skipped_lines == 1
    assert frame.warnings[0].line == 51


UNUSED_WRONG = [
    b'{"timestamp":"2026-04-16T14:00:00Z","cwd":7,"operation":"gh.pr.list"}',
    b'{"timestamp":"2026-04-16T14:00:00Z","stdoutBytes":"12","etag":1,"cacheHit":"yes"}',
    b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"repos/a/b/pulls","args":["-R",7]}',
    b'{"timestamp":"2026-04-16T14:00:00Z","cwd":"\xe9"}',  # not UTF-8, in an unused field
]


@pytest.mark.parametrize("fast", [True, None])
def test_frame_reader_keeps_rows_whose_unused_fields_are_wrong_typed(
    tmp_path: Path, fast: bool | None
) -> None:
    # The documented difference: such a field cannot change any figure, so read_trace
    # keeps the row, while iter_rows (full rows) and fast=False skip it.
    path = _write(tmp_path, b"\n".join([GOOD, *UNUSED_WRONG]) + b"\n")
    frame = read_trace(path, fast=fast)
    assert len(frame) == 5
    assert frame.skipped_lines == 0
    assert frame.operation.value(1) == "gh.pr.list"
    assert frame.repo.value(3) == "a/b"
    strict = read_trace(path, fast=False)
    assert len(strict) == 1
    assert [w.line for w in strict.warnings] == [2, 3, 4, 5]
    warnings: list[Any] = []
    assert [n for n, _ in iter_rows(path, warnings)] == [1]
    assert [w.line for w in warnings] == [2, 3, 4, 5]


@pytest.mark.parametrize("fast", [True, None])
def test_args_are_checked_where_repo_comes_from_them(tmp_path: Path, fast: bool | None) -> None:
    lines = [
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["pr","list","-R",7]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"graphql","args":{"repo":1}}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"repos//x","args":[1]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["pr","list","--repo","o/r"]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"graphql","args":["--repo=a/b"]}',
    ]
    frame = read_trace(_write(tmp_path, b"\n".join(lines)), fast=fast)
    assert [w.line for w in frame.warnings] == [1, 2, 3]
    assert all("$.args" in w.message for w in frame.warnings)
    assert [frame.repo.value(i) for i in range(len(frame))] == ["o/r", "a/b"]


def test_unknown_fields_are_tolerated(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, b'{"timestamp":"2026-04-16T14:00:00Z","new":[1,{}]}\n'))
    assert len(frame) == 1


def test_warnings_are_capped_but_skips_counted(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, b"garbage\n" * 250 + GOOD + b"\n"))
    assert frame.skipped_lines == 250
    assert len(frame.warnings) == 100
    assert frame.lines_read == 251


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.jsonl", "does not exist; pass --trace"),
        (lambda p: p, "is a directory"),
        (lambda p: _write(p, b""), "is empty"),
        (lambda p: _write(p, b"\n  \n"), "no rows"),
        (lambda p: _write(p, b"x\ny\n"), "all 2 non-blank lines were skipped"),
    ],
)
def test_unusable_files_raise_trace_error(tmp_path: Path, make: Any, message: str) -> None:
    path = make(tmp_path)
    with pytest.raises(TraceError, match=message) as info:
        read_trace(path)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read anything")
def test_unreadable_file_raises(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + b"\n")
    path.chmod(0)
    with pytest.raises(TraceError, match="cannot read"):
        read_trace(path)


def test_iter_rows_yields_full_rows_with_line_numbers(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + b"\nbad\n" + GOOD2 + b"\n")
    warnings: list[Any] = []
    rows = list(iter_rows(path, warnings))
    assert [n for n, _ in rows] == [1, 3]
    assert isinstance(rows[1][1], TraceRow)
    assert rows[1][1].endpoint == "repos/acme/todo/pulls?per_page=1"
    assert [w.line for w in warnings] == [2]
    with pytest.raises(TraceError):
        iter_rows(tmp_path / "nope.jsonl")


def test_exact_frame_equals_from_rows(tmp_path: Path) -> None:
    data = GOOD + b"\n" + GOOD2 + b"\n"
    rows = [msgspec.json.decode(line, type=TraceRow) for line in data.splitlines()]
    expected = TraceFrame.from_rows(rows)
    got = read_trace(_write(tmp_path, data), fast=False)
    assert _decoded(got) == _decoded(expected)
    assert got.operation.labels == expected.operation.labels
    assert got.operation.codes.tolist() == expected.operation.codes.tolist()


# --- fast pass == exact pass -------------------------------------------------------

_text = st.sampled_from(["gh.pr.list", "acme/todo", "", "é", 'q"uote', "null", "--repo"])
_ts = st.one_of(
    st.integers(0, 4_000_000_000_000).map(
        lambda ms: __import__("ghbench.timefmt", fromlist=["iso_ms"]).iso_ms(ms / 1000)
    ),
    st.sampled_from(
        ["2026-04-16T14:00:00Z", "2026-04-16T14:00:00+02:00", "2026-04-16 14:00:00", "x", ""]
    ),
)
_args = st.lists(
    st.one_of(_text, st.sampled_from(["-R", "--repo", "--repo=o/r", "api", "repos/a/b/x"])),
    max_size=6,
)
_value = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**64), 2**64), st.floats(allow_nan=False), _text
)
_row = st.fixed_dictionaries(
    {"timestamp": _ts},
    optional={
        "operation": st.one_of(_text, _value),
        "component": _text,
        "endpoint": st.one_of(
            st.sampled_from(["repos/acme/todo/pulls", "/repos/a/b", "graphql", "repos//x"]),
            _value,
        ),
        "method": _text,
        "args": st.one_of(_args, _value),
        "ok": _value,
        "httpStatus": st.one_of(st.sampled_from([200, 304, 502]), _value),
        "exitCode": st.integers(0, 3),
        "durationMs": st.one_of(st.floats(0, 1e6), st.integers(0, 10**6)),
        "rateLimitRemaining": st.integers(0, 5000),
        "rateLimitResource": st.sampled_from(["core", "graphql"]),
        "graphqlCost": _value,
        "sessionId": _value,
        "origin": _text,
        "cwd": _value,
        "stdoutBytes": _value,
        "cacheHit": _value,
        "unknown": _value,
    },
)


def _frame_fields_only(row: dict[str, Any], columns: tuple[str, ...] = COLUMNS) -> dict[str, Any]:
    """The row as the frame reader sees it when it builds ``columns``: known fields
    those columns ignore dropped, and ``args`` dropped where the endpoint gives the repo."""
    unused = set(KNOWN_FIELDS) - set(fields_for(columns))
    endpoint = row.get("endpoint")
    if isinstance(endpoint, str) and repo_of(endpoint, None) is not None:
        unused.add("args")
    return {k: v for k, v in row.items() if k not in unused}


_TRUNCATE = 3
# (line as written, the same line with only what the frame reader checks)
_line = st.one_of(
    _row.map(lambda r: (msgspec.json.encode(r), msgspec.json.encode(_frame_fields_only(r)))),
    _row.map(
        lambda r: (
            msgspec.json.encode(r)[:-_TRUNCATE],
            msgspec.json.encode(_frame_fields_only(r))[:-_TRUNCATE],
        )
    ),
    st.sampled_from([b"", b"  ", b"garbage", b"[]", b"{}", b"\xff"]).map(lambda b: (b, b)),
)


@SETTINGS
@given(lines=st.lists(_line, min_size=1, max_size=12), newline_at_end=st.booleans())
@pytest.mark.slow
def test_fast_and_exact_agree(
    tmp_path: Path, lines: list[tuple[bytes, bytes]], newline_at_end: bool
) -> None:
    # read_trace's frame == the full-row reader's frame on the rows stripped of what
    # read_trace does not check; the DuckDB pass and the small-file path agree with it.
    end = b"\n" if newline_at_end else b""
    path = _write(tmp_path, b"\n".join(a for a, _ in lines) + end, "prop.jsonl")
    stripped = _write(tmp_path, b"\n".join(b for _, b in lines) + end, "stripped.jsonl")
    fast = _read(path, True)
    assert fast == _read(path, None)
    assert fast == _read(stripped, False)


_PROJECTIONS = {
    "report": SCORECARD_COLUMNS,
    "summarize": SUMMARY_COLUMNS,
    "analyze": ANALYSIS_COLUMNS,
    "repo-only": ("ts_ms", "repo"),
}


@pytest.mark.slow
@SETTINGS
@given(
    rows=st.lists(_row, min_size=1, max_size=10),
    projection=st.sampled_from(sorted(_PROJECTIONS)),
)
def test_projected_reads_agree(tmp_path: Path, rows: list[dict[str, Any]], projection: str) -> None:
    # A projection checks only its columns' fields: the DuckDB pass and the line reader
    # agree, and both equal the full-row reader on rows stripped of every other field.
    columns = _PROJECTIONS[projection]
    path = _write(tmp_path, b"\n".join(msgspec.json.encode(r) for r in rows), "proj.jsonl")
    stripped = _write(
        tmp_path,
        b"\n".join(msgspec.json.encode(_frame_fields_only(r, columns)) for r in rows),
        "proj-stripped.jsonl",
    )
    fast = _read(path, True, columns)
    assert fast == _read(path, None, columns)
    assert fast == _read(stripped, False, columns)


@pytest.mark.slow
@SETTINGS
@given(lines=st.lists(_line, min_size=1, max_size=12))
def test_fast_and_exact_agree_where_all_fields_are_well_typed(
    tmp_path: Path, lines: list[tuple[bytes, bytes]]
) -> None:
    # Files whose every line is as the frame reader sees it: all readers agree.
    path = _write(tmp_path, b"\n".join(b for _, b in lines), "clean.jsonl")
    assert _read(path, True) == _read(path, False) == _read(path, None)


@pytest.mark.slow
@SETTINGS
@given(data=st.binary(max_size=400))
def test_reader_never_crashes_on_arbitrary_bytes(tmp_path: Path, data: bytes) -> None:
    path = _write(tmp_path, data, "bytes.jsonl")
    for fast in (False, True, None):
        try:
            frame = read_trace(path, fast=fast)
        except TraceError as exc:
            assert "no valid rows" in str(exc) or "empty" in str(exc) or "no rows" in str(exc)
        else:
            assert len(frame) >= 1
            assert frame.lines_read == len(frame) + frame.skipped_lines


@pytest.mark.parametrize("fast", [True, None, False])
def test_integers_beyond_int32_keep_their_value(tmp_path: Path, fast: bool | None) -> None:
    # The DuckDB pass ships int32 columns; wider values go through the line reader.
    big = (
        b'{"timestamp":"2026-04-16T14:00:00Z","rateLimitReset":4102444800,'
        b'"graphqlCost":-1099511627776}'
    )
    edge = b'{"timestamp":"2026-04-16T14:00:00Z","httpStatus":-2147483648,"exitCode":2147483647}'
    frame = read_trace(_write(tmp_path, b"\n".join([GOOD, big, edge, GOOD])), fast=fast)
    assert len(frame) == 4
    assert frame.rate_limit_reset.tolist()[1] == 4102444800
    assert frame.graphql_cost.tolist()[1] == -(2**40)
    assert frame.http_status.tolist()[2] == -(2**31)
    assert frame.exit_code.tolist()[2] == 2**31 - 1
    assert frame.exit_code.tolist()[3] == frame.http_status.tolist()[0] == NA


def test_without_duckdb_and_pyarrow_a_big_trace_is_read_by_the_line_reader(
    tmp_path: Path,
) -> None:
    # a row whose unused field is wrong-typed: kept by the frame rules, skipped by iter_rows'
    odd = b'{"timestamp":"2026-04-16T14:00:02Z","operation":"gh.pr.view","cwd":7}'
    path = _write(tmp_path, b"\n".join([GOOD, GOOD2, odd, b"{broken"]) + b"\n")
    # a child where the two cannot be imported, as on an install without ghbench[fast];
    # every trace counts as big there, so the fast path would be taken if it could
    code = (
        "import sys, json\n"
        "sys.modules['duckdb'] = None\nsys.modules['pyarrow'] = None\n"
        "from ghbench.errors import TraceError\n"
        "from ghbench.trace import reader\n"
        "reader.FAST_PATH_MIN_BYTES = 1\n"
        "f = reader.read_trace(sys.argv[1])\n"
        "try:\n    reader.read_trace(sys.argv[1], fast=True)\n    refused = ''\n"
        "except TraceError as exc:\n    refused = str(exc)\n"
        "print(json.dumps([reader.fast_reader_available(), len(f), f.skipped_lines, refused]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    available, rows, skipped, refused = json.loads(proc.stdout)
    assert available is False
    frame = read_trace(path, fast=True)  # this process has them: the columnar pass
    assert (rows, skipped) == (len(frame), frame.skipped_lines) == (3, 1)
    assert "pip install 'ghbench[fast]'" in refused
