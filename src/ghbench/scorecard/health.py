"""A run's health: what skewed or cut short what it measured, as typed warnings.

Pure: the trace's rows, the window and what the harness saw besides them (``RunHealth``)
in; ``RunWarning``s out, each with what happened, its figures and what to do. The
bounds (``HealthBounds``) are documented in docs/scorecard.md ("Warnings").

- ``rows-lost``: rows a tracer could not write (a full disk); the run is incomplete.
- ``hung-calls``: calls in the window that took longer than GitHub lets a request run.
- ``trace-gap``: a stretch of the window with no row, longer than a few poll intervals.
- ``late-snapshot``: a ``/rate_limit`` snapshot answered well after the window's edge,
  so the bracket delta covers more (or less) than the window.
- ``disk-full``: the trace's filesystem was seen full during the window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ghbench.artifacts.models import RunWarning
from ghbench.scorecard.window import MeasureWindow
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT
from ghbench.trace.writer import TraceLoss

__all__ = ["ACTIONS", "HealthBounds", "RunHealth", "health_warnings", "incomplete_reason"]

# what to do, by kind
ACTIONS: dict[str, str] = {
    "rows-lost": (
        "free space on the trace's disk (or give --out a disk with room) and run again;"
        " this scorecard counts only the rows that were written and is marked incomplete"
    ),
    "hung-calls": (
        "the API (or the network to it) stalled: rates and percentiles are skewed; check"
        " the emulator's or the proxy's log, and run again"
    ),
    "trace-gap": (
        "the orchestrator made no call then (it stalled, or the API did not answer), or"
        " its rows were lost (rows-lost): calls/min is depressed; check the"
        " orchestrator's log and run again"
    ),
    "late-snapshot": (
        "trust the per-row figures over the bracket delta, or run again when the API"
        " answers promptly"
    ),
    "disk-full": (
        "rows written then may be lost: ghbench's tracers count theirs (rows-lost), AO's"
        " TypeScript builds do not; free space on that disk and run again"
    ),
}


@dataclass(frozen=True)
class HealthBounds:
    """When a warning fires."""

    # GitHub ends a request after 10 s (limits reference): a call longer than that was
    # held up on the way (a stalled API, proxy or network), not answered slowly
    hung_call_s: float = 10.0
    # a stretch with no row longer than this many poll intervals: the model drops a
    # tick that comes due while one runs, so one missing tick is normal, three are not
    gap_polls: float = 3.0
    # a /rate_limit snapshot on GitHub takes well under a second; one retried after a
    # server error takes several
    late_snapshot_s: float = 5.0


@dataclass(frozen=True)
class RunHealth:
    """What the harness saw of a run besides its rows.

    ``poll_interval_s``: the orchestrator's poll interval (the gaps are measured in
    it); ``losses``: rows its tracers could not write; ``snapshot_delays``: seconds
    from a window edge to its snapshot's answer (``before``, ``after``);
    ``full_disk``: when (epoch s) the trace's filesystem was seen full."""

    poll_interval_s: float
    losses: Sequence[TraceLoss] = ()
    snapshot_delays: Mapping[str, float] = field(default_factory=dict)
    full_disk: Sequence[float] = ()
    bounds: HealthBounds = HealthBounds()


def _warning(
    kind: str,
    message: str,
    *,
    count: int | None = None,
    seconds: float | None = None,
    at: str | None = None,
) -> RunWarning:
    return RunWarning(
        kind=kind, message=message, action=ACTIONS[kind], count=count, seconds=seconds, at=at
    )


def _merged(losses: Sequence[TraceLoss]) -> list[TraceLoss]:
    """One loss per trace (a restarted orchestrator reports its own), in order."""
    merged: dict[str, TraceLoss] = {}
    for loss in losses:
        seen = merged.get(loss.trace)
        rows = loss.rows + (seen.rows if seen else 0)
        merged[loss.trace] = TraceLoss(trace=loss.trace, rows=rows, reason=loss.reason)
    return list(merged.values())


def incomplete_reason(reason: str | None, losses: Sequence[TraceLoss]) -> str | None:
    """The run's incomplete reason with its lost rows added: a run that lost rows is
    incomplete, whatever else happened."""
    lost = sum(loss.rows for loss in losses)
    if not lost:
        return reason
    why = "; ".join(f"{loss.reason}: {loss.trace}" for loss in _merged(losses))
    text = f"{lost:,} trace row(s) could not be written ({why})"
    return text if reason is None else f"{reason}; {text}"


def _rows_lost(losses: Sequence[TraceLoss]) -> list[RunWarning]:
    return [
        _warning(
            "rows-lost",
            f"{loss.rows:,} row(s) could not be written to {loss.trace} ({loss.reason})",
            count=loss.rows,
        )
        for loss in _merged(losses)
    ]


def _hung_calls(frame: TraceFrame, window: MeasureWindow, bound_s: float) -> list[RunWarning]:
    """Calls that ran past the bound while the window was open (one that completed
    after it ended, too: it hung across the end)."""
    duration = frame.duration_ms
    end = frame.ts_ms.astype(np.float64)
    long = np.isfinite(duration) & (duration > bound_s * 1000)
    overlaps = (end >= window.start_ms) & (end - duration <= window.end_ms)
    hung = long & overlaps & ~frame.component.mask(CONTROL_COMPONENT)
    count = int(np.count_nonzero(hung))
    if not count:
        return []
    longest = int(np.argmax(np.where(hung, duration, -1.0)))
    seconds = float(duration[longest]) / 1000
    began = (float(end[longest]) - float(duration[longest])) / 1000
    what = f"{count:,} call(s) ran longer than {bound_s:g} s"
    return _longest("hung-calls", what, count, seconds, began)


def _gaps(rows: TraceFrame, window: MeasureWindow, poll_s: float, polls: float) -> list[RunWarning]:
    """Stretches of the window with no row (its edges count as rows) longer than
    ``polls`` poll intervals."""
    bound_ms = polls * poll_s * 1000
    edges = np.concatenate(
        ([window.start_ms], np.sort(rows.ts_ms), [window.end_ms]), dtype=np.float64
    )
    gaps = np.diff(edges)
    over = gaps > bound_ms
    count = int(np.count_nonzero(over))
    if not count:
        return []
    widest = int(np.argmax(gaps))
    seconds = float(gaps[widest]) / 1000
    began = float(edges[widest]) / 1000
    what = (
        f"{count:,} stretch(es) of the window had no row for more than {polls:g} poll"
        f" intervals of {poll_s:g} s"
    )
    return _longest("trace-gap", what, count, seconds, began)


def _longest(kind: str, what: str, count: int, seconds: float, began: float) -> list[RunWarning]:
    """One warning for ``count`` stretches (``what`` says of what), the longest
    ``seconds`` long from ``began`` (epoch seconds)."""
    at = iso_ms(began)
    message = f"{what} (the longest {seconds:.1f} s, from {at})"
    return [_warning(kind, message, count=count, seconds=round(seconds, 3), at=at)]


_EDGES = {"before": ("start", "misses"), "after": ("end", "also counts")}


def _late_snapshots(
    delays: Mapping[str, float], window: MeasureWindow, bound_s: float
) -> list[RunWarning]:
    out = []
    for which, (edge, effect) in _EDGES.items():
        delay = delays.get(which)
        if delay is None or delay <= bound_s:
            continue
        at = (window.start_ms if which == "before" else window.end_ms) / 1000
        out.append(
            _warning(
                "late-snapshot",
                f"the {which}-snapshot answered {delay:.1f} s after the window's {edge}"
                f" (over {bound_s:g} s): the bracket delta {effect} the calls of those"
                f" {delay:.1f} s",
                seconds=round(delay, 3),
                at=iso_ms(at),
            )
        )
    return out


def _full_disk(seen: Sequence[float]) -> list[RunWarning]:
    if not seen:
        return []
    first, last = min(seen), max(seen)
    return [
        _warning(
            "disk-full",
            f"the trace's filesystem was full from {iso_ms(first)}"
            f" (seen {len(seen):,} time(s) over {last - first:.0f} s)",
            count=len(seen),
            seconds=round(last - first, 3),
            at=iso_ms(first),
        )
    ]


def health_warnings(
    frame: TraceFrame, rows: TraceFrame, window: MeasureWindow, health: RunHealth
) -> list[RunWarning]:
    """Every warning the run earned, in a fixed order: lost rows first.

    ``frame``: the whole trace (a call can hang across the window's end); ``rows``:
    the window's rows."""
    bounds = health.bounds
    return [
        *_rows_lost(health.losses),
        *_full_disk(health.full_disk),
        *_hung_calls(frame, window, bounds.hung_call_s),
        *_gaps(rows, window, health.poll_interval_s, bounds.gap_polls),
        *_late_snapshots(health.snapshot_delays, window, bounds.late_snapshot_s),
    ]
