"""Each policy on hand-made calls, through the one stack and the offline engine: what
it absorbs, refuses and delays, and what it draws on each budget."""

import pytest

from ghbench.errors import UsageError
from ghbench.policies.calls import Call, Verdict
from ghbench.policies.cooldown import BATCH_OPERATION, ao_jitter, cooldown_s
from ghbench.policies.offline import run_offline
from ghbench.policies.spec import CooldownSpec, parse_policies
from ghbench.policies.stack import PolicyStack

LIMITS = {"graphql": 5000.0, "core": 5000.0}


def _call(at: float, **kw: object) -> Call:
    fields: dict[str, object] = {
        "session": "s1", "key": "k", "repo": "o/r", "command": "gh.pr.checks",
        "graphql": 1.0, "core": 0.0,
    }  # fmt: skip
    fields.update(kw)
    return Call(at=at, **fields)  # type: ignore[arg-type]


def test_parse_policies_reads_names_settings_and_refuses_typos() -> None:
    chosen = parse_policies("cache:ttl=60+gate:refill=3000:burst=10")
    assert chosen.names == ("cache", "gate")
    assert chosen.cache is not None and chosen.cache.ttl == 60
    assert chosen.gate is not None and (chosen.gate.refill, chosen.gate.burst) == (3000, 10)
    assert parse_policies("all").label == "probe+shim+reserve+cache+gate+cooldown"
    assert not parse_policies("none")
    for bad, said in (("cahce", "no policy 'cahce'"), ("cache:tll=3", "no setting 'tll'"),
                      ("cache:ttl", "key=value"), ("cache,cache", "named twice"),
                      ("reserve:percent=150", "percent")):  # fmt: skip
        with pytest.raises(UsageError, match=said):
            parse_policies(bad)


def test_the_cache_answers_within_its_ttl_coalesces_and_drops_a_repo_on_a_write() -> None:
    stack = PolicyStack(parse_policies("cache:ttl=30"), LIMITS)
    first = _call(0.0, duration=2.0)
    admitted = stack.admit(first, LIMITS)
    assert admitted.verdict is Verdict.SENT
    stack.sent(first, admitted)
    assert stack.admit(_call(1.0), LIMITS).verdict is Verdict.COALESCED  # still in flight
    assert stack.admit(_call(10.0), LIMITS).verdict is Verdict.CACHED
    assert stack.admit(_call(40.0), LIMITS).verdict is Verdict.SENT  # the TTL is up
    write = _call(11.0, key="w", command="gh.pr.comment", write=True)
    stack.sent(write, stack.admit(write, LIMITS))
    assert stack.admit(_call(12.0), LIMITS).verdict is Verdict.SENT  # dropped by the write


def test_the_shim_moves_pr_checks_to_four_core_requests() -> None:
    stack = PolicyStack(parse_policies("shim"), LIMITS)
    admitted = stack.admit(_call(0.0, graphql=2.0), LIMITS)
    assert (admitted.graphql, admitted.core) == (0.0, 4.0)
    other = stack.admit(_call(0.0, command="gh.issue.view", graphql=2.0), LIMITS)
    assert (other.graphql, other.core) == (2.0, 0.0)


def test_the_probes_reuse_an_answer_until_the_repo_is_written() -> None:
    calls = [_call(0.0), _call(10.0), _call(20.0, key="w", write=True, command="gh.pr.comment"),
             _call(30.0)]  # fmt: skip
    tally = run_offline(calls, parse_policies("probe"), LIMITS, span_s=30.0)
    assert tally.verdicts[Verdict.UNCHANGED] == 1
    # the first read and the one after the write: the read, and its probes' 200s
    assert tally.spent == {"graphql": 3.0, "core": 4.0}


def test_the_reserve_refuses_reads_below_its_band_and_lets_writes_through() -> None:
    stack = PolicyStack(parse_policies("reserve:percent=20"), LIMITS)
    low = {"graphql": 900.0, "core": 5000.0}
    assert stack.admit(_call(0.0), low).verdict is Verdict.RESERVED
    assert stack.admit(_call(0.0, write=True), low).verdict is Verdict.SENT
    assert stack.admit(_call(0.0), LIMITS).verdict is Verdict.SENT


def test_the_gate_holds_calls_to_its_refill_after_the_burst() -> None:
    calls = [_call(float(i), key=str(i)) for i in range(20)]  # 1 point a second
    tally = run_offline(calls, parse_policies("gate:refill=360:burst=10"), LIMITS, span_s=3600.0)
    # the burst, then a point every 10 s: once it is spent each call waits the 9 s its
    # point lacks, the session's next call coming 1 s after it went (it waited too)
    assert tally.delayed == 10
    assert tally.spent["graphql"] == 20
    assert tally.longest_wait_s == pytest.approx(9.0)


def test_the_cooldown_holds_the_orchestrators_batches_after_a_rate_limit() -> None:
    spec = CooldownSpec()
    assert cooldown_s(spec, 1000.0, retry_after=90.0, reset=5000.0) == 90.0
    assert cooldown_s(spec, 1000.0, retry_after=None, reset=1010.0) == 30.0  # at least 30 s
    assert cooldown_s(spec, 1000.0, retry_after=None, reset=9000.0) == 600.0  # at most 10 min
    assert cooldown_s(spec, 1000.5, retry_after=None, reset=None) == 60.0 + ao_jitter(1000.5)
    assert all(-7.0 <= ao_jitter(t / 7.0) < 8.0 for t in range(1000))
    # an orchestrator over its budget: the first refusal starts the cooldown (GitHub's
    # GraphQL refusal carries no hint: AO's default, at least 30 s), which holds its next
    # batches; its other GraphQL and an agent's calls go on (and are refused)
    batches = [_call(float(i), agent=False, key=str(i), graphql=100.0,
                     command=BATCH_OPERATION) for i in range(60)]  # fmt: skip
    others = [_call(i + 0.5, agent=False, key=f"o{i}", graphql=1.0, command="graphql.repository")
              for i in range(55, 60)]  # fmt: skip
    calls = sorted([*batches, *others], key=lambda c: c.at)
    tally = run_offline(calls, parse_policies("cooldown"), LIMITS, span_s=60.0)
    assert tally.verdicts[Verdict.COOLING] == 9
    assert tally.verdicts[Verdict.RATE_LIMITED] == 1 + 5
    assert tally.cooldowns == 1
