"""What the policies see of a call: its cost per budget, and which verdicts are absorbed
or refused."""

from ghbench.policies.calls import BUDGETS, Call, Verdict


def test_absorbed_and_refused_split_the_verdicts_but_sent() -> None:
    absorbed = {v for v in Verdict if v.absorbed}
    refused = {v for v in Verdict if v.refused}
    assert absorbed == {Verdict.CACHED, Verdict.COALESCED, Verdict.UNCHANGED}
    assert refused == {Verdict.RESERVED, Verdict.COOLING, Verdict.RATE_LIMITED}
    assert set(Verdict) - absorbed - refused == {Verdict.SENT}


def test_a_calls_cost_is_its_points_on_each_budget() -> None:
    call = Call(at=0.0, session="s", key="k", repo="", command="c", graphql=2.5, core=3.0)
    assert [call.cost(b) for b in BUDGETS] == [2.5, 3.0]
    assert BUDGETS == ("graphql", "core")
