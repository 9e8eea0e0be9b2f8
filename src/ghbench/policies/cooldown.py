"""AO 0.12.6's cooldown after a rate limit, as its code is written.

After a rate-limited GraphQL batch the orchestrator sends no batch for the answer's
Retry-After, else until the limit's reset, else 60 s with a jitter of ±7 s; always
within 30 s and 10 minutes (``CooldownSpec``). It holds the orchestrator's calls only
(an agent's gh knows nothing of it). docs/calibration.md: in the real 0.12.6 it never
starts for GitHub (GitHub's error lacks the interface it reads); this is AO with that
fixed, the what-if its authors meant.
"""

from __future__ import annotations

import random

from ghbench.policies.calls import Call
from ghbench.policies.spec import CooldownSpec

__all__ = ["JITTER_S", "Cooldown"]

JITTER_S = 7.0


class Cooldown:
    def __init__(self, spec: CooldownSpec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.until = float("-inf")
        self.started = 0

    @staticmethod
    def applies(call: Call) -> bool:
        return not call.agent and call.graphql > 0

    def holds(self, call: Call) -> bool:
        return self.applies(call) and call.at < self.until

    def limited(self, at: float, *, retry_after: float | None, reset: float | None) -> float:
        """A batch was rate limited at ``at``: how long the orchestrator cools down."""
        if retry_after is not None:
            wait = retry_after
        elif reset is not None:
            wait = reset - at
        else:
            wait = self.spec.default + self.rng.uniform(-JITTER_S, JITTER_S)
        wait = min(max(wait, self.spec.minimum), self.spec.maximum)
        self.until = at + wait
        self.started += 1
        return wait
