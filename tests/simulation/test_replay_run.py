"""One part of a replay on a hand-made recording of one session: its copies, what the
emulator charged, and each copy's calls in a repository of its own."""

import pytest

from ghbench.simulation.replay_run import Part, PartResult, copies_for, run_part
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import ReplayPlan, ReplayPolicy, plan_replay

LIMITS = {"core": 5000, "graphql": 5000}
QUERY = 'query={ repository(owner: "o", name: "r") { pullRequest(number: 1) { title } } }'


def _row(second: int, operation: str, argv: list[str]) -> TraceRow:
    return TraceRow(timestamp=f"2026-04-17T09:00:{second:02d}.000Z", operation=operation,
                    sessionId="a", args=argv)  # fmt: skip


RECORDING = [
    _row(1, "gh.api.pull", ["api", "repos/o/r/pulls/1"]),
    _row(5, "gh.api.graphql", ["api", "graphql", "-f", QUERY]),
    _row(9, "gh.api.pull", ["api", "repos/o/r/pulls/1"]),
]


@pytest.fixture(scope="module")
def plan() -> ReplayPlan:
    return plan_replay(RECORDING)


def test_copies_are_whole_then_a_share_of_one() -> None:
    assert copies_for(2, 2) == [(0, 1.0)]
    assert copies_for(2, 5) == [(0, 1.0), (1, 1.0), (2, 0.5)]
    assert copies_for(4, 1) == [(0, 0.25)]
    assert copies_for(3, 3 * 1.0000000001) == [(0, 1.0)]  # a rounding error is no copy


def _part(plan: ReplayPlan, copies: list[tuple[int, float]], **kw: object) -> PartResult:
    return run_part(plan, Part(copies=copies, seed=1, limits=LIMITS, **kw))  # type: ignore[arg-type]


def test_each_copy_reissues_the_recording_in_its_own_repository(plan: ReplayPlan) -> None:
    one = _part(plan, [(0, 1.0)])
    assert (one.points, one.calls, one.charges) == ({"core": 2, "graphql": 1}, 3, 3)
    assert [r.endpoint for r in one.rows] == ["repos/o/r/pulls/1", "graphql", "repos/o/r/pulls/1"]
    two = _part(plan, [(0, 1.0), (1, 1.0)])
    assert two.points == {"core": 4, "graphql": 2} and two.calls == 6
    assert sorted({r.endpoint for r in two.rows}) == [
        "graphql", "repos/o/r-1/pulls/1", "repos/o/r/pulls/1"]  # fmt: skip
    # in recorded time order, each at its recorded time
    stamps = [r.timestamp for r in two.rows]
    assert stamps == sorted(stamps) and stamps[0].startswith("2026-04-17T09:00:01")
    before = two.snapshots["before"].resources["core"]
    after = two.snapshots["after"].resources["core"]
    assert before.limit == after.limit == 2 * LIMITS["core"]  # the copies' budget
    assert before.remaining - after.remaining == 4


def test_a_dropped_operation_is_counted_not_sent(plan: ReplayPlan) -> None:
    part = _part(plan, [(0, 1.0)], policy=ReplayPolicy(drop=frozenset({"gh.api.graphql"})))
    assert (part.points, part.calls) == ({"core": 2}, 2)
    assert part.policy["dropped"] == {"gh.api.graphql": 1}
