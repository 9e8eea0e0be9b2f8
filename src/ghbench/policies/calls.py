"""What the policies see of a call, and what they decide about it.

A ``Call`` is one gh command or one HTTP request, as the lab reads it from a trace and
as the workload model is about to send it: when, whose, what makes two identical (the
cache's key), the repository, whether it writes, and what it costs each hourly budget.
A recording scaled to N sessions runs each call as N/recorded identical copies at once
(the stack's ``weight``: replay's copies meet the same numbers at the same recorded
times, each in a repository of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["BUDGETS", "Admission", "Call", "Verdict"]

BUDGETS: tuple[str, ...] = ("graphql", "core")  # the hourly budgets the policies price


class Verdict(StrEnum):
    """What became of a call."""

    SENT = "sent"
    CACHED = "cached"  # the proxy answered from its cache
    COALESCED = "coalesced"  # merged into an identical call in flight
    UNCHANGED = "unchanged"  # the ETag probes came back 304: the last answer reused
    RESERVED = "refused by the reserve"
    COOLING = "held by the cooldown"
    RATE_LIMITED = "rate limited"

    @property
    def absorbed(self) -> bool:
        """Answered without reaching GitHub's budget (a cache, a probe's 304)."""
        return self in _ABSORBED

    @property
    def refused(self) -> bool:
        """Not answered at all: a policy or GitHub refused it."""
        return self in _REFUSED


_ABSORBED = frozenset({Verdict.CACHED, Verdict.COALESCED, Verdict.UNCHANGED})
_REFUSED = frozenset({Verdict.RESERVED, Verdict.COOLING, Verdict.RATE_LIMITED})


@dataclass(slots=True)
class Call:
    at: float  # when it starts (epoch s, or the run's virtual seconds)
    session: str
    key: str  # identical calls share it: the proxy's cache key
    repo: str  # "" when unknown
    command: str  # the operation (``gh.pr.checks``), what the shim and probe act on
    graphql: float  # points
    core: float  # requests
    write: bool = False
    agent: bool = True  # a coding agent's (else the orchestrator's: the cooldown's)
    duration: float = 0.0  # in flight this long (coalescing)
    argv: tuple[str, ...] = ()  # a gh command's arguments (what the shim answers)

    def cost(self, budget: str) -> float:
        return self.graphql if budget == "graphql" else self.core


@dataclass(slots=True)
class Admission:
    """A policy stack's answer before the call goes: its verdict (SENT: it goes), when it
    goes (after the gate's wait) and what it draws on each budget once there (after the
    shim and the probes)."""

    verdict: Verdict
    at: float
    graphql: float = 0.0
    core: float = 0.0
    probes: int = 0  # conditional REST probes sent first (200s cost 1 core each)
    waited: float = 0.0  # seconds the gate held it
