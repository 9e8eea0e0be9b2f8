"""The window's two ``/rate_limit`` snapshots as the artifact keeps them: only ``core``
and ``graphql``, ``capturedAt`` in whole seconds, a missing side kept missing, and no
snapshots at all as none (not an empty object)."""

from __future__ import annotations

import pytest

from ghbench.artifacts.models import RateLimitSnapshots, SnapshotBucket, SnapshotEntry
from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.scorecard.inputs import Snapshots, epoch_seconds, snapshot_entries

T0 = 1_776_348_000.7  # 2026-04-16T14:00:00.7Z

BEFORE = RateLimitSnapshot(
    T0,
    {
        "core": Bucket(limit=5000, remaining=4990, used=10, reset=1_776_351_600),
        "search": Bucket(limit=30, remaining=30, used=0, reset=1_776_348_060),
    },
)
AFTER = RateLimitSnapshot(
    T0 + 300,
    {"graphql": Bucket(limit=5000, remaining=4000, used=1000, reset=1_776_351_601)},
)


def test_each_side_keeps_core_and_graphql_in_whole_seconds() -> None:
    assert snapshot_entries(Snapshots(BEFORE, AFTER)) == RateLimitSnapshots(
        before=SnapshotEntry(
            captured_at="2026-04-16T14:00:00Z",
            core=SnapshotBucket(limit=5000, remaining=4990, used=10, reset=1_776_351_600),
        ),
        after=SnapshotEntry(
            captured_at="2026-04-16T14:05:00Z",
            graphql=SnapshotBucket(limit=5000, remaining=4000, used=1000, reset=1_776_351_601),
        ),
    )


def test_a_missing_side_stays_missing_and_none_is_no_snapshots() -> None:
    only = snapshot_entries(Snapshots(after=AFTER))
    assert only is not None and only.before is None and only.after is not None
    assert snapshot_entries(Snapshots()) is None
    assert snapshot_entries(None) is None


@pytest.mark.parametrize(
    ("when", "seconds"),
    [(1_776_348_000, 1_776_348_000.0), ("2026-04-16T14:00:00.500Z", 1_776_348_000.5)],
)
def test_a_time_is_epoch_seconds_or_iso(when: float | str, seconds: float) -> None:
    assert epoch_seconds(when) == seconds
