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

__all__ = ["CostColumns", "ResetWindow", "ResourceBurn", "reset_windows", "resource_burn"]

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
    # the reset of the group the earliest row belongs to (AO names this one)
    first_seen_reset_s: int | None = None

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
    groups = _reset_groups(frame, resource)
    if groups is None:
        return ResourceBurn(0, 0, 0, 0, None)
    # each group's first row is its earliest; the earliest of those (file order on a tie)
    earliest = groups.first_rows[np.lexsort((groups.first_rows, frame.ts_ms[groups.first_rows]))[0]]
    remaining = frame.rate_limit_remaining
    deltas = np.maximum(remaining[groups.first_rows] - remaining[groups.last_rows], 0)
    if cost is None:
        first_costs = np.full(groups.count, UNKNOWN_FIRST_CALL_COST, dtype=np.int64)
    else:
        points, known = cost
        first = groups.first_rows
        first_costs = np.where(known[first], points[first], UNKNOWN_FIRST_CALL_COST)
    return ResourceBurn(
        rows=groups.rows,
        groups=groups.count,
        delta=int(deltas.sum()),
        first_call_cost=int(first_costs.sum()),
        latest_reset_s=int(frame.rate_limit_reset[groups.first_rows].max()),
        first_seen_reset_s=int(frame.rate_limit_reset[earliest]),
    )


@dataclass(frozen=True)
class ResetWindow:
    """One reset window (group) of a resource: its first and last row as the spec orders them."""

    reset: int  # epoch seconds, from rateLimitReset
    rows: int
    remaining_start: int
    remaining_end: int
    first_ms: int  # completion time of the group's first row
    last_ms: int  # ... and of its last

    @property
    def delta(self) -> int:
        return max(0, self.remaining_start - self.remaining_end)


def reset_windows(frame: TraceFrame, resource: str) -> list[ResetWindow]:
    """``resource``'s reset windows, oldest reset first; their deltas sum to ``resource_burn``."""
    groups = _reset_groups(frame, resource)
    if groups is None:
        return []
    remaining = frame.rate_limit_remaining
    reset = frame.rate_limit_reset
    ts = frame.ts_ms
    return [
        ResetWindow(
            reset=int(reset[first]),
            rows=int(size),
            remaining_start=int(remaining[first]),
            remaining_end=int(remaining[last]),
            first_ms=int(ts[first]),
            last_ms=int(ts[last]),
        )
        for first, last, size in zip(
            groups.first_rows.tolist(),
            groups.last_rows.tolist(),
            groups.sizes.tolist(),
            strict=True,
        )
    ]


@dataclass(frozen=True)
class _ResetGroups:
    """The spec's grouping of a resource's header rows, as frame row indices."""

    rows: int  # header-carrying rows of the resource
    first_rows: npt.NDArray[np.intp]  # each group's first row, groups by ascending reset
    last_rows: npt.NDArray[np.intp]  # each group's last row
    sizes: npt.NDArray[np.intp]  # rows per group

    @property
    def count(self) -> int:
        return int(self.first_rows.size)


def _reset_groups(frame: TraceFrame, resource: str) -> _ResetGroups | None:
    """Group by rateLimitReset, each ordered by completion time; None without header rows."""
    mask = (
        frame.resource.mask(resource)
        & (frame.rate_limit_remaining != NA)
        & (frame.rate_limit_reset != NA)
    )
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return None
    order = _group_order(frame.ts_ms[idx], frame.rate_limit_reset[idx])
    rows = idx[order]
    reset = frame.rate_limit_reset[rows]
    starts = np.flatnonzero(np.concatenate(([True], reset[1:] != reset[:-1])))
    ends = np.concatenate((starts[1:] - 1, [reset.size - 1]))
    return _ResetGroups(
        rows=int(idx.size), first_rows=rows[starts], last_rows=rows[ends], sizes=ends - starts + 1
    )


def _group_order(ts: npt.NDArray[np.int64], reset: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Indices sorting by (reset, completion time), stable so file order breaks ties.

    Traces are written in completion order, so the common case sorts by reset alone,
    which a stable sort does in near-linear time on already-grouped data.
    """
    if ts.size < 2 or bool(np.all(ts[1:] >= ts[:-1])):
        return np.argsort(reset, kind="stable")
    return np.lexsort((ts, reset))
