"""The fleet's caching, coalescing proxy: what it answers from its cache, what it merges
into a call in flight, and what a write drops."""

from collections.abc import Callable

from ghbench.policies.cache import Cache
from ghbench.policies.calls import Call, Verdict
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.spec import CacheSpec, parse_policies
from ghbench.policies.stack import PolicyStack

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_cache_answers_within_its_ttl_coalesces_and_drops_a_repo_on_a_write(
    call: MakeCall,
) -> None:
    stack = PolicyStack(parse_policies("cache:ttl=30"), LIMITS)
    first = call(0.0, duration=2.0)
    admitted = stack.admit(first, LIMITS)
    assert admitted.verdict is Verdict.SENT
    stack.sent(first, admitted)
    assert stack.admit(call(1.0), LIMITS).verdict is Verdict.COALESCED  # still in flight
    assert stack.admit(call(10.0), LIMITS).verdict is Verdict.CACHED
    assert stack.admit(call(40.0), LIMITS).verdict is Verdict.SENT  # the TTL is up
    write = call(11.0, key="w", command="gh.pr.comment", write=True)
    stack.sent(write, stack.admit(write, LIMITS))
    assert stack.admit(call(12.0), LIMITS).verdict is Verdict.SENT  # dropped by the write


def test_the_ttl_runs_from_when_the_answer_came_not_when_the_call_went(call: MakeCall) -> None:
    cache = Cache(CacheSpec(ttl=10.0, coalesce=False))
    cache.sent(call(0.0, duration=4.0), 0.0)
    assert cache.lookup(call(2.0)) is None  # in flight, coalescing off: it goes
    assert cache.lookup(call(13.9)) is Verdict.CACHED
    assert cache.lookup(call(14.0)) is None
    assert cache.lookup(call(1.0, key="other")) is None


def test_writes_are_never_cached_and_invalidate_false_keeps_answers(call: MakeCall) -> None:
    cache = Cache(CacheSpec(ttl=60.0, invalidate=False))
    cache.sent(call(0.0), 0.0)
    assert cache.lookup(call(1.0, write=True)) is None
    cache.sent(call(2.0, key="w", write=True), 2.0)
    assert cache.lookup(call(3.0)) is Verdict.CACHED
    # only the repository written loses its answers
    dropping = Cache(CacheSpec(ttl=60.0))
    dropping.sent(call(0.0), 0.0)
    dropping.sent(call(0.0, key="k2", repo="o/other"), 0.0)
    dropping.sent(call(1.0, key="w", write=True), 1.0)
    assert dropping.lookup(call(2.0)) is None
    assert dropping.lookup(call(2.0, key="k2", repo="o/other")) is Verdict.CACHED


def test_an_operation_without_a_ttl_of_its_own_goes(call: MakeCall) -> None:
    cache = Cache(CacheSpec(per_operation={"gh.pr.view": 30.0}))
    cache.sent(call(0.0), 0.0)  # gh.pr.checks
    assert cache.lookup(call(1.0)) is None
    cache.sent(call(0.0, key="v", command="gh.pr.view"), 0.0)
    assert cache.lookup(call(1.0, key="v", command="gh.pr.view")) is Verdict.CACHED
