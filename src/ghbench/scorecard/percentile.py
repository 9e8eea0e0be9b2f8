"""Duration percentiles by linear interpolation (numpy's default, ``method="linear"``).

For sorted values ``x[0..n-1]`` the q-th percentile sits at rank ``h = (n-1)·q/100``;
the result is ``x[⌊h⌋] + (h-⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋])``. Rows without a duration
are left out; with no duration at all every percentile is None.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["percentiles"]


def percentiles(values: npt.NDArray[np.float64], qs: Sequence[float]) -> list[float | None]:
    """The ``qs`` percentiles (0–100) of the non-NaN ``values``; None each when empty."""
    present = values[~np.isnan(values)]
    if present.size == 0:
        return [None for _ in qs]
    result = np.percentile(present, np.asarray(qs, dtype=np.float64), method="linear")
    return [float(v) for v in result]
