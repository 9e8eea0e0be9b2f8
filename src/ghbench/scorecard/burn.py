"""Per-row budget burn for one resource, from the ``x-ratelimit-*`` headers rows carry.

The spec's method: take the window's rows whose ``rateLimitResource`` is the resource
and that carry ``rateLimitRemaining`` and ``rateLimitReset``; group them by
``rateLimitReset`` (one group per reset window of the bucket); order each group by
completion time, file order breaking ties; the group's delta is first ``remaining``
minus last ``remaining``. The burn is the sum of the deltas. Like AO, a negative
delta (``remaining`` rose inside a group: calls that completed out of order) counts 0,
so burn is never negative, and a reset starts a new group instead of a rise.

``first − last`` leaves out what the group's first call itself cost. ``consumed``
adds it back (the first row's known cost, else 1), which is what ``insights`` uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ghbench.trace.frame import NA, TraceFrame

__all__ = ["CostColumns", "ResourceBurn", "resource_burn"]

# (each row's known primary cost on the resource, whether that cost is known)
CostColumns = tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.bool_]]

UNKNOWN_FIRST_CALL_COST = 1  # every call that draws on a bucket costs at least 1


@dataclass(frozen=True)
class ResourceBurn:
    """What the headers say a resource's bucket lost inside the window."""

    rows: int  # rows with this resource's headers
    groups: int  # distinct rateLimitReset values (reset windows seen)
    delta: int  # Σ max(0, first − last): the spec's per-row burn
    first_call_cost: int  # Σ cost of each group's first call
    latest_reset_s: int | None  # the newest rateLimitReset (epoch s)

    @property
    def consumed(self) -> int:
        """``delta`` plus the first call of every reset window."""
        return self.delta + self.first_call_cost

    @property
    def straddled(self) -> bool:
        return self.groups > 1


def resource_burn(
    frame: TraceFrame,
    resource: str,
    cost: CostColumns | None = None,
) -> ResourceBurn:
    """The burn of ``resource`` (``graphql``/``core``) over all rows of ``frame``.

    ``cost`` is (each row's known primary cost on this resource, whether it is known);
    it only feeds ``first_call_cost``, where an unknown cost counts 1.
    """
    mask = (
        frame.resource.mask(resource)
        & (frame.rate_limit_remaining != NA)
        & (frame.rate_limit_reset != NA)
    )
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return ResourceBurn(0, 0, 0, 0, None)
    ts = frame.ts_ms[idx]
    reset = frame.rate_limit_reset[idx]
    remaining = frame.rate_limit_remaining[idx]
    order = _group_order(ts, reset)
    reset = reset[order]
    remaining = remaining[order]
    starts = np.flatnonzero(np.concatenate(([True], reset[1:] != reset[:-1])))
    ends = np.concatenate((starts[1:] - 1, [reset.size - 1]))
    deltas = np.maximum(remaining[starts] - remaining[ends], 0)
    first_rows = idx[order[starts]]
    if cost is None:
        first_costs = np.full(starts.size, UNKNOWN_FIRST_CALL_COST, dtype=np.int64)
    else:
        points, known = cost
        first_costs = np.where(known[first_rows], points[first_rows], UNKNOWN_FIRST_CALL_COST)
    return ResourceBurn(
        rows=int(idx.size),
        groups=int(starts.size),
        delta=int(deltas.sum()),
        first_call_cost=int(first_costs.sum()),
        latest_reset_s=int(reset.max()),
    )


def _group_order(ts: npt.NDArray[np.int64], reset: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Indices sorting by (reset, completion time), stable so file order breaks ties.

    Traces are written in completion order, so the common case sorts by reset alone,
    which a stable sort does in near-linear time on already-grouped data.
    """
    if ts.size < 2 or bool(np.all(ts[1:] >= ts[:-1])):
        return np.argsort(reset, kind="stable")
    return np.lexsort((ts, reset))
