"""Tick scheduling (an immediate first run; AO's setInterval skips overlapping ticks,
AO 0.10's Go ticker runs one late) and the model's caches."""

from ghbench.workload.caches import FifoCache, LruCache, TtlCache
from ghbench.workload.schedule import GoTicker, make_schedule, next_tick_after


def test_on_time_tick_keeps_the_period() -> None:
    assert next_tick_after(0.0, 12.0, 30.0, skip=True) == (30.0, 0)


def test_overlapping_ticks_are_skipped() -> None:
    # a 53 s tick started at 0: the one due at 30 is dropped, the next runs at 60
    assert next_tick_after(0.0, 53.0, 30.0, skip=True) == (60.0, 1)
    assert next_tick_after(0.0, 95.0, 30.0, skip=True) == (120.0, 3)


def test_without_skipping_the_next_tick_is_due_at_once() -> None:
    assert next_tick_after(0.0, 53.0, 30.0, skip=False) == (30.0, 0)


def test_set_interval_is_the_grid_from_the_first_tick() -> None:
    schedule = make_schedule("set-interval", 30.0, skip=True)
    assert schedule.after(0.0, 53.0) == (60.0, 1)


def test_go_ticker_starts_when_the_first_poll_returns() -> None:
    ticker = GoTicker(30.0)
    assert ticker.after(0.0, 2.5) == (32.5, 0)  # time.NewTicker after the first poll
    assert ticker.after(32.5, 33.0) == (62.5, 0)
    assert ticker.after(62.5, 62.9) == (92.5, 0)


def test_go_ticker_runs_the_tick_that_came_during_an_overrun_at_once() -> None:
    ticker = GoTicker(30.0)
    assert ticker.after(0.0, 0.0) == (30.0, 0)
    # a 75 s poll from 30: the firing at 60 waits in the channel, the one at 90 is dropped
    assert ticker.after(30.0, 105.0) == (105.0, 1)
    assert ticker.after(105.0, 106.0) == (120.0, 0)  # back on the grid


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


def test_fifo_cache_evicts_in_insertion_order() -> None:
    fifo: FifoCache[str, int] = FifoCache(2)
    fifo.put("a", 1)
    fifo.put("b", 2)
    assert fifo.get("a") == 1  # reading does not renew it (AO 0.10's caches)
    fifo.put("a", 10)  # nor does writing a key it holds
    fifo.put("c", 3)
    assert "a" not in fifo
    assert fifo.get("b") == 2
    assert fifo.get("c") == 3
