"""Projections: each command reads only the frame columns it computes over.

The column lists (``SCORECARD_COLUMNS``, ``SUMMARY_COLUMNS``, ``ANALYSIS_COLUMNS``) are
held to what the code uses: filling every other column with garbage must not change a
single output byte. And a projected read type-checks only the projected fields.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
from ghbench.analysis.summarize import SUMMARY_COLUMNS, summarize
from ghbench.artifacts.models import encode_artifact
from ghbench.scorecard import SCORECARD_COLUMNS, build_scorecard_artifact
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import COLUMNS, NA, NUMERIC_COLUMNS, Categorical, TraceFrame
from ghbench.trace.reader import read_trace
from ghbench.trace.schema import TraceRow

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


def test_a_computation_refuses_a_frame_without_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.view"}\n')
    frame = read_trace(path, columns=SCORECARD_COLUMNS)
    with pytest.raises(ValueError, match="endpoint"):
        summarize(frame)


@pytest.mark.parametrize("fast", [True, None])
@pytest.mark.slow
def test_a_projection_checks_only_its_fields(tmp_path: Path, fast: bool | None) -> None:
    # The endpoint is a number: report's projection never reads it, analyze's does
    # (fast=False, the full-row reader, checks every field whatever the projection).
    lines = [
        b'{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.view","endpoint":5}',
        b'{"timestamp":"2026-04-16T14:00:01Z","operation":"gh.pr.list","httpStatus":200}',
    ]
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    report = read_trace(path, fast=fast, columns=SCORECARD_COLUMNS)
    assert len(report) == 2
    assert report.skipped_lines == 0
    assert report.columns == frozenset(SCORECARD_COLUMNS)
    assert [report.operation.value(i) for i in range(2)] == ["gh.pr.view", "gh.pr.list"]
    # columns not read are placeholders that read as missing
    assert report.endpoint.value(0) is None
    assert report.exit_code.tolist() == [NA, NA]
    analysis = read_trace(path, fast=fast, columns=ANALYSIS_COLUMNS)
    assert len(analysis) == 1
    assert [w.line for w in analysis.warnings] == [1]
    assert len(read_trace(path, fast=False, columns=SCORECARD_COLUMNS)) == 1


def test_unknown_column_is_a_programming_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"timestamp":"2026-04-16T14:00:00Z"}\n')
    with pytest.raises(ValueError, match="bogus"):
        read_trace(path, columns=("ts_ms", "bogus"))


def test_take_keeps_placeholders_cheap(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(
        "\n".join(
            f'{{"timestamp":"2026-04-16T14:00:0{i}Z","httpStatus":{200 + i}}}' for i in range(5)
        )
    )
    frame = read_trace(path, columns=("ts_ms", "http_status"))
    taken = frame.take(np.array([True, False, True, False, True]))
    assert taken.http_status.tolist() == [200, 202, 204]
    assert taken.graphql_cost.tolist() == [NA, NA, NA]
    assert taken.graphql_cost.strides == (0,)
    assert taken.columns == frame.columns
