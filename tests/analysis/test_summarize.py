from __future__ import annotations

import json

from ghbench.analysis.summarize import summarize
from ghbench.analysis.text import summary_lines
from ghbench.trace.frame import TraceFrame

from .conftest import RESET_A, RESET_B


def test_totals_exclude_control_rows(frame: TraceFrame) -> None:
    s = summarize(frame)
    assert s.rows == 9
    assert s.control_rows == 1
    assert (s.ok, s.failed, s.unknown_outcome) == (6, 3, 0)
    assert s.opaque == 2  # gh pr view, gh pr list
    assert s.graphql_cost == 2
    assert s.span_s == 150.0
    assert s.calls_per_min == 9 * 60 / 150


def test_per_operation_and_status(frame: TraceFrame) -> None:
    s = summarize(frame)
    ops = {o.operation: o for o in s.operations}
    assert s.operations[0].operation == "gh.api.guard-pr-list"
    assert ops["gh.api.guard-pr-list"].calls == 5
    assert ops["gh.api.guard-pr-list"].not_modified == 1
    assert ops["gh.api.guard-pr-list"].failed == 1
    assert ops["gh.api.graphql-batch"].graphql_cost == 2
    assert ops["gh.pr.view"].mean_ms == 2500.0
    assert dict(s.statuses) == {None: 2, 200: 5, 304: 1, 502: 1}


def test_longest_request(frame: TraceFrame) -> None:
    lg = summarize(frame).longest
    assert lg is not None
    assert (lg.operation, lg.duration_ms, lg.http_status, lg.ok) == (
        "gh.pr.view",
        2500.0,
        None,
        True,
    )


def test_burn_per_window_and_straddle(frame: TraceFrame) -> None:
    s = summarize(frame)
    windows = [
        (w.resource, w.reset, w.remaining_start, w.remaining_end, w.delta) for w in s.windows
    ]
    assert windows == [
        ("core", RESET_A, 4990, 4989, 1),
        ("core", RESET_B, 4999, 4996, 3),
        ("graphql", RESET_A, 4998, 4998, 0),
    ]
    core_a, core_b = s.windows[:2]
    # each over the part of the trace it covers: A until B opened with its first row
    assert (core_a.span_s, core_b.span_s, core_b.elapsed_s) == (120.0, 30.0, 30.0)
    assert core_b.per_hour == 3 * 120
    assert core_b.short  # a minute, extrapolated to an hour
    assert s.straddled == ("core",)
    text = "\n".join(summary_lines(s))
    assert "WARNING: core straddled 2 reset windows" in text
    assert "graphql" not in text.split("WARNING")[1]


def test_json_is_serialisable_and_versioned(frame: TraceFrame) -> None:
    data = json.loads(json.dumps(summarize(frame).to_json()))
    assert data["schemaVersion"] == 2
    assert [w["spanSeconds"] for w in data["burnWindows"]] == [120.0, 30.0, 150.0]
    assert data["kind"] == "summary"
    assert data["straddled"] == ["core"]
    assert sum(o["calls"] for o in data["operations"]) == data["rows"]


def test_empty_frame() -> None:
    s = summarize(TraceFrame.from_rows([]))
    assert s.rows == 0 and s.longest is None and s.windows == ()
    assert "no rows" in "\n".join(summary_lines(s))
