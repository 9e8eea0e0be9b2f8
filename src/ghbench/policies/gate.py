"""One admission gate for the whole fleet: a token bucket per budget.

Each budget's bucket refills at ``refill`` an hour (default: ``fraction`` of its limit)
and holds at most ``burst``; a call waits, first come first served, until the points it
costs are in every bucket it draws on. Stands for @octokit/plugin-throttling with one
Bottleneck limiter shared by every process (its Redis clustering), as a proxy for gh.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.policies.calls import BUDGETS
from ghbench.policies.spec import GateSpec

__all__ = ["DEFAULT_FRACTION", "Gate"]

DEFAULT_FRACTION = 0.8  # of the budget's limit: capacity's --budget-fraction


class Gate:
    def __init__(self, spec: GateSpec, limits: Mapping[str, float]) -> None:
        self.spec = spec
        self.rate = {
            b: (spec.refill if spec.refill is not None else DEFAULT_FRACTION * limits[b]) / 3600.0
            for b in BUDGETS
        }
        self._tokens = {b: float(spec.burst) for b in BUDGETS}
        self._last: dict[str, float | None] = dict.fromkeys(BUDGETS)
        self._free = float("-inf")  # first come, first served: none passes the queue

    def _level(self, budget: str, at: float) -> float:
        last = self._last[budget]
        tokens = self._tokens[budget]
        if last is None:
            return tokens
        return min(float(self.spec.burst), tokens + (at - last) * self.rate[budget])

    def admit(self, at: float, costs: Mapping[str, float]) -> float:
        """When a call arriving at ``at`` goes: its points taken from the buckets then (a
        bucket may go below zero for a call larger than the burst; the next waits it off)."""
        at = max(at, self._free)
        for budget, cost in costs.items():
            if cost <= 0:
                continue
            level = self._level(budget, at)
            need = min(cost, float(self.spec.burst))
            if level < need:
                at += (need - level) / self.rate[budget]
        for budget, cost in costs.items():
            self._tokens[budget] = self._level(budget, at) - cost
            self._last[budget] = at
        self._free = at
        return at
