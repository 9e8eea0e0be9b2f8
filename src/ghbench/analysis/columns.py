"""Vectorised group-by helpers over a ``TraceFrame``'s columns.

Every count here is one ``np.bincount`` over dictionary codes or small integers, so a
1,000,000-row trace costs a few milliseconds per table and no Python loop runs per row.
Loops run over labels (operations, statuses, endpoints), which number in the tens.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ghbench.scorecard import rates
from ghbench.trace.frame import NA, Categorical, TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT

__all__ = [
    "MISSING",
    "Counted",
    "TraceSpan",
    "count_categorical",
    "count_ints",
    "measured_rows",
    "sum_by_code",
]

# How a missing label (code -1) or a missing integer is shown.
MISSING = "(none)"

Mask = npt.NDArray[np.bool_]


class TraceSpan:
    """``span_s`` and ``calls_per_min`` of a result with ``rows``, ``first_ms``, ``last_ms``."""

    rows: int
    first_ms: int | None
    last_ms: int | None

    @property
    def span_s(self) -> float:
        if self.first_ms is None or self.last_ms is None:
            return 0.0
        return (self.last_ms - self.first_ms) / 1000.0

    @property
    def calls_per_min(self) -> float | None:
        """Rows per minute over the span, as every rate is computed (``scorecard.rates``)."""
        return rates.per_minute(self.rows, self.span_s * 1000.0)


@dataclass(frozen=True)
class Counted:
    """One group: its label, how many rows, and their share of the whole."""

    label: str
    count: int
    share: float


def measured_rows(frame: TraceFrame) -> tuple[TraceFrame, int]:
    """The rows the analyses count: everything but the harness's own control calls.

    Returns the filtered frame and how many control rows were dropped.
    """
    control = frame.component.mask(CONTROL_COMPONENT)
    dropped = int(control.sum())
    if dropped == 0:
        return frame, 0
    return frame.take(~control), dropped


def _codes(cat: Categorical, mask: Mask | None) -> npt.NDArray[np.int32]:
    return cat.codes if mask is None else cat.codes[mask]


def count_categorical(cat: Categorical, mask: Mask | None = None) -> list[Counted]:
    """Rows per label (missing labels grouped as ``(none)``), most frequent first."""
    codes = _codes(cat, mask)
    total = int(codes.shape[0])
    counts = np.bincount(codes.astype(np.int64) + 1, minlength=len(cat.labels) + 1)
    names = (MISSING, *cat.labels)
    out = [
        Counted(names[i], int(c), c / total if total else 0.0)
        for i, c in enumerate(counts.tolist())
        if c
    ]
    out.sort(key=lambda g: (-g.count, g.label))
    return out


def sum_by_code(
    cat: Categorical, weights: npt.NDArray[np.float64], mask: Mask | None = None
) -> dict[str, float]:
    """Sum of ``weights`` per label (missing labels as ``(none)``)."""
    codes = _codes(cat, mask)
    w = weights if mask is None else weights[mask]
    sums = np.bincount(codes.astype(np.int64) + 1, weights=w, minlength=len(cat.labels) + 1)
    names = (MISSING, *cat.labels)
    return {names[i]: float(s) for i, s in enumerate(sums.tolist())}


def count_ints(values: npt.NDArray[np.int64], mask: Mask | None = None) -> list[tuple[int, int]]:
    """(value, rows) for each distinct integer (``NA`` included), ascending by value.

    HTTP statuses and exit codes are small non-negative numbers, so a bincount does it;
    anything outside 0..9,999 falls back to ``np.unique``.
    """
    v = values if mask is None else values[mask]
    if v.shape[0] == 0:
        return []
    present = v != NA
    na_count = int(v.shape[0] - int(present.sum()))
    vals = v[present]
    out: list[tuple[int, int]] = []
    if vals.shape[0]:
        lo, hi = int(vals.min()), int(vals.max())
        if lo >= 0 and hi < 10_000:
            counts = np.bincount(vals, minlength=hi + 1)
            nz = np.flatnonzero(counts)
            out = [(int(i), int(counts[i])) for i in nz]
        else:
            uniq, counts = np.unique(vals, return_counts=True)
            out = [(int(u), int(c)) for u, c in zip(uniq, counts, strict=True)]
    if na_count:
        out.insert(0, (NA, na_count))
    return out
