"""The harness's one seam to the scorecard engine (``ghbench.scorecard``).

It turns what ``measure`` recorded (window, snapshots, control-call count, the
incomplete reason) into the engine's inputs, and adds any run events below the
engine's console text.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ghbench.github.control import RateLimitSnapshot
from ghbench.harness.setup_record import SetupRecord
from ghbench.timefmt import iso_ms

if TYPE_CHECKING:
    from ghbench.artifacts.models import ScorecardArtifact
    from ghbench.harness.measure import MeasureOptions, WindowRecord
    from ghbench.trace.frame import TraceFrame

__all__ = ["CONSOLE_LABELS", "build_artifact", "console_text", "save_scorecard", "snapshot_json"]

# what each written file is called on the console, in the order shown
CONSOLE_LABELS = {
    "trace": "Trace",
    "scorecard": "Scorecard",
    "burn": "Burn curve",
    "summarizerOutput": "Summary",
    "analyzerOutput": "Analysis",
}


def snapshot_json(snap: RateLimitSnapshot) -> dict[str, object]:
    """The spec's snapshot shape: ``capturedAt`` plus ``{limit, remaining, used, reset}``."""
    out: dict[str, object] = {"capturedAt": iso_ms(snap.captured_at)}
    for name, b in snap.resources.items():
        out[name] = {"limit": b.limit, "remaining": b.remaining, "used": b.used, "reset": b.reset}
    return out


def build_artifact(
    frame: TraceFrame,
    *,
    record: WindowRecord,
    setup: SetupRecord,
    sessions: int,
    options: MeasureOptions,
    git_sha: str | None,
    branch: str | None,
    supplemental: Mapping[str, str],
) -> ScorecardArtifact:
    from ghbench.scorecard import build_scorecard_artifact

    assert record.start is not None and record.end is not None
    snapshots: dict[str, object] | None = None
    if record.before is not None or record.after is not None:
        snapshots = {
            "before": None if record.before is None else snapshot_json(record.before),
            "after": None if record.after is None else snapshot_json(record.after),
        }
    return build_scorecard_artifact(
        frame,
        window_start_ms=round(record.start * 1000),
        window_end_ms=round(record.end * 1000),
        scenario_id=setup.scenario_id,
        measured_at=record.end,
        warmup_requested=options.warmup_text,
        duration_requested=options.duration_text,
        warmup_end_ms=None if record.warmup_end is None else round(record.warmup_end * 1000),
        snapshots=snapshots,
        control_calls=record.control_calls_in_window,
        session_count=sessions,
        git_sha=git_sha,
        branch=branch,
        trace_path=str(record.trace_path),
        supplemental=dict(supplemental),
        incomplete_reason=record.incomplete_reason,
    )


def save_scorecard(artifact: ScorecardArtifact, path: Path) -> Path:
    from ghbench.scorecard import write_scorecard

    return write_scorecard(artifact, path)


def console_text(
    artifact: ScorecardArtifact, *, color: bool, paths: Mapping[str, Path], record: WindowRecord
) -> str:
    from ghbench.scorecard import render_console

    shown = {CONSOLE_LABELS.get(k, k): str(v) for k, v in paths.items()}
    text = render_console(artifact, color=color, paths=shown).rstrip("\n")
    notes = [f"  note: {e}" for e in record.events]
    return "\n".join([text, *notes])
