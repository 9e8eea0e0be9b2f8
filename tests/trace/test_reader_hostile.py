"""Rows no writer produces never crash a reader, and the DuckDB pass and the line reader
agree on them (issue 12): values nested past any recursion limit, numbers at and past
64 bits, timestamps and rate-limit resets outside years 1 to 9999, lines longer than a
row may be. Each is a skipped line with a warning naming it, or a row, the same in both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ghbench.errors import TraceError
from ghbench.timefmt import parse_iso
from ghbench.trace.exact import MAX_LINE_BYTES
from ghbench.trace.frame import TraceFrame
from ghbench.trace.reader import iter_rows, read_trace

SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
BASE = {"timestamp": "2026-04-16T14:00:00.125Z", "operation": "gh.pr.list", "ok": True}


def _seen(frame: TraceFrame) -> dict[str, Any]:
    """What a frame holds, comparable across readers."""
    return {
        "ts_ms": frame.ts_ms.tolist(),
        "reset": frame.rate_limit_reset.tolist(),
        "cost": frame.graphql_cost.tolist(),
        "status": frame.http_status.tolist(),
        "duration": [None if np.isnan(v) else v for v in frame.duration_ms.tolist()],
        "operation": [frame.operation.value(i) for i in range(len(frame))],
        "repo": [frame.repo.value(i) for i in range(len(frame))],
        "skipped": frame.skipped_lines,
        "warnings": [(w.line, w.message) for w in frame.warnings],
    }


def _all_readers(path: Path) -> list[dict[str, Any] | str]:
    """The frame from the DuckDB pass, the line reader and the full-row reader; a
    TraceError (no valid row) is an answer too. Anything else raised fails the test."""
    out: list[dict[str, Any] | str] = []
    for fast in (True, None, False):
        try:
            out.append(_seen(read_trace(path, fast=fast)))
        except TraceError as exc:
            out.append(f"TraceError: {str(exc).replace(str(path), 'PATH')}")
    return out


def _nested(depth: int, kind: str) -> str:
    opening, closing = ("[", "]") if kind == "array" else ('{"k":', "}")
    return opening * depth + "0" + closing * depth


def _line(fields: dict[str, Any], raw: dict[str, str] | None = None) -> bytes:
    """A JSON line of ``fields``, plus ``raw`` members spliced in as JSON text as given
    (what no encoder would produce: any depth, any number literal)."""
    raw = raw or {}
    text = msgspec.json.encode({k: v for k, v in fields.items() if k not in raw}).decode()
    extra = "".join(f',"{k}":{v}' for k, v in raw.items())
    return (text[:-1] + extra + "}").encode()


_depth = st.one_of(st.integers(1, 40), st.integers(900, 5000))
_kind = st.sampled_from(["array", "object"])
_field = st.sampled_from(["unknown", "args", "operation", "endpoint", "httpStatus", "cwd"])
_number = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(
        ["1e400", "-1e400", "1e308", "-0", "0.5", "9223372036854775807", "9223372036854775808"]
    ),
)
_numeric_field = st.sampled_from(
    ["rateLimitReset", "graphqlCost", "durationMs", "httpStatus", "exitCode", "stdoutBytes"]
)
# times: inside and outside years 1..9999, with and without an offset
_timestamp = st.one_of(
    st.sampled_from(
        [
            "0001-01-01T00:00:00Z",
            "0001-01-01T00:00:00+01:00",
            "0001-01-01T00:59:59-01:00",
            "9999-12-31T23:59:59Z",
            "9999-12-31T23:59:59-00:01",
            "9999-12-31T23:59:59.999+01:00",
            "0000-01-01T00:00:00Z",
            "2026-04-16T14:00:00.125Z",
        ]
    ),
    st.datetimes().map(lambda d: d.isoformat()),
)
_reset = st.one_of(
    st.integers(-62_135_596_801, -62_135_596_799),
    st.integers(253_402_300_798, 253_402_300_800),
    st.sampled_from([10**12, 2**62, 2**63 - 1, -(2**63) + 1, 1_776_350_000]),
)


@st.composite
def _hostile_line(draw: st.DrawFn) -> bytes:
    fields = dict(BASE)
    raw: dict[str, str] = {}
    choice = draw(st.sampled_from(["nested", "number", "time", "reset"]))
    if choice == "nested":
        raw[draw(_field)] = _nested(draw(_depth), draw(_kind))
    elif choice == "number":
        raw[draw(_numeric_field)] = draw(_number)
    elif choice == "time":
        fields["timestamp"] = draw(_timestamp)
    else:
        fields.update(rateLimitReset=draw(_reset), rateLimitResource="core")
    if draw(st.booleans()):  # where repo comes from args, args is checked
        fields["endpoint"] = "repos/acme/todo/pulls"
    return _line(fields, raw)


@SETTINGS
@given(lines=st.lists(_hostile_line(), min_size=1, max_size=6), good_first=st.booleans())
@example(lines=[_line(BASE, {"unknown": _nested(1000, "array")})], good_first=False)
@example(lines=[_line(BASE, {"args": _nested(5000, "object")})], good_first=True)
@example(lines=[_line({**BASE, "timestamp": "0001-01-01T00:00:00+01:00"})], good_first=True)
@example(lines=[_line({**BASE, "rateLimitReset": 10**12})], good_first=True)
@example(lines=[_line({**BASE, "rateLimitReset": 2**62})], good_first=True)
@example(lines=[_line(BASE, {"durationMs": "1e400"})], good_first=True)
@pytest.mark.slow
def test_hostile_rows_never_crash_and_both_readers_agree(
    tmp_path: Path, lines: list[bytes], good_first: bool
) -> None:
    data = [_line(BASE), *lines] if good_first else lines
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(data) + b"\n")
    fast, small, full = _all_readers(path)
    assert fast == small  # the DuckDB pass == the line reader (FrameRowCheck)
    if isinstance(fast, dict):
        assert all(isinstance(ts, int) for ts in fast["ts_ms"])
        # every time a reader kept is a time: it formats and parses back
        assert all(-62_135_596_800_000 <= ts <= 253_402_300_799_999 for ts in fast["ts_ms"])
    if isinstance(full, dict) and isinstance(fast, dict):
        # the full-row reader checks more fields, so it keeps no row the frame reader drops
        assert len(full["ts_ms"]) <= len(fast["ts_ms"])


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"unknown": _nested(5000, "array")}, None),  # content of an unknown field: no matter
        ({"args": _nested(5000, "array")}, "got `array` - at `$.args[0]`"),
        ({"operation": _nested(5000, "object")}, "got `object` - at `$.operation`"),
    ],
)
def test_values_nested_past_the_recursion_limit(
    tmp_path: Path, raw: dict[str, str], reason: str | None
) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(b"\n".join([_line(BASE), _line(BASE, raw)]) + b"\n")
    for fast in (True, None, False):
        frame = read_trace(path, fast=fast)
        if reason is None:
            assert len(frame) == 2 and not frame.warnings
        else:
            (warning,) = frame.warnings
            assert warning.line == 2 and reason in warning.message


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"timestamp": "0001-01-01T00:00:00+01:00"}, "is not an ISO-8601 time in years 1 to 9999"),
        ({"rateLimitReset": 10**12}, "rateLimitReset 1000000000000 is not a time in years 1"),
        ({"rateLimitReset": 2**62}, "rateLimitReset 4611686018427387904 is not a time"),
    ],
)
def test_times_outside_years_1_to_9999_are_skipped(
    tmp_path: Path, fields: dict[str, Any], reason: str
) -> None:
    path = tmp_path / "times.jsonl"
    path.write_bytes(b"\n".join([_line(BASE), _line({**BASE, **fields})]) + b"\n")
    for fast in (True, None, False):
        frame = read_trace(path, fast=fast)
        assert len(frame) == 1
        assert [(w.line, reason in w.message) for w in frame.warnings] == [(2, True)]
    # the kept row still formats: the scorecard's times are all real times
    assert parse_iso("9999-12-31T23:59:59Z") > 0


def test_a_line_longer_than_a_row_may_be_is_skipped_unread(tmp_path: Path) -> None:
    huge = _line({**BASE, "args": ["a" * (MAX_LINE_BYTES + 10)]})
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"\n".join([_line(BASE), huge, _line(BASE)]))  # no newline at the end
    for fast in (True, None, False):
        frame = read_trace(path, fast=fast)
        assert len(frame) == 2
        (warning,) = frame.warnings
        assert warning.line == 2
        assert warning.message == (
            f"line is {len(huge):,} bytes, longer than a trace row may be (16 MiB)"
        )
    assert [n for n, _ in iter_rows(path)] == [1, 3]
