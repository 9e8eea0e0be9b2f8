"""Several parts of one replay joined: the rows read as one bucket, the ledgers add up."""

from collections import Counter

from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.simulation.replay_merge import merge_parts
from ghbench.simulation.replay_run import PartResult
from ghbench.trace.schema import TraceRow


def test_joined_parts_read_as_one_bucket() -> None:
    """Two parts, 10 points each of 100: the joined rows count down one bucket of 200."""

    def part(times: list[int]) -> PartResult:
        rows = [
            TraceRow(timestamp=f"2026-04-17T09:05:{t:02d}.000Z", rateLimitResource="graphql",
                 rateLimitLimit=100, rateLimitRemaining=100 - (k + 1) * 5,
                 rateLimitReset=1_776_420_300)
            for k, t in enumerate(times)
        ]  # fmt: skip
        snap = RateLimitSnapshot(0.0, {"graphql": Bucket(100, 100, 0, 1_776_420_300)})
        after = RateLimitSnapshot(9.0, {"graphql": Bucket(100, 90, 10, 1_776_420_300)})
        return PartResult(rows, [], {"graphql": 10}, 2, {"before": snap, "after": after},
                          {}, Counter(), 2, 9.0)  # fmt: skip

    joined = merge_parts([part([1, 3]), part([2, 4])])
    assert [r.rateLimitRemaining for r in joined.rows] == [195, 190, 185, 180]
    assert {r.rateLimitLimit for r in joined.rows} == {200}
    assert joined.points == {"graphql": 20} and joined.charges == 4
    after = joined.snapshots["after"].resources["graphql"]
    assert (after.limit, after.remaining, after.used) == (200, 180, 20)
