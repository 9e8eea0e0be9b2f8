"""A caching, coalescing proxy shared by the fleet.

An identical call (same key) within ``ttl`` of the last one sent is answered from the
cache; one made while an identical call is still in flight waits for it and shares its
answer (singleflight); a write to a repository drops every answer about it. Stands for
a gh cache daemon: gh's own ``gh api --cache TTL`` (keyed by method, URL and body)
shared by the fleet, with coalescing and invalidation on writes.
"""

from __future__ import annotations

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.spec import CacheSpec

__all__ = ["Cache"]


class Cache:
    def __init__(self, spec: CacheSpec) -> None:
        self.spec = spec
        self._fresh: dict[str, float] = {}  # key -> when its answer came
        self._flight: dict[str, float] = {}  # key -> when its call in flight ends
        self._by_repo: dict[str, set[str]] = {}

    def lookup(self, call: Call) -> Verdict | None:
        """CACHED, COALESCED, or None: the call goes."""
        ttl = self.spec.ttl_for(call.command)
        if call.write or ttl is None:
            return None
        ends = self._flight.get(call.key)
        if self.spec.coalesce and ends is not None and call.at < ends:
            return Verdict.COALESCED
        came = self._fresh.get(call.key)
        if came is not None and call.at - came < ttl and call.at >= came:
            return Verdict.CACHED
        return None

    def sent(self, call: Call, at: float) -> None:
        """``call`` went at ``at``: its answer is kept from when it ends."""
        if call.write:
            if self.spec.invalidate:
                for key in self._by_repo.pop(call.repo, ()):
                    self._fresh.pop(key, None)
            return
        end = at + call.duration
        self._flight[call.key] = end
        self._fresh[call.key] = end
        self._by_repo.setdefault(call.repo, set()).add(call.key)
