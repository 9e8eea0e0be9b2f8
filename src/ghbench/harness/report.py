"""``report``: a scorecard recomputed from an existing trace (the spec's report mode).

The window runs from ``warmup_end`` (else the earliest row) to ``window_end`` (else the
latest row). Snapshot fields and ``benchmarkControlCalls`` are null: a trace alone
cannot know them. The agents' trace, given or left beside the trace by a run, splits
their spend from the orchestrator's. The artifact and its HTML page are written under
``out_dir`` (never over a file); what the trace readers skipped goes to
``read_problems`` as it is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.clock import Clock
from ghbench.errors import ArtifactError, TraceError, UsageError, make_dir
from ghbench.pages.burn import BURN_COLUMNS
from ghbench.pages.scorecard_page import report_path, scorecard_report
from ghbench.scorecard import SCORECARD_COLUMNS, build_scorecard_artifact, write_scorecard
from ghbench.scorecard.window import resolve_report_window
from ghbench.timefmt import instant_flag
from ghbench.trace.files import agents_beside
from ghbench.trace.frame import TraceFrame
from ghbench.trace.reader import read_trace

__all__ = ["ReportResult", "TimeBound", "report_scenario_id", "report_trace", "time_bounds"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# (a frame that was read, its path, where the unread lines are listed)
ReadProblems = Callable[[TraceFrame, Path, str], None]


@dataclass(frozen=True)
class TimeBound:
    """A bound of the window as the flag gave it (``text``) and in epoch ms."""

    flag: str
    text: str
    ms: int


def time_bounds(
    warmup_end: str | None, window_end: str | None
) -> tuple[TimeBound | None, TimeBound | None]:
    """``--warmup-end`` and ``--window-end`` as the window's bounds (None: the trace's
    first or last row); a window that would run backwards is refused."""
    start, end = (
        None if text is None else TimeBound(flag, text, instant_flag(flag, text))
        for flag, text in (("--warmup-end", warmup_end), ("--window-end", window_end))
    )
    if start is not None and end is not None and end.ms < start.ms:
        raise UsageError("--window-end is before --warmup-end; the window would run backwards")
    return start, end


@dataclass(frozen=True)
class ReportResult:
    scorecard: ScorecardArtifact
    path: Path
    agent_trace: Path | None  # the agents' trace that split the spend
    page: Path  # the scorecard's HTML page


def report_scenario_id(trace: Path) -> str:
    """Report mode has no scenario; the trace's file name (without ``.jsonl``) stands in."""
    stem = trace.name.removesuffix(".jsonl").removesuffix(".json")
    return _UNSAFE.sub("-", stem).strip("-.") or "trace"


def _agent_trace(given: Path | None, trace: Path) -> Path | None:
    """``given``, else the agents' trace beside ``trace`` if the run left one."""
    if given is None:
        return agents_beside(trace)
    if not given.is_file():
        raise UsageError(f"--agent-trace {given}: no such file; pass the agents' trace")
    return given


def _ensure_dir(out_dir: Path) -> Path:
    return make_dir(
        out_dir, lambda why: ArtifactError(f"--out {out_dir}: cannot create the directory: {why}")
    )


def report_trace(
    trace: Path,
    *,
    start: TimeBound | None,
    end: TimeBound | None,
    agent_trace: Path | None,
    out_dir: Path,
    clock: Clock,
    read_problems: ReadProblems,
) -> ReportResult:
    """Score ``trace`` over the window from ``start`` to ``end`` and write the artifact."""
    columns = (*SCORECARD_COLUMNS, *BURN_COLUMNS)  # the scorecard's, and the page's curves
    frame = read_trace(trace, columns=columns)
    read_problems(frame, trace, "; the artifact's readWarnings lists them")
    start_ms, end_ms = (None if b is None else b.ms for b in (start, end))
    try:
        window = resolve_report_window(frame, warmup_end_ms=start_ms, window_end_ms=end_ms)
    except ValueError:
        if start is not None:
            raise UsageError(
                f"{start.flag} {start.text} is after the trace's last row; nothing would be"
                " scored, so pick an earlier time"
            ) from None
        assert end is not None
        raise UsageError(
            f"{end.flag} {end.text} is before the trace's first row; nothing would be"
            " scored, so pick a later time"
        ) from None
    if window is None:
        raise TraceError(
            f"trace file {trace} has only benchmark-control rows; there is nothing to"
            " score (pass --warmup-end and --window-end to score an empty window)"
        )
    agents = _agent_trace(agent_trace, trace)
    agent_frame = None
    if agents is not None:
        agent_frame = read_trace(agents, columns=columns)
        read_problems(agent_frame, agents, "")
    artifact = build_scorecard_artifact(
        frame,
        window_start_ms=window.start_ms,
        window_end_ms=window.end_ms,
        warmup_end_ms=start_ms,
        scenario_id=report_scenario_id(trace),
        measured_at=clock.now(),
        trace_path=str(trace),
        agent_frame=agent_frame,
        agent_trace_path=None if agents is None else str(agents),
    )
    path = write_scorecard(artifact, _ensure_dir(out_dir))
    page = scorecard_report(artifact, frame, agents=agent_frame).encode()
    return ReportResult(
        artifact, path, agents, write_new(unique_path(*report_path(path), ".html"), page)
    )
