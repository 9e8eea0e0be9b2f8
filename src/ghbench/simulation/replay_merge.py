"""Several parts of one replay joined as if one emulator had answered them all.

A replay split into parts (``replay_run``) gives each part an emulator and a token whose
buckets hold the recording's budget times the part's copies. Every call is charged as
it would be in one emulator whose buckets hold the budget times all the copies (the
buckets never stop a replay that the recording did not stop), so the ledgers add up;
what differs is what each answer's ``x-ratelimit-*`` headers said, since each part saw
only its own bucket. Joined, each row says what the one bucket would have: the sum of
the parts' limits, less everything the parts had used when the row completed (each
part's use read from its own latest row, within the same reset window). The
``/rate_limit`` brackets add up likewise. Pure: parts in, a part out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.simulation.replay_run import PartResult
from ghbench.trace.schema import TraceRow

__all__ = ["merge_parts"]


def _snapshot(parts: Sequence[PartResult], name: str) -> RateLimitSnapshot | None:
    snaps = [p.snapshots[name] for p in parts if name in p.snapshots]
    if not snaps:
        return None
    resources: dict[str, Bucket] = {}
    for resource in snaps[0].resources:
        buckets = [b for s in snaps if (b := s.get(resource)) is not None]
        resources[resource] = Bucket(
            limit=sum(b.limit for b in buckets),
            remaining=sum(b.remaining for b in buckets),
            used=sum(b.used for b in buckets),
            reset=min(b.reset for b in buckets),
        )
    return RateLimitSnapshot(min(s.captured_at for s in snaps), resources)


def _one_bucket(parts: Sequence[PartResult]) -> tuple[list[TraceRow], list[TraceRow]]:
    """Every part's rows, in time order, their headers those of one bucket."""
    limits: dict[str, int] = {}
    for part in parts:
        before = part.snapshots.get("before")
        for name, bucket in (before.resources if before else {}).items():
            limits[name] = limits.get(name, 0) + bucket.limit
    tagged = [
        (row.timestamp, i, j, agent, row)
        for i, part in enumerate(parts)
        for agent, part_rows in ((False, part.rows), (True, part.agent_rows))
        for j, row in enumerate(part_rows)
    ]
    tagged.sort(key=lambda t: t[:3])
    # (part, resource) -> (reset, used) as the part's latest row said
    latest: dict[tuple[int, str], tuple[int | None, int]] = {}
    rows: list[TraceRow] = []
    agent_rows: list[TraceRow] = []
    for _, i, _, agent, row in tagged:
        resource, limit, left = row.rateLimitResource, row.rateLimitLimit, row.rateLimitRemaining
        joined = row
        if resource is not None and resource in limits and limit is not None and left is not None:
            reset = row.rateLimitReset
            latest[(i, resource)] = (reset, limit - left)
            used = sum(u for (_, r), (at, u) in latest.items() if r == resource and at == reset)
            whole = limits[resource]
            joined = msgspec.structs.replace(
                row, rateLimitLimit=whole, rateLimitRemaining=max(0, whole - used)
            )
        (agent_rows if agent else rows).append(joined)
    return rows, agent_rows


def merge_parts(parts: Sequence[PartResult]) -> PartResult:
    """``parts`` as one replay (one part is itself)."""
    if len(parts) == 1:
        return parts[0]
    rows, agent_rows = _one_bucket(parts)
    points: Counter[str] = Counter()
    policy: dict[str, Counter[str]] = {}
    stopped: Counter[str] = Counter()
    for part in parts:
        points.update(part.points)
        stopped.update(part.stopped)
        for reason, held in part.policy.items():
            policy.setdefault(reason, Counter()).update(held)
    snapshots = {
        name: snap for name in ("before", "after") if (snap := _snapshot(parts, name)) is not None
    }
    return PartResult(
        rows,
        agent_rows,
        dict(points),
        sum(p.charges for p in parts),
        snapshots,
        policy,
        stopped,
        sum(p.calls for p in parts),
        max(p.end for p in parts),
        max(p.longest_lag_s for p in parts),
    )
