"""A recorded fleet's calls run through a policy stack, GitHub priced by ``HourlyLedger``.

``run_offline`` is the lab's one engine: calls in recorded order, each admitted by the
stack, the ones that go charged to the ledger at the time the gate lets them go, a
rate-limited batch telling the cooldown. What it returns (``Tally``) counts copies:
a call run at weight 2.5 counts 2.5 times.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ghbench.policies.calls import BUDGETS, Call, Verdict
from ghbench.policies.ledger import HourlyLedger
from ghbench.policies.spec import Policies
from ghbench.policies.stack import PolicyStack

__all__ = ["Tally", "run_offline"]


@dataclass
class Tally:
    """What a policy stack made of a fleet's calls."""

    span_s: float
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(BUDGETS, 0.0))
    verdicts: defaultdict[Verdict, float] = field(default_factory=lambda: defaultdict(float))
    delayed: float = 0.0  # calls the gate held back
    late: float = 0.0  # calls the window closed on (the gate held them, or their session)
    waited_s: float = 0.0  # their seconds held, summed
    longest_wait_s: float = 0.0
    # the furthest a session fell behind its recorded pace (its waits at the gate, summed)
    longest_lag_s: float = 0.0
    cooldowns: int = 0

    def per_hour(self, budget: str) -> float:
        return self.spent[budget] * 3600.0 / self.span_s if self.span_s > 0 else 0.0

    @property
    def refused(self) -> float:
        return sum(n for v, n in self.verdicts.items() if v.refused)

    @property
    def absorbed(self) -> float:
        return sum(n for v, n in self.verdicts.items() if v.absorbed)


def run_offline(
    calls: Sequence[Call],
    policies: Policies,
    limits: Mapping[str, float],
    *,
    weight: float = 1.0,
    span_s: float,
    ledger: Mapping[str, float] | None = None,
) -> Tally:
    """``calls`` (in time order) at ``weight`` copies each, under ``policies`` (which
    read ``limits``: the reserve's band, the gate's refill) and GitHub's hourly limits,
    ``ledger`` (default ``limits``; infinite ones: the demand, nothing refused)."""
    stack = PolicyStack(policies, limits, weight=weight)
    github = HourlyLedger(limits if ledger is None else ledger)
    tally = Tally(span_s)
    verdicts = tally.verdicts
    spent = tally.spent
    end = (calls[0].at if calls else 0.0) + span_s
    # a session whose call the gate held waits: its later calls come that much later
    behind: dict[str, float] = {}
    for recorded in calls:
        call = recorded
        lag = behind.get(call.session, 0.0) if behind else 0.0
        if lag > 0:
            call = copy.copy(recorded)
            call.at += lag
            if call.at > end:
                tally.late += weight
                continue
        admission = stack.admit(call, github.left(call.at))
        verdict = admission.verdict
        if verdict is not Verdict.SENT:
            verdicts[verdict] += weight
            if verdict is Verdict.UNCHANGED:
                stack.sent(call, admission)
            continue
        at = admission.at
        if admission.waited > 0:
            tally.delayed += weight
            tally.waited_s += admission.waited * weight
            tally.longest_wait_s = max(tally.longest_wait_s, admission.waited)
            behind[call.session] = behind.get(call.session, 0.0) + admission.waited
            if at > end:  # the window closed first: the fleet was still waiting
                tally.late += weight
                continue
        costs = {"graphql": admission.graphql, "core": admission.core}
        went = github.charge(at, costs, weight)
        if went > 0:
            spent["graphql"] += admission.graphql * went
            spent["core"] += admission.core * went
            verdicts[Verdict.SENT] += went
            stack.sent(call, admission)
        if went < weight:
            verdicts[Verdict.RATE_LIMITED] += weight - went
            # GitHub refuses a GraphQL call with a 200 and a RATE_LIMITED error, which
            # carries no hint AO reads (its default then); a REST one with its reset
            graphql = admission.graphql > 0
            reset = None if graphql else github.reset("core", at)
            stack.limited(call, at, retry_after=None, reset=reset)
    tally.longest_lag_s = max(behind.values(), default=0.0)
    if stack.cooldown is not None:
        tally.cooldowns = stack.cooldown.started
    return tally
