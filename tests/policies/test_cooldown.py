"""AO 0.12.6's cooldown after a rate limit: how long, whose calls it holds, and what it
makes of an orchestrator over its budget (through the offline engine)."""

from collections.abc import Callable

import pytest

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.cooldown import BATCH_OPERATION, Cooldown, ao_jitter, cooldown_s
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.offline import run_offline
from ghbench.policies.spec import CooldownSpec, parse_policies

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_wait_is_retry_after_else_the_reset_else_the_jittered_default() -> None:
    spec = CooldownSpec()
    assert cooldown_s(spec, 1000.0, retry_after=90.0, reset=5000.0) == 90.0
    assert cooldown_s(spec, 1000.0, retry_after=None, reset=1010.0) == 30.0  # at least 30 s
    assert cooldown_s(spec, 1000.0, retry_after=None, reset=9000.0) == 600.0  # at most 10 min
    assert cooldown_s(spec, 1000.0, retry_after=None, reset=1100.0) == 100.0
    assert cooldown_s(spec, 1000.5, retry_after=None, reset=None) == 60.0 + ao_jitter(1000.5)
    # a Retry-After of 0 or a reset already past says nothing: the default
    assert cooldown_s(spec, 1000.5, retry_after=0.0, reset=900.0) == 60.0 + ao_jitter(1000.5)


def test_aos_jitter_is_the_clocks_nanoseconds_modulo_15_s_less_7() -> None:
    assert ao_jitter(0.0) == -7.0
    assert ao_jitter(14.0) == pytest.approx(7.0)
    assert ao_jitter(15.0) == -7.0  # wraps
    assert ao_jitter(30.0 + 3.5) == ao_jitter(3.5)  # the same on a 30 s ticker's grid
    assert all(-7.0 <= ao_jitter(t / 7.0) < 8.0 for t in range(1000))


def test_it_holds_only_the_orchestrators_batch_until_it_ends(call: MakeCall) -> None:
    cooldown = Cooldown(CooldownSpec())
    batch = call(0.0, agent=False, command=BATCH_OPERATION)
    assert not cooldown.holds(batch)  # not started
    assert cooldown.limited(100.0, retry_after=45.0, reset=None) == 45.0
    assert cooldown.started == 1 and cooldown.until == 145.0
    assert cooldown.holds(call(144.9, agent=False, command=BATCH_OPERATION))
    assert not cooldown.holds(call(145.0, agent=False, command=BATCH_OPERATION))
    assert not cooldown.holds(call(120.0, command=BATCH_OPERATION))  # an agent's
    assert not cooldown.holds(call(120.0, agent=False, command="graphql.repository"))


def test_the_cooldown_holds_the_orchestrators_batches_after_a_rate_limit(call: MakeCall) -> None:
    # an orchestrator over its budget: the first refusal starts the cooldown (GitHub's
    # GraphQL refusal carries no hint: AO's default, at least 30 s), which holds its next
    # batches; its other GraphQL and an agent's calls go on (and are refused)
    batches = [call(float(i), agent=False, key=str(i), graphql=100.0,
                    command=BATCH_OPERATION) for i in range(60)]  # fmt: skip
    others = [call(i + 0.5, agent=False, key=f"o{i}", graphql=1.0, command="graphql.repository")
              for i in range(55, 60)]  # fmt: skip
    calls = sorted([*batches, *others], key=lambda c: c.at)
    tally = run_offline(calls, parse_policies("cooldown"), TOKEN_LIMITS, span_s=60.0)
    assert tally.verdicts[Verdict.COOLING] == 9
    assert tally.verdicts[Verdict.RATE_LIMITED] == 1 + 5
    assert tally.cooldowns == 1
