"""The one reader: rows, warnings, one notion of an empty trace, projections, labels.

What each line becomes is ``test_rules.py``'s; where the bytes come from (pipes, long
lines, line numbers) is ``test_source.py``'s.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
from ghbench.analysis.summarize import SUMMARY_COLUMNS, summarize
from ghbench.artifacts.models import encode_artifact
from ghbench.errors import TraceError
from ghbench.scorecard import SCORECARD_COLUMNS, build_scorecard_artifact
from ghbench.timefmt import iso_ms
from ghbench.trace import reader
from ghbench.trace.frame import COLUMNS, NA, NUMERIC_COLUMNS, Categorical, TraceFrame, is_rate_limit
from ghbench.trace.reader import CUT_SHORT, MAX_WARNINGS, read_rows, read_trace
from ghbench.trace.schema import TraceRow

GOOD = b'{"timestamp":"2026-04-16T14:00:00.125Z","operation":"gh.pr.list","ok":true}'
GOOD2 = (
    b'{"timestamp":"2026-04-16T14:00:01Z","operation":"gh.api.guard-pr-list","httpStatus":304,'
    b'"endpoint":"repos/acme/todo/pulls?per_page=1","rateLimitRemaining":4999,"extra":{"a":1}}'
)


def _write(tmp_path: Path, data: bytes, name: str = "t.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_reads_rows_and_skips_blank_lines(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, GOOD + b"\n\n  \n\t\r\n" + GOOD2 + b"\r\n"))
    assert len(frame) == 2
    assert (frame.lines_read, frame.skipped_lines, frame.warnings) == (2, 0, ())
    assert frame.ts_ms.tolist() == [1776348000125, 1776348001000]
    assert frame.repo.value(1) == "acme/todo"
    assert frame.http_status.tolist() == [NA, 304]
    assert frame.operation.labels == ("gh.api.guard-pr-list", "gh.pr.list")


def test_warnings_are_capped_but_skips_counted(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, b"garbage\n" * 250 + GOOD + b"\n"))
    assert (len(frame), frame.skipped_lines, frame.lines_read) == (1, 250, 251)
    assert [w.line for w in frame.warnings] == list(range(1, MAX_WARNINGS + 1))


def test_a_last_line_cut_short_is_skipped_and_says_so(tmp_path: Path) -> None:
    path = _write(tmp_path, (GOOD + b"\n") * 50 + GOOD2[:40])
    frame = read_trace(path)
    assert (len(frame), frame.skipped_lines) == (50, 1)
    assert [(w.line, w.message) for w in frame.warnings] == [(51, CUT_SHORT)]
    # a whole row missing only its newline is a row
    assert len(read_trace(_write(tmp_path, GOOD + b"\n" + GOOD2, "whole.jsonl"))) == 2


def test_a_blank_last_line_without_its_newline_cuts_nothing_short(tmp_path: Path) -> None:
    frame = read_trace(_write(tmp_path, GOOD + b"\ngarbage\n \t"))
    assert (len(frame), frame.skipped_lines) == (1, 1)
    assert frame.warnings[0].line == 2
    assert frame.warnings[0].message.startswith("not a JSON object")


EMPTIES = [
    (b"", "is empty (0 bytes); has the traced process run yet?"),
    (b"\n  \n", "has no rows, only blank lines"),
    (b"x\n{}\n", "has no valid rows: all 2 non-blank lines were skipped (line 1: not a JSON"),
]


@pytest.mark.parametrize(("data", "message"), EMPTIES)
def test_one_notion_of_an_empty_trace(tmp_path: Path, data: bytes, message: str) -> None:
    path = _write(tmp_path, data)
    for read in (read_trace, read_rows):
        with pytest.raises(TraceError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read(path)
    frame = read_trace(path, empty_ok=True)
    assert len(frame) == 0
    assert frame.skipped_lines == data.count(b"\n") * (b"x" in data)
    assert read_rows(path, empty_ok=True) == []
    # the empty frame is a frame: a scorecard of nothing can be built from it
    artifact = build_scorecard_artifact(
        frame, window_start_ms=0, window_end_ms=60_000, scenario_id="e", measured_at=0
    )
    assert artifact.scorecard.total_calls == 0


def test_missing_paths_are_errors_even_when_empty_is_fine(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="does not exist"):
        read_trace(tmp_path / "nope.jsonl", empty_ok=True)
    with pytest.raises(TraceError, match="is a directory"):
        read_rows(tmp_path, empty_ok=True)


def test_labels_first_seen_late_are_coded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the scan codes the labels of the first rows; later ones come back as text
    lines = [GOOD] * 3 + [
        b'{"timestamp":"2026-04-16T14:00:02Z","operation":"gh.pr.merge","sessionId":"s-%d"}' % i
        for i in range(4)
    ]
    lines += [b'{"timestamp":"2026-04-16T14:00:03Z","operation":"gh.pr.list","sessionId":"s-2"}']
    path = _write(tmp_path, b"\n".join(lines) + b"\n")
    whole = read_trace(path)
    monkeypatch.setattr(reader, "SAMPLE_ROWS", 2)
    late = read_trace(path)
    for frame in (whole, late):
        assert [frame.operation.value(i) for i in range(8)] == ["gh.pr.list"] * 3 + [
            "gh.pr.merge"
        ] * 4 + ["gh.pr.list"]
        assert [frame.session_id.value(i) for i in range(8)] == [None] * 3 + [
            f"s-{i}" for i in (0, 1, 2, 3, 2)
        ]
        assert frame.session_id.labels == ("s-0", "s-1", "s-2", "s-3")


def test_labels_no_row_uses_are_dropped(tmp_path: Path) -> None:
    skipped = b'{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.only-here","ok":"x"}'
    frame = read_trace(_write(tmp_path, GOOD + b"\n" + skipped + b"\n"))
    assert frame.operation.labels == ("gh.pr.list",)


def test_the_frame_equals_one_built_from_the_rows(tmp_path: Path) -> None:
    data = GOOD + b"\n" + GOOD2 + b"\n"
    rows = [msgspec.json.decode(line, type=TraceRow) for line in data.splitlines()]
    expected = TraceFrame.from_rows(rows)
    got = read_trace(_write(tmp_path, data))
    for name in COLUMNS:
        a, b = getattr(got, name), getattr(expected, name)
        if isinstance(a, Categorical):
            assert [a.value(i) for i in range(2)] == [b.value(i) for i in range(2)], name
        else:
            assert np.array_equal(a, b, equal_nan=True), name


def test_read_rows_gives_whole_rows(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + b"\nbad\n" + GOOD2 + b"\n")
    rows = read_rows(path)
    assert [r.operation for r in rows] == ["gh.pr.list", "gh.api.guard-pr-list"]
    assert rows[1].endpoint == "repos/acme/todo/pulls?per_page=1"
    assert rows[1].rateLimitRemaining == 4999 and rows[0].ok is True


def test_integers_keep_every_bit(tmp_path: Path) -> None:
    big = (
        b'{"timestamp":"2026-04-16T14:00:00Z","rateLimitReset":4102444800,'
        b'"graphqlCost":-1099511627776,"httpStatus":-2147483648,"exitCode":2147483647}'
    )
    frame = read_trace(_write(tmp_path, b"\n".join([GOOD, big])))
    assert frame.rate_limit_reset.tolist() == [NA, 4102444800]
    assert frame.graphql_cost.tolist() == [NA, -(2**40)]
    assert frame.http_status.tolist() == [NA, -(2**31)]
    assert frame.exit_code.tolist() == [NA, 2**31 - 1]


TS = '"timestamp":"2026-04-16T14:00:00Z"'


def _nested(depth: int, kind: str) -> str:
    opening, closing = ("[", "]") if kind == "array" else ('{"k":', "}")
    return opening * depth + "0" + closing * depth


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (f'{{{TS},"unknown":{_nested(5000, "array")}}}', None),
        (f'{{{TS},"args":{_nested(5000, "array")}}}', "args is"),
        (f'{{{TS},"operation":{_nested(3000, "object")}}}', "operation is"),
        (_nested(5000, "array"), "not a JSON object"),
        (f'{{{TS},"httpStatus":{"9" * 5000}}}', "not an integer"),
    ],
)
def test_hostile_values_are_rows_or_skipped_never_a_crash(
    tmp_path: Path, line: str, reason: str | None
) -> None:
    path = _write(tmp_path, b"\n".join([GOOD, line.encode(), GOOD]) + b"\n")
    frame = read_trace(path)
    if reason is None:
        assert (len(frame), frame.warnings) == (3, ())
    else:
        ((number, message),) = [(w.line, w.message) for w in frame.warnings]
        assert number == 2 and reason in message


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=400))
@example(data=b"\x00\n{}")
@example(data=b'{"timestamp":"2026-04-16T14:00:00Z"}\r')
def test_any_bytes_are_rows_warnings_or_one_error(tmp_path: Path, data: bytes) -> None:
    path = _write(tmp_path, data, "bytes.jsonl")
    try:
        frame = read_trace(path)
    except TraceError as exc:
        assert any(s in str(exc) for s in ("no valid rows", "is empty", "no rows")), exc
    else:
        assert len(frame) >= 1
        assert frame.lines_read == len(frame) + frame.skipped_lines


# --- projections: each computation reads only the columns it declares -----------------

T0 = 1_776_348_000.0  # 2026-04-16T14:00:00Z

_row = st.builds(
    lambda at, op, comp, method, status, cost, remaining, reset, resource, session, ok, dur, ep: (
        TraceRow(
            timestamp=iso_ms(T0 + at),
            operation=op,
            component=comp,
            method=method,
            httpStatus=status,
            graphqlCost=cost,
            graphqlRemaining=None if remaining is None else remaining + 7,
            rateLimitRemaining=remaining,
            rateLimitLimit=5000,
            rateLimitReset=reset,
            rateLimitResource=resource,
            sessionId=session,
            ok=ok,
            exitCode=None if ok else 1,
            durationMs=dur,
            endpoint=ep,
            args=["pr", "list", "--repo", "acme/api"] if ep is None else None,
            origin="ao",
        )
    ),
    at=st.floats(0, 7200),
    op=st.sampled_from(
        ["gh.api.guard-pr-list", "gh.api.graphql-batch", "gh.pr.view", "gh.pr.create", None]
    ),
    comp=st.sampled_from(["scm-github", "scm-github-batch", "benchmark-control", None]),
    method=st.sampled_from(["GET", "POST", "PATCH", None]),
    status=st.sampled_from([200, 304, 403, 502, None]),
    cost=st.one_of(st.none(), st.integers(0, 60)),
    remaining=st.one_of(st.none(), st.integers(0, 5000)),
    reset=st.sampled_from([int(T0) + 1800, int(T0) + 5400, None]),
    resource=st.sampled_from(["core", "graphql", "search", None]),
    session=st.sampled_from(["ta-1", "ta-2", None]),
    ok=st.sampled_from([True, False, None]),
    dur=st.one_of(st.none(), st.floats(0, 5000)),
    ep=st.sampled_from(
        ["repos/acme/todo/pulls?state=open&per_page=1", "graphql", "repos/acme/web/pulls/3", None]
    ),
)


def _garbage(frame: TraceFrame, keep: tuple[str, ...], seed: int) -> TraceFrame:
    """``frame`` with every column outside ``keep`` replaced by random values."""
    rng = random.Random(seed)
    n = len(frame)
    changes: dict[str, Any] = {}
    for name in COLUMNS:
        if name in keep:
            continue
        if name in NUMERIC_COLUMNS:
            dtype = NUMERIC_COLUMNS[name][0]
            values = [rng.choice([NA, 0, 1, 200, 304, 4999, -5]) for _ in range(n)]
            changes[name] = np.array(values).astype(dtype)
        else:
            labels = ("zz", "gh.api.graphql-batch", "benchmark-control", "graphql", "POST")
            codes = np.array([rng.randrange(-1, len(labels)) for _ in range(n)], dtype=np.int32)
            changes[name] = Categorical(codes, labels)
    return dataclasses.replace(frame, **changes)


def _scorecard(frame: TraceFrame) -> bytes:
    artifact = build_scorecard_artifact(
        frame,
        window_start_ms=int(T0 * 1000) + 600_000,
        window_end_ms=int(T0 * 1000) + 6_600_000,
        scenario_id="projection",
        measured_at=T0 + 7200,
    )
    return encode_artifact(artifact)


def _summary(frame: TraceFrame) -> bytes:
    return msgspec.json.encode(summarize(frame).to_json())


def _analysis(frame: TraceFrame) -> bytes:
    return msgspec.json.encode(analyze(frame).to_json())


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(_row, min_size=1, max_size=40), seed=st.integers(0, 2**16))
@pytest.mark.parametrize(
    ("columns", "compute"),
    [
        (SCORECARD_COLUMNS, _scorecard),
        (SUMMARY_COLUMNS, _summary),
        (ANALYSIS_COLUMNS, _analysis),
    ],
    ids=["scorecard", "summarize", "analyze"],
)
def test_outputs_depend_only_on_the_declared_columns(
    columns: tuple[str, ...], compute: Any, rows: list[TraceRow], seed: int
) -> None:
    rows.sort(key=lambda r: r.timestamp)
    full = TraceFrame.from_rows(rows)
    assert compute(_garbage(full, columns, seed)) == compute(full)


def test_a_call_to_rate_limit_is_told_by_the_sql_as_in_python(tmp_path: Path) -> None:
    """``rate_limit_call``: 1 for ``GET /rate_limit`` (free for the primary limit), read
    without the endpoint's text; the reader's SQL and ``is_rate_limit`` agree."""
    endpoints = ["rate_limit", "/rate_limit", "rate_limit?x=1", "rate_limits", "repos/a/b", None]
    lines = [json.dumps({"timestamp": "2026-04-16T14:00:00Z", "endpoint": e}) for e in endpoints]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    frame = read_trace(path, ("ts_ms", "rate_limit_call"))
    assert frame.rate_limit_call.tolist() == [1, 1, 1, 0, 0, 0]
    assert [int(is_rate_limit(e)) for e in endpoints] == frame.rate_limit_call.tolist()
