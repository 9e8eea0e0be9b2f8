"""The engine's snapshot inputs, and their conversion to the artifact's JSON shape.

A ``/rate_limit`` snapshot comes in as ``RateLimitSnapshot(captured_at, resources)``
where ``resources`` maps a resource name to ``limit/remaining/used/reset``; the
control client's own snapshot type has the same attributes and is accepted as is.
The artifact keeps only ``core`` and ``graphql``, nested as the spec shows them. The
artifact model itself, or its JSON shape as a dict, is accepted too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from ghbench.artifacts.models import RateLimitSnapshot as SnapshotModel
from ghbench.artifacts.models import RateLimitSnapshots, SnapshotBucket
from ghbench.errors import ArtifactError
from ghbench.timefmt import iso_s, parse_iso

__all__ = [
    "RateLimitSnapshot",
    "ResourceSnapshot",
    "Snapshots",
    "SnapshotsInput",
    "coerce_snapshots",
    "epoch_seconds",
]

SNAPSHOT_RESOURCES = ("core", "graphql")


class _BucketLike(Protocol):
    @property
    def limit(self) -> int: ...
    @property
    def remaining(self) -> int: ...
    @property
    def used(self) -> int: ...
    @property
    def reset(self) -> int | None: ...


@dataclass(frozen=True)
class ResourceSnapshot:
    """One resource of a ``/rate_limit`` answer; ``reset`` is epoch seconds."""

    limit: int
    remaining: int
    used: int
    reset: int | None = None


@dataclass(frozen=True)
class RateLimitSnapshot:
    """``/rate_limit`` at one moment; ``captured_at`` is epoch seconds or ISO text."""

    captured_at: float | str
    resources: Mapping[str, _BucketLike] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshots:
    """The two snapshots that bracket the window; either may be missing."""

    before: Any = None
    after: Any = None


SnapshotsInput = Snapshots | RateLimitSnapshots | Mapping[str, Any] | None


def epoch_seconds(when: float | str) -> float:
    return parse_iso(when) if isinstance(when, str) else float(when)


def _one(snap: Any) -> SnapshotModel | None:
    if snap is None or isinstance(snap, SnapshotModel):
        return snap
    if isinstance(snap, Mapping):
        return msgspec.convert(snap, SnapshotModel)
    resources: Mapping[str, _BucketLike] = snap.resources
    buckets = {
        name: SnapshotBucket(limit=b.limit, remaining=b.remaining, used=b.used, reset=b.reset)
        for name, b in resources.items()
        if name in SNAPSHOT_RESOURCES
    }
    return SnapshotModel(
        captured_at=iso_s(epoch_seconds(snap.captured_at)),
        core=buckets.get("core"),
        graphql=buckets.get("graphql"),
    )


def coerce_snapshots(snapshots: SnapshotsInput) -> RateLimitSnapshots | None:
    """Normalise any accepted snapshot input to the artifact model (None stays None)."""
    if snapshots is None or isinstance(snapshots, RateLimitSnapshots):
        return snapshots
    try:
        if isinstance(snapshots, Mapping):
            before, after = snapshots.get("before"), snapshots.get("after")
        else:
            before, after = snapshots.before, snapshots.after
        result = RateLimitSnapshots(before=_one(before), after=_one(after))
    except (msgspec.ValidationError, AttributeError, TypeError) as exc:
        raise ArtifactError(f"rate-limit snapshots are malformed: {exc}") from exc
    if result.before is None and result.after is None:
        return None
    return result
