"""What a measurement window is: how it runs, its triggers, what it measured, its result.

The window's length, warmup and directory are the run's (``RunSpec``); ``WindowPlan``
says what else happens in it. ``ghbench.harness.measure`` runs a window;
``ghbench.harness.measure_outputs`` writes what it measured. Both, and the matrix's
triggers, share these types.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.drivers.base import TraceSink, TracingReport
from ghbench.errors import ArtifactError, GhbenchError, Interrupted, signal_label
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.result import RunResult
from ghbench.scorecard.health import HealthBounds
from ghbench.trace.writer import TraceLoss

__all__ = ["MeasureResult", "Measurement", "WindowPlan", "WindowTrigger"]


@dataclass(frozen=True)
class WindowTrigger:
    """An action run ``at_s`` seconds into the window (the matrix's scenario triggers).

    It runs on the measuring thread, between the orchestrator checks; it gets the
    window's measurement (for its trace) and may stop and restart the orchestrator.
    """

    at_s: float
    label: str
    action: Callable[[Measurement], None]


@dataclass(frozen=True)
class WindowPlan:
    """What happens in a window besides the orchestrator polling, and what it writes."""

    stop_grace: float = 10.0
    plot: bool = True
    supplemental: bool = True
    triggers: tuple[WindowTrigger, ...] = ()
    # checked between the orchestrator checks: a reason ends the window before its
    # duration (the A/B smoke ends at the build's first traced call)
    end_when: Callable[[Measurement], str | None] | None = None
    health: HealthBounds = field(default_factory=HealthBounds)  # when its warnings fire


@dataclass
class Measurement:
    """What the window measured, complete or not."""

    trace_path: Path
    stamp: int
    start: float | None = None
    end: float | None = None
    warmup_end: float | None = None
    before: RateLimitSnapshot | None = None
    after: RateLimitSnapshot | None = None
    control_calls_in_window: int | None = None
    incomplete_reason: str | None = None
    orchestrator_exit: int | None = None
    orchestrator_died: bool = False
    events: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # optional outputs that failed
    # what the run saw of its own health: rows its tracers could not write, how long
    # each /rate_limit snapshot took to answer (``before``/``after``), when the trace's
    # disk was seen full
    losses: list[TraceLoss] = field(default_factory=list)
    snapshot_delays: dict[str, float] = field(default_factory=dict)
    full_disk: list[float] = field(default_factory=list)
    # a harness call inside the window failed (a snapshot): the run is cut short
    benchmark_failed: bool = False

    @property
    def sink(self) -> TraceSink:
        """Where the window's rows go."""
        return TraceSink(self.trace_path)

    @property
    def rows_lost(self) -> int:
        return sum(loss.rows for loss in self.losses)

    def record_tracing(self, report: TracingReport) -> None:
        """A driver's word on how the calls since it started were traced."""
        self.events.extend(report.notes)
        self.losses.extend(report.losses)


@dataclass(frozen=True)
class MeasureResult(RunResult):
    """Everything written. ``raise_for_outcome`` turns an incomplete run into its error.

    ``scorecard_path`` names the file even when it could not be written
    (``scorecard_error`` says why; the console still has the figures)."""

    console: str
    paths: dict[str, Path]
    measurement: Measurement
    validation_calls: int
    interrupted: int | None = None  # the signal that cut the run short: SIGINT, SIGTERM...
    scorecard_error: str | None = None  # the scorecard could not be written (console only)

    def recompute_command(self) -> str:
        """The ``ghbench report`` that recomputes this scorecard from the kept trace."""
        window = self.scorecard.window
        argv = ["ghbench", "report", "--trace", str(self.trace_path)]
        if window.start is not None and window.end is not None:
            argv += ["--warmup-end", window.start, "--window-end", window.end]
        argv += ["--out", str(self.trace_path.parent)]
        return shlex.join(argv)

    def raise_for_outcome(self) -> None:
        measured = self.measurement
        if self.scorecard_error is not None:
            marked = " (incomplete: see its warnings)" if self.scorecard.incomplete else ""
            raise ArtifactError(
                f"the scorecard was not written ({self.scorecard_error}); its figures are"
                f" above{marked}; the trace is kept at {self.trace_path}: once there is"
                f" space, recompute the scorecard with `{self.recompute_command()}`"
            )
        if self.interrupted is not None:
            raise Interrupted(
                f"measurement interrupted ({signal_label(self.interrupted)}); incomplete"
                f" scorecard written to {self.scorecard_path}",
                self.interrupted,
            )
        if measured.orchestrator_died or measured.benchmark_failed:
            advice = "check the orchestrator's log" if measured.orchestrator_died else "run again"
            raise GhbenchError(
                f"{self.scorecard.incomplete_reason}; the trace is kept at {self.trace_path}"
                f" and the scorecard {self.scorecard_path} is marked incomplete; {advice}"
            )
        if measured.rows_lost:
            raise GhbenchError(
                f"{measured.rows_lost:,} trace row(s) could not be written; the scorecard"
                f" {self.scorecard_path} counts only those that were and is marked"
                " incomplete: free space on the trace's disk and run again"
            )
