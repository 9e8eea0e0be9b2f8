"""ghbench.harness.report: a scorecard recomputed from a trace (the packaged example, 208
rows), its window from the flags, the agents' trace beside it, and what is refused
before anything is written. (The ``report`` command end to end, its golden artifact:
tests/commands/test_report.py.)

``report``'s window from its flags (``time_bounds``): each bound as typed and in epoch
ms, and a window that would run backwards refused before any trace is read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.data import example_trace_path
from ghbench.errors import ArtifactError, TraceError, UsageError
from ghbench.harness.report import (
    ReportResult,
    TimeBound,
    report_scenario_id,
    report_trace,
    time_bounds,
)
from ghbench.trace.files import agent_trace_path

FAR_FUTURE_MS = 4_102_444_800_000  # 2100
FAR_PAST_MS = 946_684_800_000  # 2000


def _report(trace: Path, out: Path, **given: object) -> ReportResult:
    kwargs: dict[str, object] = {"start": None, "end": None, "agent_trace": None}
    kwargs.update(given)
    return report_trace(
        trace,
        out_dir=out,
        clock=VirtualClock(1_776_416_700.0),
        read_problems=lambda *_: None,
        **kwargs,  # type: ignore[arg-type]
    )


def test_scenario_id_from_the_trace_file_name() -> None:
    assert (
        report_scenario_id(Path("out/gh-trace-bench-1776400000.jsonl"))
        == "gh-trace-bench-1776400000"
    )
    assert report_scenario_id(Path("my trace (copy).jsonl")) == "my-trace-copy"
    assert report_scenario_id(Path("...jsonl")) == "trace"


def test_a_report_writes_its_artifact_and_page_beside_and_never_over(tmp_path: Path) -> None:
    first = _report(example_trace_path(), tmp_path / "out")
    second = _report(example_trace_path(), tmp_path / "out")
    assert first.path != second.path and first.page != second.page
    assert first.path.read_text() == second.path.read_text()  # one trace, one answer
    assert first.page.read_text().lstrip().lower().startswith("<!doctype html")
    assert first.agent_trace is None
    assert json.loads(first.path.read_text())["scenarioId"] == "example-trace"


@pytest.mark.parametrize(
    ("bound", "message"),
    [
        ("start", "--warmup-end 2100-01-01 is after the trace's last row"),
        ("end", "--window-end 2000-01-01 is before the trace's first row"),
    ],
)
def test_a_window_outside_the_trace_names_the_flag(
    bound: str, message: str, tmp_path: Path
) -> None:
    given = (
        {"start": TimeBound("--warmup-end", "2100-01-01", FAR_FUTURE_MS)}
        if bound == "start"
        else {"end": TimeBound("--window-end", "2000-01-01", FAR_PAST_MS)}
    )
    with pytest.raises(UsageError, match=message):
        _report(example_trace_path(), tmp_path / "out", **given)
    assert not (tmp_path / "out").exists()  # nothing written


def test_an_agents_trace_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"--agent-trace .*: no such file"):
        _report(example_trace_path(), tmp_path / "out", agent_trace=tmp_path / "agents.jsonl")


def test_the_agents_trace_a_run_left_beside_is_read_when_it_has_rows(tmp_path: Path) -> None:
    trace = tmp_path / "gh-trace-bench-1.jsonl"
    shutil.copy(example_trace_path(), trace)
    agents = agent_trace_path(trace)
    agents.write_text("")
    assert _report(trace, tmp_path / "out").agent_trace is None  # no agent call traced
    lines = example_trace_path().read_text().splitlines(keepends=True)
    agents.write_text("".join(lines[1:6]))
    assert _report(trace, tmp_path / "out").agent_trace == agents


def test_a_trace_of_control_rows_only_has_nothing_to_score(tmp_path: Path) -> None:
    trace = tmp_path / "control.jsonl"
    trace.write_text(
        '{"timestamp":"2026-12-06T10:00:00Z","component":"benchmark-control",'
        '"operation":"rest.rate_limit","ok":true}\n'
    )
    with pytest.raises(TraceError, match="only benchmark-control rows"):
        _report(trace, tmp_path / "out")


def test_an_out_dir_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ArtifactError, match=r"--out .*: cannot create the directory"):
        _report(example_trace_path(), tmp_path / "file" / "out")


def test_no_bounds_leave_the_trace_its_own() -> None:
    assert time_bounds(None, None) == (None, None)


def test_each_bound_keeps_its_flag_and_text() -> None:
    start, end = time_bounds("2026-01-01T00:00:00Z", "2026-01-01T00:15:00Z")
    assert start == TimeBound("--warmup-end", "2026-01-01T00:00:00Z", 1_767_225_600_000)
    assert end is not None and end.flag == "--window-end"
    assert end.ms - start.ms == 15 * 60 * 1000


def test_a_window_that_runs_backwards_is_refused() -> None:
    with pytest.raises(UsageError, match="--window-end is before --warmup-end"):
        time_bounds("2026-01-01T00:15:00Z", "2026-01-01T00:00:00Z")


def test_a_bound_that_is_no_instant_names_its_flag() -> None:
    with pytest.raises(UsageError, match="--window-end"):
        time_bounds(None, "yesterday")
