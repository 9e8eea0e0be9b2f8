"""Pruning the matrix after a scale sweep (the runbook's rule from PLAN.md).

Keep a cell when some scorecard metric changes by more than 15% between it and an
adjacent scale point of the same scenario and topology; the rest are predictable
from their neighbours and are pruned, each with the reason.

Counts and rates grow with the number of sessions by construction, so a 5 -> 10
sweep would always show a 100% change in ``totalCalls``. They are compared *per
session* (the runbook's question is "does cost scale linearly?"); ratios and
latency percentiles are compared as they are. The change is taken from the smaller
scale point to the larger: ``|b - a| / |a|``, infinite when only ``a`` is zero.
The runbook's priority cells are always kept.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ghbench.artifacts.metrics import SCORECARD_METRICS
from ghbench.runspec.cells import PRIORITY, Cell

__all__ = ["METRICS", "THRESHOLD", "Change", "PruneDecision", "prune"]

THRESHOLD = 0.15

# scorecard metric -> compared per session (it grows with the session count): the
# registry's pruned figures, those that grow with the sessions first
METRICS: dict[str, bool] = {
    m.key: m.per_session
    for per_session in (True, False)
    for m in SCORECARD_METRICS
    if m.per_session is per_session
}


@dataclass(frozen=True)
class Change:
    metric: str
    neighbour: str  # the other cell's id
    before: float  # at the smaller scale (per session when the metric is)
    after: float
    change: float  # relative, may be inf

    def describe(self) -> str:
        unit = "/session" if METRICS.get(self.metric) else ""
        rel = "∞" if math.isinf(self.change) else f"{100 * self.change:.1f}%"
        values = f"{self.before:,.3g} → {self.after:,.3g}"
        return f"{self.metric}{unit} {values} ({rel}) vs {self.neighbour}"


@dataclass(frozen=True)
class PruneDecision:
    cell: Cell
    keep: bool
    reason: str
    changes: tuple[Change, ...]  # the changes above the threshold, or the largest one


def _relative(a: float, b: float) -> float:
    if a == 0:
        return 0.0 if b == 0 else math.inf
    return abs(b - a) / abs(a)


def _compare(
    small: Cell, big: Cell, ms: Mapping[str, float | None], mb: Mapping[str, float | None]
) -> list[Change]:
    out = []
    for metric, per_session in METRICS.items():
        va, vb = ms.get(metric), mb.get(metric)
        if va is None or vb is None:
            continue
        a = float(va) / small.sessions if per_session else float(va)
        b = float(vb) / big.sessions if per_session else float(vb)
        out.append(Change(metric, "", a, b, _relative(a, b)))
    return out


def prune(
    metrics: Mapping[Cell, Mapping[str, float | None]],
    *,
    threshold: float = THRESHOLD,
    always_keep: Iterable[str] = PRIORITY,
) -> list[PruneDecision]:
    """One decision per cell in ``metrics`` (cell -> its scorecard fields), sorted by cell."""
    keep_ids = set(always_keep)
    series: dict[tuple[str, str], list[Cell]] = {}
    for cell in metrics:
        series.setdefault((cell.scenario, cell.topology), []).append(cell)
    seen: dict[Cell, list[Change]] = {cell: [] for cell in metrics}
    for cells in series.values():
        cells.sort(key=lambda c: c.sessions)
        for small, big in itertools.pairwise(cells):
            for ch in _compare(small, big, metrics[small], metrics[big]):
                seen[small].append(Change(ch.metric, big.id, ch.before, ch.after, ch.change))
                seen[big].append(Change(ch.metric, small.id, ch.before, ch.after, ch.change))
    decisions = []
    for cell in sorted(metrics):
        changes = seen[cell]
        over = tuple(c for c in changes if c.change > threshold)
        largest = max(changes, key=lambda c: c.change, default=None)
        if cell.id in keep_ids:
            reason = "runbook priority cell"
            decisions.append(PruneDecision(cell, True, reason, over))
        elif not changes:
            reason = "no adjacent scale point measured to compare with"
            decisions.append(PruneDecision(cell, True, reason, ()))
        elif over:
            reason = (
                f"{len(over)} metric change(s) over {100 * threshold:.0f}%: {over[0].describe()}"
            )
            decisions.append(PruneDecision(cell, True, reason, over))
        else:
            assert largest is not None
            reason = (
                f"every metric within {100 * threshold:.0f}% of its neighbours;"
                f" largest: {largest.describe()}"
            )
            decisions.append(PruneDecision(cell, False, reason, (largest,)))
    return decisions
