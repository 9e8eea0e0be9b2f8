"""What a measurement window is: how it runs, its triggers, what it measured, its result.

The window's length, warmup and directory are the run's (``RunSpec``); ``WindowPlan``
says what else happens in it. ``ghbench.harness.measure`` runs a window;
``ghbench.harness.measure_outputs`` writes what it measured. Both, and the matrix's
triggers, share these types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.drivers.base import TraceSink
from ghbench.errors import ArtifactError, GhbenchError, Interrupted, signal_label
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.result import RunResult

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

    @property
    def sink(self) -> TraceSink:
        """Where the window's rows go."""
        return TraceSink(self.trace_path)


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

    def raise_for_outcome(self) -> None:
        if self.scorecard_error is not None:
            raise ArtifactError(
                f"the scorecard was not written ({self.scorecard_error}); its figures are"
                f" above, the trace is kept at {self.trace_path}"
            )
        if self.interrupted is not None:
            raise Interrupted(
                f"measurement interrupted ({signal_label(self.interrupted)}); incomplete"
                f" scorecard written to {self.scorecard_path}",
                self.interrupted,
            )
        if self.measurement.orchestrator_died:
            raise GhbenchError(
                f"{self.measurement.incomplete_reason}; the trace is kept at {self.trace_path}"
                f" and the scorecard {self.scorecard_path} is marked incomplete; check the"
                " orchestrator's log"
            )
