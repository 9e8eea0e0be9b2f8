"""Duration percentiles, interpolated as AO's harness does it, in IEEE doubles.

Over the durations present and not negative (AO's filter), sorted as ``x[0..n-1]``: the
q-th percentile sits at rank ``h = (q / 100) · (n − 1)``; with ``lo = ⌊h⌋``, ``hi = ⌈h⌉``
and ``f = h − lo`` it is ``x[lo]`` when ``lo == hi``, else ``x[lo] · (1 − f) + x[hi] · f``,
each step rounded to a double in that order. The order matters: 0.95 is no exact
double, so where the exact percentile is 1690.5 AO's may be 1690.4999…, which
``Math.round`` takes to 1690 (numpy's own interpolation gave 1690.5, hence 1691).
With no duration every percentile is None.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["percentiles"]


def percentiles(values: npt.NDArray[np.float64], qs: Sequence[float]) -> list[float | None]:
    """The ``qs`` percentiles (0–100) of the ``values`` that are not NaN or negative."""
    present = values[values >= 0]  # NaN compares false: missing durations are left out
    n = int(present.size)
    if n == 0:
        return [None for _ in qs]
    ranks = [min(max(q, 0.0), 100.0) / 100 * (n - 1) for q in qs]
    needed = sorted({math.floor(h) for h in ranks} | {math.ceil(h) for h in ranks})
    ordered = np.partition(present, needed)  # the order statistics needed, in O(n)
    found: list[float | None] = []
    for h in ranks:
        lo, hi = math.floor(h), math.ceil(h)
        below, above = float(ordered[lo]), float(ordered[hi])
        frac = h - lo
        found.append(below if lo == hi else below * (1 - frac) + above * frac)
    return found
