"""The GraphQL→REST shim: which gh commands it answers, and what they then draw."""

from collections.abc import Callable

from ghbench.policies.calls import Call
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.shim import SHIM_FIXTURE, SHIMMED, shimmed
from ghbench.policies.spec import parse_policies
from ghbench.policies.stack import PolicyStack

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_shim_moves_pr_checks_to_four_core_requests(call: MakeCall) -> None:
    stack = PolicyStack(parse_policies("shim"), LIMITS)
    admitted = stack.admit(call(0.0, graphql=2.0), LIMITS)
    assert (admitted.graphql, admitted.core) == (0.0, 4.0)
    other = stack.admit(call(0.0, command="gh.issue.view", graphql=2.0), LIMITS)
    assert (other.graphql, other.core) == (2.0, 0.0)


def test_pr_view_is_shimmed_only_with_json_and_never_a_write_or_rest(call: MakeCall) -> None:
    view = {"command": "gh.pr.view", "graphql": 1.0}
    assert shimmed(call(0.0, argv=("pr", "view", "7", "--json", "state"), **view))
    assert not shimmed(call(0.0, argv=("pr", "view", "7", "--comments"), **view))
    assert shimmed(call(0.0))  # gh pr checks needs no argument
    assert not shimmed(call(0.0, write=True))
    assert not shimmed(call(0.0, graphql=0.0, core=1.0))  # already REST
    assert set(SHIM_FIXTURE) == set(SHIMMED)  # every shimmed command has its fixture
