"""``RunResult``: a run's trace, its typed scorecard and the file it was written to."""

from __future__ import annotations

import json
from pathlib import Path

from ghbench.artifacts.models import load_scorecard
from ghbench.clock import VirtualClock
from ghbench.data import example_trace_path
from ghbench.harness.report import report_trace
from ghbench.runspec.result import RunResult


def test_the_scorecard_json_is_the_file_it_was_written_to(tmp_path: Path) -> None:
    report = report_trace(
        example_trace_path(),
        start=None,
        end=None,
        agent_trace=None,
        out_dir=tmp_path,
        clock=VirtualClock(1_776_416_700.0),
        read_problems=lambda *_: None,
    )
    result = RunResult(example_trace_path(), report.path, report.scorecard)
    assert result.scorecard_json() == report.path.read_text()
    assert (
        json.loads(result.scorecard_json())["scenarioId"] == load_scorecard(report.path).scenario_id
    )
