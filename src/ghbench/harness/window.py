"""What a measurement window is: its options, its triggers, what it recorded, its result.

``ghbench.harness.measure`` runs a window; ``ghbench.harness.measure_outputs`` writes
what it measured. Both, and the matrix's triggers, share these types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ghbench.errors import ArtifactError, GhbenchError, Interrupted, signal_label
from ghbench.ratelimit import RateLimitSnapshot

__all__ = ["MeasureOptions", "MeasureResult", "WindowRecord", "WindowTrigger"]


@dataclass(frozen=True)
class WindowTrigger:
    """An action run ``at_s`` seconds into the window (the matrix's scenario triggers).

    It runs on the measuring thread, between the orchestrator checks; it gets the
    window's record (for the trace path) and may stop and restart the orchestrator.
    """

    at_s: float
    label: str
    action: Callable[[WindowRecord], None]


@dataclass(frozen=True)
class MeasureOptions:
    out_dir: Path
    warmup: float
    duration: float
    warmup_text: str
    duration_text: str
    stop_grace: float = 10.0
    plot: bool = True
    supplemental: bool = True
    triggers: tuple[WindowTrigger, ...] = ()
    # checked between the orchestrator checks: a reason ends the window before its
    # duration (the A/B smoke ends at the build's first traced call)
    end_when: Callable[[WindowRecord], str | None] | None = None


@dataclass
class WindowRecord:
    """What the run measured, complete or not."""

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


@dataclass(frozen=True)
class MeasureResult:
    """Everything written. ``raise_for_outcome`` turns an incomplete run into its error."""

    scorecard_path: Path
    trace_path: Path
    console: str
    paths: dict[str, Path]
    record: WindowRecord
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
        if self.record.orchestrator_died:
            raise GhbenchError(
                f"{self.record.incomplete_reason}; the trace is kept at {self.trace_path} and"
                f" the scorecard {self.scorecard_path} is marked incomplete; check the"
                " orchestrator's log"
            )
