"""The engine's snapshot input, and its one conversion to the artifact's JSON shape.

The window is bracketed by two ``/rate_limit`` snapshots (``ghbench.ratelimit``, the
one type for them): ``Snapshots(before, after)``, either possibly missing. The
artifact keeps only ``core`` and ``graphql``, nested as the spec shows them, with
``capturedAt`` in whole seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghbench.artifacts.models import RateLimitSnapshots, SnapshotBucket, SnapshotEntry
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.timefmt import iso_s, parse_iso

__all__ = ["Snapshots", "epoch_seconds", "snapshot_entries"]

SNAPSHOT_RESOURCES = ("core", "graphql")


@dataclass(frozen=True)
class Snapshots:
    """The two snapshots that bracket the window; either may be missing."""

    before: RateLimitSnapshot | None = None
    after: RateLimitSnapshot | None = None


def epoch_seconds(when: float | str) -> float:
    return parse_iso(when) if isinstance(when, str) else float(when)


def _entry(snap: RateLimitSnapshot | None) -> SnapshotEntry | None:
    if snap is None:
        return None
    buckets = {
        name: SnapshotBucket(limit=b.limit, remaining=b.remaining, used=b.used, reset=b.reset)
        for name in SNAPSHOT_RESOURCES
        if (b := snap.get(name)) is not None
    }
    return SnapshotEntry(
        captured_at=iso_s(snap.captured_at),
        core=buckets.get("core"),
        graphql=buckets.get("graphql"),
    )


def snapshot_entries(snapshots: Snapshots | None) -> RateLimitSnapshots | None:
    """The artifact's ``rateLimitSnapshots`` for ``snapshots``; None when there are none."""
    if snapshots is None or (snapshots.before is None and snapshots.after is None):
        return None
    return RateLimitSnapshots(before=_entry(snapshots.before), after=_entry(snapshots.after))
