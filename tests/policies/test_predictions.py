"""Honest predictions (docs/policies.md): the lab's prediction for each policy, made from
one recorded run of the agents' model, against running that policy for real (the same
model with the policy in front of its gh, on the emulator, in virtual time) at two fleet
sizes: within 10% on spend per hour of every budget the fleet spends on.

The recording and the real runs share a seed, so the recorded size's agents are the
recording's; the larger fleet adds agents of its own. The reserve runs on a GraphQL
budget of 1,000/h, so that it acts within the 10 virtual minutes. The probes and the
shim miss the 10% (docs/policies.md says why)."""

import pytest

from ghbench.analysis.lab import LabRecording, calls_of
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.offline import run_offline
from ghbench.policies.spec import parse_policies
from ghbench.simulation.agents import AgentRunSpec, run_agents

RECORDED = 3
pytestmark = pytest.mark.slow  # each test runs the model or a replay (~1 s)
SEED = 7
WINDOW_S = 600.0
LARGE = (("graphql", 1_000_000), ("core", 1_000_000))  # the demand, nothing refused
SMALL = (("graphql", 1_000), ("core", 5_000))  # the reserve acts within the window
# (policy, the budgets it runs on)
CHECKED = (("none", LARGE), ("cache", LARGE), ("gate:refill=3000", LARGE), ("reserve", SMALL))
SPENT = 250.0  # per hour: a budget below this is not what the fleet spends on


def _spec(agents: int, limits: tuple[tuple[str, int], ...], policy: str) -> AgentRunSpec:
    return AgentRunSpec(profile="claude-code", agents=agents, duration_s=WINDOW_S,
                        limits=limits, policies=parse_policies(policy))  # fmt: skip


@pytest.fixture(scope="module")
def recording() -> LabRecording:
    return calls_of(run_agents(_spec(RECORDED, LARGE, "none"), seed=SEED).rows)


@pytest.mark.parametrize(("policy", "limits"), CHECKED, ids=[c[0] for c in CHECKED])
@pytest.mark.parametrize("sessions", [RECORDED, 2 * RECORDED])
def test_the_lab_predicts_a_policys_spend_within_10_percent(
    recording: LabRecording, policy: str, limits: tuple[tuple[str, int], ...], sessions: int
) -> None:
    real = run_agents(_spec(sessions, limits, policy), seed=SEED)
    budgets = {**TOKEN_LIMITS, **{b: float(n) for b, n in limits}}
    predicted = run_offline(
        recording.calls,
        parse_policies(policy),
        budgets,
        weight=sessions / RECORDED,
        span_s=recording.span_s,
    )
    compared = 0
    for budget in ("graphql", "core"):
        measured = real.points_per_hour(budget)
        if max(measured, predicted.per_hour(budget)) < SPENT:
            continue
        compared += 1
        assert predicted.per_hour(budget) == pytest.approx(measured, rel=0.10), budget
    assert compared >= 1
    if policy == "reserve":  # it acted: the spend is held at 80% of the budget
        assert predicted.per_hour("graphql") * WINDOW_S / 3600 == pytest.approx(800, rel=0.02)
