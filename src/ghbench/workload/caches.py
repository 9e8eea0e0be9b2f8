"""AO's in-memory caches: LRU maps with an optional time-to-live, and AO 0.10's FIFO maps.

Time is passed in (``now``), never read, so the same cache works on a virtual
clock. A restart (scenario S5) is just ``clear()`` on every cache.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["FifoCache", "LruCache", "TtlCache"]

K = TypeVar("K")
V = TypeVar("V")


class _Bounded(Generic[K, V]):
    """A map of at most ``capacity`` entries; what forgets which key is the subclass's."""

    _data: dict[K, V]

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity

    def pop(self, key: K) -> None:
        self._data.pop(key, None)

    def clear(self) -> None:
        self._data.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)


class LruCache(_Bounded[K, V]):
    """A map that forgets its least recently used key beyond ``capacity`` entries."""

    _data: OrderedDict[K, V]

    def __init__(self, capacity: int) -> None:
        super().__init__(capacity)
        self._data = OrderedDict()

    def get(self, key: K) -> V | None:
        if key not in self._data:
            return None
        self._data.move_to_end(key)
        return self._data[key]

    def put(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.capacity:
            self._data.popitem(last=False)


class FifoCache(_Bounded[K, V]):
    """A map that forgets its oldest key beyond ``capacity`` entries; neither a read nor
    a rewrite renews a key (AO 0.10's ``observe.CacheSet`` and its client's ETag cache)."""

    def __init__(self, capacity: int) -> None:
        super().__init__(capacity)
        self._data = {}

    def get(self, key: K) -> V | None:
        return self._data.get(key)

    def put(self, key: K, value: V) -> None:
        self._data[key] = value  # a dict keeps a key's first insertion place
        while len(self._data) > self.capacity:
            del self._data[next(iter(self._data))]


class TtlCache(Generic[K, V]):
    """An LRU map whose entries expire ``ttl`` seconds after they were stored."""

    def __init__(self, ttl: float, capacity: int = 10_000) -> None:
        self.ttl = ttl
        self._lru: LruCache[K, tuple[float, V]] = LruCache(capacity)

    def get(self, key: K, now: float) -> V | None:
        hit = self._lru.get(key)
        if hit is None:
            return None
        expires, value = hit
        if now >= expires:
            self._lru.pop(key)
            return None
        return value

    def put(self, key: K, value: V, now: float) -> None:
        if self.ttl > 0:
            self._lru.put(key, (now + self.ttl, value))

    def clear(self) -> None:
        self._lru.clear()
