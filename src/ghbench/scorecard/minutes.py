"""Rows grouped by minute in memory bounded by the rows, never by the time they span.

A trace's rows may be years apart (a clock gone wrong, a hand-made trace): an array
with a slot per minute of that span could ask for gigabytes for two rows. Each row
gets the code of its minute among the minutes that have rows (0..k-1, in time
order): a dense pass when the minutes are packed (at most a few slots per row, the
usual trace), else a sort.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["MINUTE_MS", "minute_codes"]

MINUTE_MS = 60_000
_SLOTS_PER_ROW = 4  # a dense pass may use this many slots per row, plus _SLOTS_FREE
_SLOTS_FREE = 1 << 16


def minute_codes(
    ts_ms: npt.NDArray[np.int64], origin_ms: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(each row's code, each code's minute): minutes counted from ``origin_ms`` (0:
    calendar minutes since the epoch). Empty input gives two empty arrays."""
    minutes = (ts_ms - origin_ms) // MINUTE_MS
    if minutes.size == 0:
        return minutes, minutes
    lo = int(minutes.min())
    span = int(minutes.max()) - lo + 1
    if span <= _SLOTS_PER_ROW * minutes.size + _SLOTS_FREE:
        present = np.zeros(span, dtype=np.bool_)
        present[minutes - lo] = True
        code_of_slot = np.cumsum(present, dtype=np.int64) - 1
        return code_of_slot[minutes - lo], np.flatnonzero(present).astype(np.int64) + lo
    keys, codes = np.unique(minutes, return_inverse=True)
    return codes.astype(np.int64).reshape(-1), keys.astype(np.int64)
