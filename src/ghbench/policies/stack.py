"""A run's policies in the order they act on a call: the orchestrator's cooldown, then
the agent's gh wrapper (the shim, the fleet's cache proxy, the ETag probes, the reserve
band), then the fleet's admission gate; GitHub answers after that.

``admit`` says what becomes of a call before it goes; ``sent`` and ``limited`` tell the
stack what happened to it. The lab runs it over a recording (``offline``); the workload
model runs it in front of its transport, GitHub being the emulator. How the probes are
answered is the caller's (``ProbeOracle``): offline the lab's rule, in the model the
emulator's ETags.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ghbench.policies.cache import Cache
from ghbench.policies.calls import Admission, Call, Verdict
from ghbench.policies.cooldown import Cooldown
from ghbench.policies.gate import Gate
from ghbench.policies.probe import PROBES, Probe
from ghbench.policies.reserve import refuses
from ghbench.policies.shim import SHIMMED, shimmed
from ghbench.policies.spec import Policies

__all__ = ["PolicyStack", "ProbeOracle"]

# a status read about to go: True when both its probes come back 304
ProbeOracle = Callable[[Call], bool]


class PolicyStack:
    def __init__(
        self,
        policies: Policies,
        limits: Mapping[str, float],
        *,
        weight: float = 1.0,
        oracle: ProbeOracle | None = None,
    ) -> None:
        self.policies = policies
        self.limits = dict(limits)
        self.weight = weight  # identical copies each call stands for
        self.cache = Cache(policies.cache) if policies.cache else None
        self.probe = Probe() if policies.probe else None
        self.oracle: ProbeOracle | None = None
        self.offline = oracle is None  # the probes priced by the lab's rule, not sent
        if self.probe is not None:
            self.oracle = oracle if oracle is not None else self.probe.unchanged
        self.gate = Gate(policies.gate, self.limits) if policies.gate else None
        self.cooldown = Cooldown(policies.cooldown) if policies.cooldown else None

    def admit(self, call: Call, left: Mapping[str, float]) -> Admission:
        """What becomes of ``call``, ``left`` being each budget's points left as the
        fleet last saw them."""
        if self.cooldown is not None and self.cooldown.holds(call):
            return Admission(Verdict.COOLING, call.at)
        graphql, core = call.graphql, call.core
        if self.policies.shim is not None and shimmed(call):
            graphql, core = 0.0, float(SHIMMED[call.command])
        if self.cache is not None:
            verdict = self.cache.lookup(call)
            if verdict is not None:
                return Admission(verdict, call.at)
        probes = 0
        if self.probe is not None and self.oracle is not None and Probe.applies(call):
            if self.oracle(call):
                return Admission(Verdict.UNCHANGED, call.at, probes=PROBES)
            probes, core = PROBES, core + (self.probe.charged(call) if self.offline else PROBES)
        reserve = self.policies.reserve
        if reserve is not None:
            drawn = Call(call.at, call.session, call.key, call.repo, call.command, graphql, core)
            drawn.write = call.write
            if refuses(reserve, drawn, left, self.limits):
                return Admission(Verdict.RESERVED, call.at)
        at = call.at
        if self.gate is not None:
            at = self.gate.admit(at, {"graphql": graphql * self.weight, "core": core * self.weight})
        return Admission(Verdict.SENT, at, graphql, core, probes, at - call.at)

    def sent(self, call: Call, admission: Admission) -> None:
        """``call`` was answered (sent at ``admission.at``, or absorbed by a probe)."""
        if self.cache is not None and admission.verdict is Verdict.SENT:
            self.cache.sent(call, admission.at)
        if self.probe is not None:
            if call.write:
                self.probe.wrote(call.repo, admission.at)
            elif Probe.applies(call) and admission.verdict is Verdict.SENT:
                self.probe.answered(call, admission.at + call.duration)

    def limited(
        self, call: Call, at: float, *, retry_after: float | None, reset: float | None
    ) -> None:
        """GitHub refused ``call`` (sent at ``at``) for a rate limit."""
        if self.cooldown is not None and Cooldown.applies(call):
            self.cooldown.limited(at, retry_after=retry_after, reset=reset)
