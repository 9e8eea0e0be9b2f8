"""AO 0.12.6's cooldown after a rate limit, as its code is written.

After a rate-limited GraphQL batch the orchestrator sends no batch for the answer's
Retry-After, else until the limit's reset, else 60 s with a jitter of ±7 s; always
within 30 s and 10 minutes (``CooldownSpec``). It holds the orchestrator's calls only
(an agent's gh knows nothing of it). docs/calibration.md: in the real 0.12.6 it never
starts for GitHub (GitHub's error lacks the interface it reads); this is AO with that
fixed, the what-if its authors meant.
"""

from __future__ import annotations

from ghbench.policies.calls import Call
from ghbench.policies.spec import CooldownSpec

__all__ = [
    "BATCH_OPERATION",
    "JITTER_SHIFT_S",
    "JITTER_SPAN_NS",
    "Cooldown",
    "ao_jitter",
    "cooldown_s",
]

# what a trace calls AO's GraphQL batch (the scorecard's and the front's name for it)
BATCH_OPERATION = "gh.api.graphql-batch"

# AO's jitter: the clock's nanoseconds modulo 15 s, less 7 s (-7 s to +8 s), the same
# for every poll on one ticker's grid (a grid of 30 s keeps the remainder)
JITTER_SPAN_NS = 15_000_000_000
JITTER_SHIFT_S = 7.0


def ao_jitter(at: float) -> float:
    """AO 0.12.6's jitter at ``at`` (epoch s): taken from the clock, not a random source."""
    return (int(at * 1e9) % JITTER_SPAN_NS) / 1e9 - JITTER_SHIFT_S


def cooldown_s(
    spec: CooldownSpec, at: float, *, retry_after: float | None, reset: float | None
) -> float:
    """``rateLimitCooldown``: Retry-After, else until the reset, else the default with
    AO's jitter; within the spec's bounds."""
    if retry_after is not None and retry_after > 0:
        wait = retry_after
    elif reset is not None and reset > at:
        wait = reset - at
    else:
        wait = spec.default + ao_jitter(at)
    return min(max(wait, spec.minimum), spec.maximum)


class Cooldown:
    """The orchestrator's cooldown state: until when its batches are held."""

    def __init__(self, spec: CooldownSpec) -> None:
        self.spec = spec
        self.until = float("-inf")
        self.started = 0

    @staticmethod
    def applies(call: Call) -> bool:
        """The orchestrator's GraphQL batch: the one call AO's cooldown holds (its
        other GraphQL, the review threads and the check-context pages, goes on)."""
        return not call.agent and call.command == BATCH_OPERATION

    def holds(self, call: Call) -> bool:
        return self.applies(call) and call.at < self.until

    def limited(self, at: float, *, retry_after: float | None, reset: float | None) -> float:
        """A batch was rate limited at ``at``: how long the orchestrator cools down."""
        wait = cooldown_s(self.spec, at, retry_after=retry_after, reset=reset)
        self.until = at + wait
        self.started += 1
        return wait
