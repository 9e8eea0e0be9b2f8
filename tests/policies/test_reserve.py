"""The reserve band: reads refused below ``percent`` of a budget left, writes let through."""

from collections.abc import Callable

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.reserve import refuses
from ghbench.policies.spec import ReserveSpec, parse_policies
from ghbench.policies.stack import PolicyStack

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_reserve_refuses_reads_below_its_band_and_lets_writes_through(call: MakeCall) -> None:
    stack = PolicyStack(parse_policies("reserve:percent=20"), LIMITS)
    low = {"graphql": 900.0, "core": 5000.0}
    assert stack.admit(call(0.0), low).verdict is Verdict.RESERVED
    assert stack.admit(call(0.0, write=True), low).verdict is Verdict.SENT
    assert stack.admit(call(0.0), LIMITS).verdict is Verdict.SENT


def test_only_a_budget_the_read_draws_on_counts(call: MakeCall) -> None:
    spec = ReserveSpec(percent=20.0)
    low_core = {"graphql": 5000.0, "core": 10.0}
    assert not refuses(spec, call(0.0), low_core, LIMITS)  # a GraphQL read
    assert refuses(spec, call(0.0, graphql=0.0, core=1.0), low_core, LIMITS)
    # the band's edge: exactly 20% left is not below it
    assert not refuses(spec, call(0.0), {"graphql": 1000.0, "core": 5000.0}, LIMITS)
    assert refuses(spec, call(0.0), {"graphql": 999.0, "core": 5000.0}, LIMITS)
    assert not refuses(spec, call(0.0), {}, LIMITS)  # nothing seen yet: all of it left


def test_the_shimmed_read_is_judged_by_what_it_draws_after_the_shim(call: MakeCall) -> None:
    stack = PolicyStack(parse_policies("shim+reserve"), LIMITS)
    graphql_low = {"graphql": 0.0, "core": 5000.0}
    assert stack.admit(call(0.0), graphql_low).verdict is Verdict.SENT  # now 4 core
    assert stack.admit(call(0.0), {"graphql": 5000.0, "core": 0.0}).verdict is Verdict.RESERVED
