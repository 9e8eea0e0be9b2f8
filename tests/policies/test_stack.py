"""The policies in the order they act on a call, and what the stack is told after."""

from collections.abc import Callable

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.cooldown import BATCH_OPERATION
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.probe import PROBES
from ghbench.policies.spec import parse_policies
from ghbench.policies.stack import PolicyStack

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_no_policy_sends_every_call_as_it_costs(call: MakeCall) -> None:
    admitted = PolicyStack(parse_policies("none"), LIMITS).admit(call(3.0, core=2.0), {})
    assert (admitted.verdict, admitted.at, admitted.graphql, admitted.core) == (
        Verdict.SENT, 3.0, 1.0, 2.0)  # fmt: skip
    assert admitted.waited == 0 and admitted.probes == 0


def test_the_cooldown_acts_before_the_cache(call: MakeCall) -> None:
    stack = PolicyStack(parse_policies("cooldown+cache"), LIMITS)
    batch = call(0.0, agent=False, command=BATCH_OPERATION)
    stack.sent(batch, stack.admit(batch, LIMITS))
    stack.limited(batch, 0.0, retry_after=100.0, reset=None)
    assert stack.admit(call(5.0, agent=False, command=BATCH_OPERATION), LIMITS).verdict is (
        Verdict.COOLING)  # fmt: skip
    # an agent's identical read is the cache's
    assert stack.admit(call(5.0), LIMITS).verdict is Verdict.CACHED
    # a rate limit on a call the cooldown does not hold starts nothing
    quiet = PolicyStack(parse_policies("cooldown"), LIMITS)
    quiet.limited(call(0.0), 0.0, retry_after=100.0, reset=None)
    assert quiet.cooldown is not None and quiet.cooldown.started == 0


def test_the_gate_waits_for_every_copy_a_call_stands_for(call: MakeCall) -> None:
    stack = PolicyStack(parse_policies("gate:refill=3600:burst=4"), LIMITS, weight=3.0)
    assert stack.admit(call(0.0, key="a"), LIMITS).at == 0.0  # 3 of the 4 points
    second = stack.admit(call(0.0, key="b"), LIMITS)
    assert (second.at, second.waited) == (2.0, 2.0)  # 1 left, 3 needed at 1 a second


def test_a_probe_oracle_answers_in_place_of_the_labs_rule(call: MakeCall) -> None:
    seen: list[str] = []

    def oracle(c: Call) -> bool:
        seen.append(c.key)
        return c.key == "same"

    stack = PolicyStack(parse_policies("probe"), LIMITS, oracle=oracle)
    unchanged = stack.admit(call(0.0, key="same"), LIMITS)
    assert (unchanged.verdict, unchanged.probes) == (Verdict.UNCHANGED, PROBES)
    changed = stack.admit(call(0.0, key="moved"), LIMITS)
    # sent for real, the probes are always 200s first: their core requests with the read
    assert (changed.verdict, changed.probes, changed.core) == (Verdict.SENT, PROBES, 2.0)
    stack.admit(call(0.0, key="w", command="gh.pr.comment", write=True), LIMITS)
    assert seen == ["same", "moved"]  # a write is never probed
