"""The fleet's admission gate: a token bucket per budget, first come first served."""

from collections.abc import Callable

import pytest

from ghbench.policies.calls import Call
from ghbench.policies.gate import DEFAULT_FRACTION, Gate
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.offline import run_offline
from ghbench.policies.spec import GateSpec, parse_policies

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_gate_holds_calls_to_its_refill_after_the_burst(call: MakeCall) -> None:
    calls = [call(float(i), key=str(i)) for i in range(20)]  # 1 point a second
    tally = run_offline(calls, parse_policies("gate:refill=360:burst=10"), LIMITS, span_s=3600.0)
    # the burst, then a point every 10 s: once it is spent each call waits the 9 s its
    # point lacks, the session's next call coming 1 s after it went (it waited too)
    assert tally.delayed == 10
    assert tally.spent["graphql"] == 20
    assert tally.longest_wait_s == pytest.approx(9.0)


def test_the_burst_goes_at_once_then_the_refill_paces() -> None:
    gate = Gate(GateSpec(refill=3600.0, burst=2), LIMITS)  # a point a second
    assert [gate.admit(0.0, {"graphql": 1.0}) for _ in range(4)] == [0.0, 0.0, 1.0, 2.0]
    # the core bucket is its own: untouched by the GraphQL calls
    assert gate.admit(2.0, {"core": 2.0}) == 2.0


def test_no_call_passes_the_queue_and_a_call_over_the_burst_is_waited_off_after() -> None:
    gate = Gate(GateSpec(refill=3600.0, burst=2), LIMITS)
    assert gate.admit(0.0, {"graphql": 5.0}) == 0.0  # takes the burst, goes below zero
    assert gate.admit(0.0, {"graphql": 1.0}) == pytest.approx(4.0)  # -3 to +1
    assert gate.admit(0.0, {"graphql": 0.0, "core": 0.0}) == pytest.approx(4.0)  # behind it


def test_without_a_refill_the_gate_refills_80_percent_of_each_limit() -> None:
    gate = Gate(GateSpec(), {"graphql": 3600.0, "core": 7200.0})
    assert gate.rate == {"graphql": DEFAULT_FRACTION, "core": 2 * DEFAULT_FRACTION}
