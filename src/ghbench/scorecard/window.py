"""The measurement window: which rows count, and how ``report`` chooses the window.

The spec counts rows with ``warmupEnd <= timestamp <= measureEnd`` (completion time,
both ends inclusive) and excludes every ``benchmark-control`` row from all math.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ghbench.scorecard import rates
from ghbench.trace.frame import Categorical, TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT

__all__ = [
    "MeasureWindow",
    "RowSelection",
    "resolve_report_window",
    "select_rows",
    "window_rows",
]


@dataclass(frozen=True)
class MeasureWindow:
    """``[start_ms, end_ms]`` in epoch milliseconds, both inclusive."""

    start_ms: int
    end_ms: int

    def __post_init__(self) -> None:
        if self.end_ms < self.start_ms:
            raise ValueError(f"window ends ({self.end_ms}) before it starts ({self.start_ms})")

    @property
    def duration_ms(self) -> int:
        return self.end_ms - self.start_ms

    def per_hour(self, amount: float) -> float | None:
        """``amount`` scaled to one hour (``rates.per_hour``); None for a zero-length
        window (no rate exists)."""
        return rates.per_hour(amount, self.duration_ms)

    def per_minute(self, amount: float) -> float | None:
        return rates.per_minute(amount, self.duration_ms)


@dataclass(frozen=True)
class RowSelection:
    """The in-window mask and the counts of rows left out, by reason."""

    mask: npt.NDArray[np.bool_]
    before_window: int
    after_window: int
    benchmark_control: int


def select_rows(frame: TraceFrame, window: MeasureWindow) -> RowSelection:
    """Rows inside the window that are not the harness's own ``benchmark-control`` calls."""
    ts = frame.ts_ms
    control = frame.component.mask(CONTROL_COMPONENT)
    early = ts < window.start_ms
    late = ts > window.end_ms
    inside = ~(early | late)
    return RowSelection(
        mask=inside & ~control,
        before_window=int(np.count_nonzero(early & ~control)),
        after_window=int(np.count_nonzero(late & ~control)),
        benchmark_control=int(np.count_nonzero(control)),
    )


def _slice(frame: TraceFrame, lo: int, hi: int) -> TraceFrame:
    """Rows ``lo:hi`` as views, not copies; every column, whatever the frame holds."""
    changes: dict[str, object] = {}
    for f in dataclasses.fields(frame):
        value = getattr(frame, f.name)
        if isinstance(value, np.ndarray):
            changes[f.name] = value[lo:hi]
        elif isinstance(value, Categorical):
            changes[f.name] = Categorical(value.codes[lo:hi], value.labels)
    return dataclasses.replace(frame, **changes)  # type: ignore[arg-type]


def window_rows(frame: TraceFrame, window: MeasureWindow) -> tuple[TraceFrame, RowSelection]:
    """The window's non-control rows as a frame, and the selection that chose them.

    A trace written in completion order with no control rows selects a contiguous run
    of rows; that case takes zero-copy views, which matters at a million rows.
    """
    selection = select_rows(frame, window)
    ts = frame.ts_ms
    if selection.benchmark_control == 0 and (ts.size < 2 or bool(np.all(ts[1:] >= ts[:-1]))):
        lo = int(np.searchsorted(ts, window.start_ms, side="left"))
        hi = int(np.searchsorted(ts, window.end_ms, side="right"))
        return _slice(frame, lo, hi), selection
    return frame.take(selection.mask), selection


def resolve_report_window(
    frame: TraceFrame, *, warmup_end_ms: int | None, window_end_ms: int | None
) -> MeasureWindow | None:
    """``report``'s window: ``--warmup-end`` (else the earliest row) to ``--window-end``
    (else the latest row), over rows that are not ``benchmark-control``.

    Returns None when a bound is missing and there is no row to take it from. Raises
    ValueError when the bounds run backwards; the caller names the flag.
    """
    keep = ~frame.component.mask(CONTROL_COMPONENT)
    ts = frame.ts_ms[keep]
    start = warmup_end_ms
    end = window_end_ms
    if start is None:
        if ts.size == 0:
            return None
        start = int(ts.min())
    if end is None:
        if ts.size == 0:
            return None
        end = int(ts.max())
    if end < start:
        raise ValueError("the window would end before it starts")
    return MeasureWindow(start, end)
