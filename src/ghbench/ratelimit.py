"""A ``GET /rate_limit`` snapshot: the one type for it, and the one parser of GitHub's answer.

The control client takes one at each edge of a measurement window, the simulation
reads them from the in-process emulator, the matrix's hygiene decides from their
buckets, and the scorecard turns a window's two into the artifact's
``rateLimitSnapshots`` (``ghbench.scorecard.inputs``, the one place they are converted).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Bucket", "RateLimitSnapshot", "parse_rate_limit"]


@dataclass(frozen=True)
class Bucket:
    """One resource's budget as ``/rate_limit`` reports it."""

    limit: int
    remaining: int
    used: int
    reset: int  # epoch seconds


@dataclass(frozen=True)
class RateLimitSnapshot:
    """``GET /rate_limit`` at one moment: ``captured_at`` is epoch seconds."""

    captured_at: float
    resources: Mapping[str, Bucket]

    def get(self, resource: str) -> Bucket | None:
        return self.resources.get(resource)


def parse_rate_limit(
    body: Any, captured_at: float, names: Collection[str] | None = None
) -> RateLimitSnapshot:
    """The snapshot in ``/rate_limit``'s JSON body: every resource it reports with a
    ``limit`` (only ``names`` when given); a count it leaves out reads as 0."""
    resources = body.get("resources") if isinstance(body, dict) else None
    buckets: dict[str, Bucket] = {}
    for name, raw in (resources or {}).items():
        if (names is None or name in names) and isinstance(raw, dict) and "limit" in raw:
            buckets[name] = Bucket(
                limit=int(raw.get("limit", 0)),
                remaining=int(raw.get("remaining", 0)),
                used=int(raw.get("used", 0)),
                reset=int(raw.get("reset", 0)),
            )
    return RateLimitSnapshot(captured_at=captured_at, resources=buckets)
