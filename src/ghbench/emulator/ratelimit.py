"""Primary rate limits: per-owner buckets and the ledger of every charge.

A bucket belongs to an *owner* (a user login for token requests, ``ip:<addr>`` for
unauthenticated ones; all of a user's tokens share one budget, as on GitHub) and a
resource (``core``, ``graphql``, ``search``, ...). Windows are fixed and start at
the first charged request: reset = first charge + window; an idle (or expired)
bucket reports ``used 0`` and reset = now + window. ``used`` is never capped, but a
charge that does not fit (``remaining < cost``) raises :class:`RateLimited` and
charges nothing, so ``used`` exceeds ``limit`` only when the limit is lowered.

Every charge is a :class:`LedgerEntry` (time, owner, token id, resource, cost,
endpoint or GraphQL operation, status), persisted with the bucket in the same
transaction. The ledger is the ground truth scorecards are checked against; it lives
in the database and is queried there (in SQL with ``--state``), never held here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from ghbench.clock import Clock
from ghbench.emulator.graphql_contract import BucketView, RateLimited
from ghbench.emulator.state.db import Database, LedgerFilter

__all__ = [
    "AUTHENTICATED_LIMITS",
    "UNAUTHENTICATED_LIMITS",
    "LedgerEntry",
    "RateLimiter",
    "is_anonymous",
]

# resource -> (limit with a token, limit without one, window seconds). Sources: limits
# reference §1.1, §1.2, §3.
_LIMITS: dict[str, tuple[int, int, int]] = {
    "core": (5000, 60, 3600),
    "graphql": (5000, 0, 3600),
    "search": (30, 10, 60),
    "code_search": (10, 0, 60),
    "integration_manifest": (5000, 5000, 3600),
    "source_import": (100, 100, 60),
    "code_scanning_upload": (1000, 0, 3600),
    "actions_runner_registration": (10000, 0, 3600),
    "scim": (15000, 0, 3600),
    "dependency_snapshots": (100, 0, 60),
    "audit_log": (1750, 0, 3600),
}
# resource -> (limit, window seconds)
AUTHENTICATED_LIMITS = {name: (token, window) for name, (token, _, window) in _LIMITS.items()}
UNAUTHENTICATED_LIMITS = {name: (anon, window) for name, (_, anon, window) in _LIMITS.items()}


def is_anonymous(owner: str) -> bool:
    return owner.startswith("ip:")


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One charge. ``token_id`` is a stable label (``token-3``), never the token."""

    ts: float
    owner: str
    token_id: str
    resource: str
    cost: int
    endpoint: str
    status: int

    def to_json(self) -> dict[str, object]:
        return asdict(self)


class _Bucket:
    __slots__ = ("used", "window_start")

    def __init__(self, used: int = 0, window_start: float | None = None) -> None:
        self.used = used
        self.window_start = window_start


class RateLimiter:
    """Buckets and ledger; every method is called under the emulator's lock."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        limits: dict[str, tuple[int, int]] | None = None,
        anonymous_limits: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.limits = dict(AUTHENTICATED_LIMITS) | dict(limits or {})
        self.anonymous_limits = dict(UNAUTHENTICATED_LIMITS) | dict(anonymous_limits or {})
        # owner -> resource -> (limit, window): per-owner overrides (control API)
        self.owner_limits: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        for owner, resource, used, start in db.load_buckets():
            self._buckets[(owner, resource)] = _Bucket(used, start)

    # -- limits ------------------------------------------------------------------
    def limit_for(self, owner: str, resource: str) -> tuple[int, int]:
        override = self.owner_limits.get(owner)
        if override and resource in override:
            return override[resource]
        table = self.anonymous_limits if is_anonymous(owner) else self.limits
        return table.get(resource) or table["core"]

    def resources(self) -> list[str]:
        return list(self.limits)

    # -- buckets -----------------------------------------------------------------
    def view(self, owner: str, resource: str) -> BucketView:
        """The bucket as headers and ``/rate_limit`` show it; charges nothing."""
        limit, window = self.limit_for(owner, resource)
        now = self.clock.now()
        bucket = self._buckets.get((owner, resource))
        if bucket is None or bucket.window_start is None or now >= bucket.window_start + window:
            return BucketView(resource, limit, limit, 0, int(now) + window)
        used = bucket.used
        return BucketView(
            resource, limit, max(0, limit - used), used, int(bucket.window_start) + window
        )

    def charge(
        self,
        owner: str,
        token_id: str,
        resource: str,
        cost: int,
        *,
        endpoint: str,
        status: int,
    ) -> BucketView:
        """Charge ``cost`` points and write the ledger entry.

        Raises RateLimited (charging nothing) when the bucket has fewer than ``cost``
        points left. A cost of 0 is a no-op that returns the current view.
        """
        if cost <= 0:
            return self.view(owner, resource)
        limit, window = self.limit_for(owner, resource)
        now = self.clock.now()
        key = (owner, resource)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket()
        if bucket.window_start is None or now >= bucket.window_start + window:
            bucket.used, bucket.window_start = 0, now
        if limit - bucket.used < cost:
            raise RateLimited(self.view(owner, resource))
        bucket.used += cost
        self.db.put_bucket((owner, resource, bucket.used, bucket.window_start))
        self.db.add_ledger((now, owner, token_id, resource, cost, endpoint, status))
        reset = int(bucket.window_start) + window
        return BucketView(resource, limit, max(0, limit - bucket.used), bucket.used, reset)

    def owners(self) -> list[str]:
        return sorted({owner for owner, _ in self._buckets})

    def reset(self) -> None:
        """Forget buckets (the database, ledger included, is cleared by the store)."""
        self._buckets.clear()

    # -- ledger queries (in the database) -----------------------------------------
    def entries(self, which: LedgerFilter | None = None) -> list[LedgerEntry]:
        """Charges matching ``which`` (all by default), in charge order."""
        return [LedgerEntry(*row) for row in self.db.ledger(which or LedgerFilter())]

    def totals(self, which: LedgerFilter | None = None) -> dict[str, int]:
        """Points per resource of the matching charges."""
        return self.db.ledger_totals(which or LedgerFilter())

    def count(self, which: LedgerFilter | None = None) -> int:
        return self.db.ledger_count(which or LedgerFilter())

    @staticmethod
    def export_jsonl(entries: Iterable[LedgerEntry]) -> bytes:
        """Charges as JSON Lines, one per line, in the order given."""
        return b"".join((json.dumps(e.to_json(), sort_keys=True) + "\n").encode() for e in entries)
