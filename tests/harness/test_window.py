"""ghbench.harness.window: what a window measured and how its result ends a run: the
``report`` command that recomputes its scorecard, and which error an incomplete run
raises (a scorecard not written, a signal, a dead orchestrator, rows lost)."""

from __future__ import annotations

import shlex
import signal
from pathlib import Path

import pytest

from ghbench.artifacts.models import ScorecardArtifact
from ghbench.clock import VirtualClock
from ghbench.data import example_trace_path
from ghbench.drivers.base import TracingReport
from ghbench.errors import ArtifactError, GhbenchError, Interrupted
from ghbench.harness.report import report_trace
from ghbench.harness.window import Measurement, MeasureResult
from ghbench.trace.writer import TraceLoss

TRACE = Path("/runs/out dir/gh-trace-bench-1.jsonl")


@pytest.fixture(scope="module")
def scorecard(tmp_path_factory: pytest.TempPathFactory) -> ScorecardArtifact:
    """A real scorecard: the packaged example trace's."""
    return report_trace(
        example_trace_path(),
        start=None,
        end=None,
        agent_trace=None,
        out_dir=tmp_path_factory.mktemp("report"),
        clock=VirtualClock(1_776_416_700.0),
        read_problems=lambda *_: None,
    ).scorecard


def _result(
    scorecard: ScorecardArtifact, measurement: Measurement, **more: object
) -> MeasureResult:
    return MeasureResult(
        TRACE,
        TRACE.with_name("scorecard.json"),
        scorecard,
        console="",
        paths={},
        measurement=measurement,
        validation_calls=0,
        **more,  # type: ignore[arg-type]
    )


def test_the_recompute_command_names_the_window_and_is_quoted(scorecard: ScorecardArtifact) -> None:
    command = _result(scorecard, Measurement(TRACE, 1)).recompute_command()
    window = scorecard.window
    assert shlex.split(command) == [
        "ghbench",
        "report",
        "--trace",
        str(TRACE),
        "--warmup-end",
        window.start,
        "--window-end",
        window.end,
        "--out",
        str(TRACE.parent),
    ]


def test_a_complete_window_raises_nothing(scorecard: ScorecardArtifact) -> None:
    _result(scorecard, Measurement(TRACE, 1)).raise_for_outcome()


def test_a_scorecard_not_written_says_how_to_recompute_it(scorecard: ScorecardArtifact) -> None:
    result = _result(scorecard, Measurement(TRACE, 1), scorecard_error="No space left on device")
    with pytest.raises(ArtifactError, match=r"not written \(No space left on device\)") as e:
        result.raise_for_outcome()
    assert result.recompute_command() in str(e.value)


def test_a_signal_is_an_interruption_with_its_exit_code(scorecard: ScorecardArtifact) -> None:
    result = _result(scorecard, Measurement(TRACE, 1), interrupted=signal.SIGTERM)
    with pytest.raises(Interrupted, match="SIGTERM") as raised:
        result.raise_for_outcome()
    assert raised.value.exit_code == 128 + signal.SIGTERM


@pytest.mark.parametrize(
    ("died", "failed", "advice"),
    [(True, False, "check the orchestrator's log"), (False, True, "run again")],
)
def test_a_run_cut_short_keeps_its_trace_and_says_what_to_do(
    died: bool, failed: bool, advice: str, scorecard: ScorecardArtifact
) -> None:
    measured = Measurement(TRACE, 1, orchestrator_died=died, benchmark_failed=failed)
    with pytest.raises(GhbenchError, match=f"trace is kept at .*; {advice}$"):
        _result(scorecard, measured).raise_for_outcome()


def test_rows_lost_from_every_tracer_fail_the_run(scorecard: ScorecardArtifact) -> None:
    measured = Measurement(TRACE, 1)
    full = "No space left on device"
    measured.record_tracing(
        TracingReport(
            notes=("the gh shim could not write",),
            losses=(TraceLoss(trace="a", rows=1_200, reason=full),),
        )
    )
    measured.record_tracing(TracingReport(losses=(TraceLoss(trace="b", rows=3, reason=full),)))
    assert (measured.rows_lost, measured.events) == (1_203, ["the gh shim could not write"])
    with pytest.raises(GhbenchError, match=r"^1,203 trace row\(s\) could not be written"):
        _result(scorecard, measured).raise_for_outcome()
