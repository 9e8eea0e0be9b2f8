"""Tick scheduling: an immediate first run, overlapping ticks skipped."""

from ghbench.workload.caches import LruCache, TtlCache
from ghbench.workload.process import next_tick_after


def test_on_time_tick_keeps_the_period() -> None:
    assert next_tick_after(0.0, 12.0, 30.0, skip=True) == (30.0, 0)


def test_overlapping_ticks_are_skipped() -> None:
    # a 53 s tick started at 0: the one due at 30 is dropped, the next runs at 60
    assert next_tick_after(0.0, 53.0, 30.0, skip=True) == (60.0, 1)
    assert next_tick_after(0.0, 95.0, 30.0, skip=True) == (120.0, 3)


def test_without_skipping_the_next_tick_is_due_at_once() -> None:
    assert next_tick_after(0.0, 53.0, 30.0, skip=False) == (30.0, 0)


def test_ttl_cache_expires_and_lru_evicts() -> None:
    ttl: TtlCache[str, int] = TtlCache(30.0)
    ttl.put("a", 1, now=100.0)
    assert ttl.get("a", now=129.9) == 1
    assert ttl.get("a", now=130.0) is None
    lru: LruCache[str, int] = LruCache(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recent
    lru.put("c", 3)
    assert "b" not in lru
    assert len(lru) == 2
