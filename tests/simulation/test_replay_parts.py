"""A replay's parts side by side: a part in a forked child gives what it gives in this
process, and the results come back in the parts' order."""

from ghbench.simulation.replay_parts import run_parts
from ghbench.simulation.replay_run import Part, run_part
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import plan_replay

LIMITS = {"core": 5000, "graphql": 5000}
ROWS = [
    TraceRow(timestamp=f"2026-04-17T09:00:0{s}.000Z", operation="gh.api.pull", sessionId="a",
             args=["api", "repos/o/r/pulls/1"])
    for s in (1, 4)
]  # fmt: skip


def test_a_forked_part_gives_what_it_gives_here_in_the_parts_order() -> None:
    plan = plan_replay(ROWS)
    parts = [Part(copies=[(c, 1.0)], seed=1, limits=LIMITS, name=f"p{c}") for c in (0, 1, 2)]
    results = run_parts(plan, parts)
    assert [r.rows[0].endpoint for r in results] == [
        "repos/o/r/pulls/1", "repos/o/r-1/pulls/1", "repos/o/r-2/pulls/1"]  # fmt: skip
    here = run_part(plan, parts[2])
    forked = results[2]
    assert (forked.points, forked.calls, forked.charges) == (here.points, here.calls, here.charges)
    assert [r.operation for r in forked.rows] == [r.operation for r in here.rows]
    assert forked.snapshots["after"] == here.snapshots["after"]
