"""GitHub's hourly budgets, as the lab prices a fleet's calls offline.

Each budget's window opens with the first call charged to it and resets an hour later
(``x-ratelimit-reset``); a call that costs more than is left is refused and charged
nothing (the scorecard's rule: a refused call costs 0). A call standing for several
identical copies (``weight``) is refused in part: the copies that fit go.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.policies.calls import BUDGETS

__all__ = ["TOKEN_LIMITS", "WINDOW_S", "HourlyLedger"]

WINDOW_S = 3600.0
# a personal access token's hourly budgets; the budget kinds (an App installation,
# Actions' GITHUB_TOKEN) come in as other limits
TOKEN_LIMITS: Mapping[str, float] = {"graphql": 5000.0, "core": 5000.0}


class HourlyLedger:
    def __init__(self, limits: Mapping[str, float]) -> None:
        self.limits = dict(limits)
        self._opened: dict[str, float | None] = dict.fromkeys(BUDGETS)
        self._spent = dict.fromkeys(BUDGETS, 0.0)

    def _roll(self, budget: str, at: float) -> None:
        opened = self._opened[budget]
        if opened is not None and at >= opened + WINDOW_S:
            self._opened[budget] = None
            self._spent[budget] = 0.0

    def left(self, at: float) -> dict[str, float]:
        for budget in BUDGETS:
            self._roll(budget, at)
        return {b: self.limits[b] - self._spent[b] for b in BUDGETS}

    def reset(self, budget: str, at: float) -> float:
        opened = self._opened[budget]
        return (at if opened is None else opened) + WINDOW_S

    def charge(self, at: float, costs: Mapping[str, float], weight: float) -> float:
        """Charge ``weight`` copies of a call costing ``costs`` each at ``at``: how many
        copies went (the rest were rate limited)."""
        went = weight
        for budget, cost in costs.items():
            if cost <= 0:
                continue
            self._roll(budget, at)
            left = max(0.0, self.limits[budget] - self._spent[budget])
            went = min(went, left / cost)
        for budget, cost in costs.items():
            if cost > 0 and went > 0:
                if self._opened[budget] is None:
                    self._opened[budget] = at
                self._spent[budget] += cost * went
        return went
