"""The lab's engine: a recording's calls through a policy stack, GitHub priced hourly;
what the ``Tally`` counts, at a weight, when the budget or the window runs out."""

from collections.abc import Callable

import pytest

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.offline import Tally, run_offline
from ghbench.policies.spec import parse_policies

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture
NONE = parse_policies("none")


def test_copies_count_at_their_weight_and_spend_per_hour_scales_the_span(call: MakeCall) -> None:
    calls = [call(0.0, key="a", graphql=2.0), call(60.0, key="b", core=1.0, graphql=0.0)]
    tally = run_offline(calls, NONE, {"graphql": 100.0, "core": 100.0}, weight=2.5, span_s=600.0)
    assert tally.verdicts[Verdict.SENT] == 5.0
    assert tally.spent == {"graphql": 5.0, "core": 2.5}
    assert tally.per_hour("graphql") == pytest.approx(30.0)
    assert tally.refused == 0 and tally.absorbed == 0


def test_the_budget_running_out_refuses_the_copies_that_do_not_fit(call: MakeCall) -> None:
    calls = [call(float(i), key=str(i)) for i in range(4)]
    tally = run_offline(calls, NONE, {"graphql": 3.0, "core": 5.0}, weight=2.0, span_s=60.0)
    assert tally.spent["graphql"] == 3.0
    assert tally.verdicts[Verdict.SENT] == 3.0
    assert tally.verdicts[Verdict.RATE_LIMITED] == 5.0 and tally.refused == 5.0
    # an infinite ledger prices the demand: nothing refused, the policies' limits apart
    demand = run_offline(calls, NONE, {"graphql": 3.0, "core": 5.0}, span_s=60.0,
                         ledger={"graphql": float("inf"), "core": float("inf")})  # fmt: skip
    assert demand.spent["graphql"] == 4.0 and demand.refused == 0


def test_a_session_held_by_the_gate_falls_behind_and_the_window_closes_on_it(
    call: MakeCall,
) -> None:
    # a point every 100 s after a burst of 1: the session's calls, 10 s apart, slide
    calls = [call(float(10 * i), key=str(i)) for i in range(4)]
    tally = run_offline(calls, parse_policies("gate:refill=36:burst=1"),
                        {"graphql": 5000.0, "core": 5000.0}, span_s=150.0)  # fmt: skip
    # the 1st goes at 0, the 2nd waits to 100 (90 s held), the 3rd comes at 110 and
    # waits to 200, past the window's end (150); the 4th comes after the end
    assert tally.verdicts[Verdict.SENT] == 2
    assert tally.delayed == 2 and tally.late == 2
    assert tally.longest_wait_s == pytest.approx(90.0)
    assert tally.longest_lag_s == pytest.approx(180.0)


def test_no_calls_and_no_span_are_zeroes() -> None:
    tally = run_offline([], NONE, {"graphql": 1.0, "core": 1.0}, span_s=0.0)
    assert tally == Tally(0.0) and tally.per_hour("core") == 0.0
