"""ghbench.workload.caches: AO's bounded caches, each held to a plain reference model
over random sequences of operations (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.workload.caches import FifoCache, LruCache, TtlCache

keys = st.integers(0, 6)
Op = tuple[str, int, int]  # (what, key, value): the value only for a put
operations = st.lists(
    st.tuples(st.sampled_from(["put", "get", "pop"]), keys, st.integers()), max_size=60
)


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.integers(1, 5), operations)
def test_lru_forgets_the_least_recently_used_key(capacity: int, ops: list[Op]) -> None:
    cache: LruCache[int, int] = LruCache(capacity)
    model: list[tuple[int, int]] = []  # least recently used first
    for op in ops:
        key = op[1]
        found = next((v for k, v in model if k == key), None)
        if op[0] == "put":
            value = op[2]
            model = [(k, v) for k, v in model if k != key] + [(key, value)]
            model = model[-capacity:]
            cache.put(key, value)
        elif op[0] == "get":
            if found is not None:
                model = [(k, v) for k, v in model if k != key] + [(key, found)]
            assert cache.get(key) == found
        else:
            model = [(k, v) for k, v in model if k != key]
            cache.pop(key)
        assert len(cache) == len(model) <= capacity
        assert all(k in cache for k, _ in model)


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.integers(1, 5), operations)
def test_fifo_forgets_the_oldest_key_and_a_read_or_rewrite_does_not_renew_it(
    capacity: int, ops: list[Op]
) -> None:
    cache: FifoCache[int, int] = FifoCache(capacity)
    model: dict[int, int] = {}  # insertion order is age
    for op in ops:
        key = op[1]
        if op[0] == "put":
            value = op[2]
            model[key] = value
            while len(model) > capacity:
                del model[next(iter(model))]
            cache.put(key, value)
        elif op[0] == "get":
            assert cache.get(key) == model.get(key)
        else:
            model.pop(key, None)
            cache.pop(key)
        assert len(cache) == len(model)


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.floats(0.5, 100), st.floats(0, 200))
def test_ttl_entries_expire_ttl_seconds_after_they_were_stored(ttl: float, later: float) -> None:
    cache: TtlCache[str, int] = TtlCache(ttl)
    cache.put("k", 1, now=1000.0)
    expected = 1 if 1000.0 + later < 1000.0 + ttl else None
    assert cache.get("k", now=1000.0 + later) == expected


def test_ttl_zero_caches_nothing_and_clear_forgets_everything() -> None:
    off: TtlCache[str, int] = TtlCache(0)
    off.put("k", 1, now=0.0)
    assert off.get("k", now=0.0) is None
    on: TtlCache[str, int] = TtlCache(60)
    on.put("k", 1, now=0.0)
    on.clear()  # a restart (scenario S5)
    assert on.get("k", now=1.0) is None


def test_ttl_keeps_at_most_its_capacity_least_recently_used_first() -> None:
    cache: TtlCache[int, int] = TtlCache(60, capacity=2)
    for key in (1, 2):
        cache.put(key, key, now=0.0)
    assert cache.get(1, now=1.0) == 1  # 2 is now the least recently used
    cache.put(3, 3, now=1.0)
    assert cache.get(2, now=1.0) is None
    assert cache.get(1, now=1.0) == 1 and cache.get(3, now=1.0) == 3
