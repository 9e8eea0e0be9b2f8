"""Which lines are rows, field by field, held to the rules' own statement.

``rules``' module doc says what a row is; ``expected`` below says it again in plain
Python (json, re, datetime) and the property tests hold the reader to it on random
lines, for every projection and for whole rows.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ghbench.analysis.analyze import ANALYSIS_COLUMNS
from ghbench.analysis.summarize import SUMMARY_COLUMNS
from ghbench.errors import TraceError
from ghbench.scorecard import SCORECARD_COLUMNS
from ghbench.trace.frame import COLUMNS, NA, TraceFrame, is_rate_limit, repo_of
from ghbench.trace.reader import read_rows, read_trace
from ghbench.trace.rules import FIELD_KINDS, Kind, fields_for
from ghbench.trace.schema import KNOWN_FIELDS

SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TS = '"timestamp":"2026-04-16T14:00:00Z"'
PROJECTIONS = {
    "all": COLUMNS,
    "report": SCORECARD_COLUMNS,
    "summarize": SUMMARY_COLUMNS,
    "analyze": ANALYSIS_COLUMNS,
    "repo-only": ("ts_ms", "repo"),
}


def _write(tmp_path: Path, lines: list[bytes], name: str = "t.jsonl", end: bytes = b"\n") -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + end)
    return path


# --- the rules in plain Python --------------------------------------------------------

_TIME = re.compile(
    r"\d{4}-\d\d-\d\dT([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?"
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_INT64 = 2**63 - 1


def _epoch_ms(text: str) -> int | None:
    """Milliseconds (the time below, as JavaScript's Date reads it), None if no time."""
    digits = re.sub(r"(\.\d{6})\d+", r"\1", text)  # DuckDB keeps microseconds
    try:
        when = datetime.fromisoformat(digits.replace("Z", "+00:00"))
    except ValueError:
        return None
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    try:
        utc = when.astimezone(UTC)
    except OverflowError:
        return None
    return (utc - _EPOCH) // timedelta(milliseconds=1)


def _well_typed(kind: Kind, value: Any) -> bool:
    integer = isinstance(value, int) and not isinstance(value, bool)
    if kind is Kind.INTEGER:
        return integer and -_INT64 <= value <= _INT64
    if kind is Kind.NUMBER:
        return (integer or isinstance(value, float)) and math.isfinite(value)
    if kind is Kind.BOOLEAN:
        return isinstance(value, bool)
    if kind is Kind.TEXTS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, str)


def expected(line: bytes, fields: tuple[str, ...], whole: bool) -> dict[str, Any] | str | None:
    """What the rules make of a line: None (blank: no row), the reason's gist (skipped),
    or the row's fields."""
    if not line.strip(b" \t\r\n\x0b\x0c"):
        return None
    try:
        row = json.loads(line)
    except ValueError:
        return "not a JSON object"
    if not isinstance(row, dict):
        return "not a JSON object"
    stamp = row.get("timestamp")
    if stamp is None:
        return "not a JSON object with a timestamp"
    if not isinstance(stamp, str) or not _TIME.fullmatch(stamp):
        return "is not an RFC 3339 time"
    ms = _epoch_ms(stamp)
    if ms is None or not -62_135_596_800_000 <= ms <= 253_402_300_799_999:
        return "is not a valid time in years 1 to 9999"
    endpoint = row.get("endpoint")
    named = isinstance(endpoint, str) and repo_of(endpoint, None) is not None
    for field in fields:
        value = row.get(field)
        if field == "timestamp" or value is None or (field == "args" and named and not whole):
            continue
        if not _well_typed(FIELD_KINDS[field], value):
            return f"wrong type: {field} is "
        if field == "rateLimitReset" and not -62_135_596_800 <= value <= 253_402_300_799:
            return "rateLimitReset"
    return {"ts_ms": ms, **{f: row.get(f) for f in fields if f != "timestamp"}}


# --- random lines -------------------------------------------------------------------

_text = st.sampled_from(["gh.pr.list", "acme/todo", "", "é", 'q"uote', "null", "--repo", "a\\b"])
_time = st.one_of(
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ).map(lambda d: d.isoformat().replace("+00:00", "Z")),
    # toISOString()'s shape, which the reader reads by a faster path
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)).map(
        lambda d: d.isoformat(timespec="milliseconds") + "Z"
    ),
    st.datetimes(max_value=datetime(9999, 12, 30)).map(datetime.isoformat),
    st.sampled_from(
        [
            "2026-04-16T14:00:00.125Z",
            "2026-04-16T14:00:00+02:00",
            "2026-04-16T14:00:00.1239999-01:30",
            "0001-01-01T00:00:00+01:00",
            "9999-12-31T23:59:59.999-00:01",
            "0000-01-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            # toISOString()'s width, but not the RFC 3339 shape, or no time
            "2026-4-16T14:00:00.0000Z",
            "2026-04-16T14:0:00.0000Z",
            "12026-04-16T14:00:00.00Z",
            "2026-04-16T24:00:00.000Z",
            "2026-04-16T14:60:00.000Z",
            "2026-04-16T14:00:60.000Z",
            "2026-02-30T00:00:00.000Z",
            "0000-12-31T23:59:59.999Z",
            "2026-04-16t14:00:00.000Z",
            "2026-04-16T14:00:00.00 Z",
            "+026-04-16T14:00:00.000Z",
            "2026-04-16 14:00:00",
            "2026-04-16",
            "epoch",
            "yesterday",
            "",
        ]
    ),
)
_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.sampled_from([2**63 - 1, -(2**63), -(2**63) + 1, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    _text,
    st.lists(_text, max_size=3),
)
_args = st.lists(
    st.one_of(_text, st.sampled_from(["-R", "--repo", "--repo=o/r", "api", "repos/a/b/x"])),
    max_size=6,
)
_row = st.fixed_dictionaries(
    {"timestamp": st.one_of(_time, _value)},
    optional={
        "operation": st.one_of(_text, _value),
        "component": _text,
        "endpoint": st.one_of(
            st.sampled_from(
                ["repos/acme/todo/pulls", "/repos/a/b", "graphql", "repos//x", "/rate_limit"]
            ),
            _value,
        ),
        "method": _text,
        "args": st.one_of(_args, _value),
        "ok": _value,
        "httpStatus": st.one_of(st.sampled_from([200, 304, 502]), _value),
        "exitCode": st.one_of(st.integers(0, 3), _value),
        "durationMs": st.one_of(st.floats(0, 1e6), st.integers(0, 10**6), _value),
        "rateLimitReset": st.one_of(
            st.sampled_from([1_776_350_000, 253_402_300_799, 253_402_300_800, -62_135_596_801]),
            _value,
        ),
        "rateLimitRemaining": st.integers(0, 5000),
        "rateLimitResource": st.sampled_from(["core", "graphql"]),
        "graphqlCost": _value,
        "sessionId": _value,
        "origin": _text,
        "rateLimited": st.one_of(st.sampled_from(["primary", "secondary"]), _value),
        "cwd": _value,
        "stdoutBytes": _value,
        "cacheHit": _value,
        "unknown": _value,
    },
)
_line = st.one_of(
    _row.map(msgspec.json.encode),
    _row.map(lambda r: msgspec.json.encode(r)[:-3]),  # cut short
    st.sampled_from([b"", b"  ", b"\t\r", b"garbage", b"[]", b"{}", b"\xff", b"5", b'"x"']),
)


def _frame_rows(frame: TraceFrame, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """The frame's rows, missing values as None."""
    out: list[dict[str, Any]] = []
    for i in range(len(frame)):
        row: dict[str, Any] = {}
        for column in columns:
            value = getattr(frame, column)
            if hasattr(value, "value"):
                row[column] = value.value(i)
                continue
            raw = value[i].item()
            missing = {"ok": raw == -1, "duration_ms": isinstance(raw, float) and math.isnan(raw)}
            row[column] = None if missing.get(column, raw == NA) else raw
        out.append(row)
    return out


def _expected_rows(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows ``expected`` accepted, as the frame's columns hold them."""
    fields = {
        "duration_ms": "durationMs",
        "exit_code": "exitCode",
        "http_status": "httpStatus",
        "rate_limit_limit": "rateLimitLimit",
        "rate_limit_remaining": "rateLimitRemaining",
        "rate_limit_reset": "rateLimitReset",
        "graphql_cost": "graphqlCost",
        "graphql_remaining": "graphqlRemaining",
        "operation": "operation",
        "component": "component",
        "resource": "rateLimitResource",
        "session_id": "sessionId",
        "method": "method",
        "endpoint": "endpoint",
        "origin": "origin",
        "rate_limited": "rateLimited",
    }
    out = []
    for row in rows:
        got: dict[str, Any] = {}
        for column in columns:
            if column == "ts_ms":
                got[column] = row["ts_ms"]
            elif column == "repo":
                got[column] = repo_of(row.get("endpoint"), row.get("args"))
            elif column == "ok":
                got[column] = None if row.get("ok") is None else int(row["ok"])
            elif column == "duration_ms":
                d = row.get("durationMs")
                got[column] = None if d is None else float(d)
            elif column == "rate_limit_call":
                got[column] = int(is_rate_limit(row.get("endpoint")))
            else:
                got[column] = row.get(fields[column])
        out.append(got)
    return out


@pytest.mark.slow
@SETTINGS
@given(
    lines=st.lists(_line, min_size=1, max_size=12),
    end=st.sampled_from([b"\n", b"", b"\r\n"]),
    projection=st.sampled_from(sorted(PROJECTIONS)),
)
def test_the_frame_holds_what_the_rules_say(
    tmp_path: Path, lines: list[bytes], end: bytes, projection: str
) -> None:
    columns = tuple(sorted(set(PROJECTIONS[projection]) | {"ts_ms"}))
    path = _write(tmp_path, lines, end=end)
    verdicts = [expected(line, fields_for(columns), whole=False) for line in lines]
    rows = [v for v in verdicts if isinstance(v, dict)]
    skipped = [(n, v) for n, v in enumerate(verdicts, start=1) if isinstance(v, str)]
    try:
        frame = read_trace(path, columns)
    except TraceError as exc:
        assert not rows, exc
        return
    assert _frame_rows(frame, columns) == _expected_rows(rows, columns)
    assert frame.skipped_lines == len(skipped)
    assert frame.lines_read == len(rows) + len(skipped)
    assert [w.line for w in frame.warnings] == [n for n, _ in skipped]
    for warning, (number, gist) in zip(frame.warnings, skipped, strict=True):
        cut_short = number == len(lines) and not end
        assert gist in warning.message or cut_short, (warning, gist)


@pytest.mark.slow
@SETTINGS
@given(lines=st.lists(_line, min_size=1, max_size=12))
@example(lines=[b'{"timestamp":"2026-04-16T14:00:00Z","durationMs":9007199254740993}'])
def test_whole_rows_hold_what_the_rules_say(tmp_path: Path, lines: list[bytes]) -> None:
    path = _write(tmp_path, lines)
    verdicts = [expected(line, KNOWN_FIELDS, whole=True) for line in lines]
    wanted = [v for v in verdicts if isinstance(v, dict)]
    got = read_rows(path, empty_ok=True)
    assert len(got) == len(wanted)
    for row, want in zip(got, wanted, strict=True):
        for field in KNOWN_FIELDS:
            if field != "timestamp":
                expected_value = want[field]
                if FIELD_KINDS[field] is Kind.NUMBER and expected_value is not None:
                    expected_value = float(expected_value)  # a double, as TraceRow holds it
                assert getattr(row, field) == expected_value, field


# --- the rules, case by case ----------------------------------------------------------

GOOD = f'{{{TS},"operation":"gh.pr.list","ok":true}}'.encode()


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (b'{"timestamp":"2026-04-16T14:00:00Z","ok":tr', "not a JSON object"),
        (b"not json at all", "not a JSON object"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"operation":"gh.pr.list"}', "not a JSON object with a timestamp"),
        (b'\xff\xfe{"timestamp":"2026-04-16T14:00:00Z"}', "not a JSON object"),
        (b'{"timestamp":"2026-04-16T14:00:00Z","operation":"\xe9"}', "not a JSON object"),
        (b'{"timestamp":"yesterday"}', 'timestamp "yesterday" is not an RFC 3339 time'),
        (b'{"timestamp":12}', "timestamp 12 is not an RFC 3339 time"),
        (b'{"timestamp":"2026-04-16 14:00:00"}', "is not an RFC 3339 time"),
        (b'{"timestamp":"2026-02-30T00:00:00Z"}', "is not a valid time in years 1 to 9999"),
        # toISOString()'s width (the reader's fast path), but not its shape
        (b'{"timestamp":"2026-4-16T14:00:00.0000Z"}', "is not an RFC 3339 time"),
        (b'{"timestamp":"2026-04-16T24:00:00.000Z"}', "is not an RFC 3339 time"),
        (b'{"timestamp":"0000-12-31T23:59:59.999Z"}', "is not a valid time in years 1 to 9999"),
        (b'{"timestamp":"0001-01-01T00:00:00+01:00"}', "is not a valid time in years 1 to 9999"),
        (b'{%s,"httpStatus":"200"}' % TS.encode(), 'httpStatus is "200", not an integer'),
        (b'{%s,"exitCode":1.5}' % TS.encode(), "exitCode is 1.5, not an integer"),
        (b'{%s,"exitCode":1.0}' % TS.encode(), "exitCode is 1.0, not an integer"),
        (b'{%s,"graphqlCost":1e3}' % TS.encode(), "graphqlCost is 1"),
        (b'{%s,"httpStatus":99999999999999999999}' % TS.encode(), "not an integer"),
        (b'{%s,"httpStatus":-9223372036854775808}' % TS.encode(), "not an integer"),
        (b'{%s,"ok":"yes"}' % TS.encode(), 'ok is "yes", not true or false'),
        (b'{%s,"ok":1}' % TS.encode(), "ok is 1, not true or false"),
        (b'{%s,"durationMs":"12"}' % TS.encode(), 'durationMs is "12", not a finite number'),
        (b'{%s,"durationMs":1e999}' % TS.encode(), "not a finite number"),
        (b'{%s,"durationMs":NaN}' % TS.encode(), "not a finite number"),
        (b'{%s,"operation":12}' % TS.encode(), "operation is 12, not a string"),
        (b'{%s,"args":["a",1]}' % TS.encode(), "args is"),
        (b'{%s,"args":["-R",null]}' % TS.encode(), "not a list of strings"),
        (b'{%s,"rateLimitReset":253402300800}' % TS.encode(), "not a time in years 1 to 9999"),
    ],
)
def test_a_bad_line_is_skipped_and_says_why(tmp_path: Path, bad: bytes, reason: str) -> None:
    frame = read_trace(_write(tmp_path, [GOOD, b"", bad, GOOD]))
    assert len(frame) == 2
    assert (frame.lines_read, frame.skipped_lines) == (3, 1)
    ((line, message),) = [(w.line, w.message) for w in frame.warnings]
    assert line == 3 and reason in message, message


def test_well_typed_extremes_are_rows(tmp_path: Path) -> None:
    lines = [
        b'{"timestamp":"0001-01-01T00:00:00Z","rateLimitReset":-62135596800}',
        b'{"timestamp":"9999-12-31T23:59:59.999Z","rateLimitReset":253402300799}',
        b'{"timestamp":"2026-04-16T14:00:00+23:59","httpStatus":9223372036854775807}',
        b'{"timestamp":"2026-04-16T14:00:00.9999999","graphqlCost":-9223372036854775807}',
        b'{"timestamp":"2026-04-16T14:00:00Z","durationMs":-0.5,"exitCode":-0}',
        b'{"timestamp":"2026-04-16T14:00:00Z","ok":null,"operation":null,"new":{"a":[1]},}',
    ]
    frame = read_trace(_write(tmp_path, lines))
    assert frame.skipped_lines == 0
    assert frame.ts_ms.tolist() == [
        -62_135_596_800_000,
        253_402_300_799_999,
        1_776_348_000_000 - (23 * 60 + 59) * 60_000,
        1_776_348_000_999,
        1_776_348_000_000,
        1_776_348_000_000,
    ]
    assert frame.rate_limit_reset.tolist()[:2] == [-62_135_596_800, 253_402_300_799]
    assert frame.http_status.tolist()[2] == 2**63 - 1
    assert frame.graphql_cost.tolist()[3] == -(2**63) + 1
    assert frame.duration_ms.tolist()[4] == -0.5
    assert frame.exit_code.tolist()[4] == 0
    assert frame.ok.tolist()[5] == -1 and frame.operation.value(5) is None


UNUSED_WRONG = [
    b'{"timestamp":"2026-04-16T14:00:00Z","cwd":7,"operation":"gh.pr.list"}',
    b'{"timestamp":"2026-04-16T14:00:00Z","stdoutBytes":"12","etag":1,"cacheHit":"yes"}',
    b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"repos/a/b/pulls","args":["-R",7]}',
]


def test_fields_nothing_reads_are_not_checked(tmp_path: Path) -> None:
    # such a field cannot change a figure; whole rows read it, so they skip the line
    path = _write(tmp_path, [GOOD, *UNUSED_WRONG])
    frame = read_trace(path)
    assert (len(frame), frame.skipped_lines) == (4, 0)
    assert frame.operation.value(1) == "gh.pr.list"
    assert frame.repo.value(3) == "a/b"
    assert [row.operation for row in read_rows(path)] == ["gh.pr.list"]


def test_a_projection_checks_only_its_fields(tmp_path: Path) -> None:
    # the exit code is text: report's columns never read it, analyze's do
    lines = [
        b'{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.view","exitCode":"5"}',
        b'{"timestamp":"2026-04-16T14:00:01Z","operation":"gh.pr.list","httpStatus":200}',
    ]
    path = _write(tmp_path, lines)
    report = read_trace(path, SCORECARD_COLUMNS)
    assert (len(report), report.skipped_lines) == (2, 0)
    assert report.columns == frozenset(SCORECARD_COLUMNS)
    # columns not read are placeholders that read as missing
    assert report.exit_code.tolist() == [NA, NA]
    assert report.repo.value(0) is None
    analysis = read_trace(path, ANALYSIS_COLUMNS)
    assert len(analysis) == 1
    assert [w.line for w in analysis.warnings] == [1]


def test_args_are_checked_where_the_repo_comes_from_them(tmp_path: Path) -> None:
    lines = [
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["pr","list","-R",7]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"graphql","args":{"repo":1}}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"repos//x","args":[1]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["pr","list","--repo","o/r"]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"graphql","args":["--repo=a/b"]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","endpoint":"//repos/c/d?x=1","args":[1]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["-R","e/f","--repo=g/h","--repo"]}',
        b'{"timestamp":"2026-04-16T14:00:00Z","args":["--repo"]}',
    ]
    frame = read_trace(_write(tmp_path, lines), ("ts_ms", "repo"))
    assert [w.line for w in frame.warnings] == [1, 2, 3]
    assert all("args is" in w.message for w in frame.warnings)
    assert [frame.repo.value(i) for i in range(len(frame))] == ["o/r", "a/b", "c/d", "e/f", None]


def test_every_field_has_a_kind_and_every_column_its_fields() -> None:
    assert set(FIELD_KINDS) == set(KNOWN_FIELDS)
    assert FIELD_KINDS["args"] is Kind.TEXTS and FIELD_KINDS["durationMs"] is Kind.NUMBER
    assert fields_for(("repo",)) == ("timestamp", "args", "endpoint")
    with pytest.raises(ValueError, match="bogus"):
        fields_for(("ts_ms", "bogus"))


def test_the_oracle_reads_timestamps_as_javascript_does() -> None:
    assert _epoch_ms("1969-12-31T23:59:59.1236Z") == -877
    assert _epoch_ms("2026-04-16T14:00:00.1239999Z") == 1_776_348_000_123
    assert np.int64(_epoch_ms("2026-04-16T14:00:00+02:00")) == 1_776_340_800_000
