"""A reserve band (a circuit breaker on the budget left): below ``percent`` of a budget
left, the wrapper refuses the reads that would draw on it, so writes (a PR, a reply)
still go. Stands for craft-agents' deferrals (its 2026 report: ~4,500 of 5,000 points
in the first minutes, then 221 calls deferred)."""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.policies.calls import BUDGETS, Call
from ghbench.policies.spec import ReserveSpec

__all__ = ["refuses"]


def refuses(
    spec: ReserveSpec, call: Call, left: Mapping[str, float], limits: Mapping[str, float]
) -> bool:
    """The reserve holds ``call`` back: a read drawing on a budget below its band."""
    if call.write:
        return False
    band = spec.percent / 100.0
    return any(call.cost(b) > 0 and left.get(b, limits[b]) < band * limits[b] for b in BUDGETS)
