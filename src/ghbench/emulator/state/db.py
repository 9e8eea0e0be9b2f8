"""Durability: every record, rate-limit bucket and ledger entry goes to SQLite.

The in-memory indexes in :class:`~ghbench.emulator.state.Store` are the working
copy; this module is the write-through log behind them. Writes made inside
``transaction()`` are buffered and committed together when the outermost
transaction ends, and the core ends it before it answers, so an acknowledged
request survives ``kill -9`` (WAL with ``synchronous=NORMAL`` loses nothing on a
process crash; only a power cut could lose the last commits).

``MemoryDatabase`` has the same interface and keeps nothing: the simulation mode.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from ghbench.emulator.state.models import RECORD_TYPES, Record
from ghbench.errors import EmulatorError
from ghbench.locks import hold_lock

__all__ = ["BucketRow", "Database", "LedgerRow", "MemoryDatabase", "SqliteDatabase"]

# (owner, resource, used, window_start)
BucketRow = tuple[str, str, int, float | None]
# (ts, owner, token_id, resource, cost, endpoint, status)
LedgerRow = tuple[float, str, str, str, int, str, int]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records(
    kind TEXT NOT NULL, id INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(kind, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS buckets(
    owner TEXT NOT NULL, resource TEXT NOT NULL, used INTEGER NOT NULL, window_start REAL,
    PRIMARY KEY(owner, resource)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ledger(
    seq INTEGER PRIMARY KEY, ts REAL NOT NULL, owner TEXT NOT NULL, token_id TEXT NOT NULL,
    resource TEXT NOT NULL, cost INTEGER NOT NULL, endpoint TEXT NOT NULL, status INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_resource_ts ON ledger(resource, ts);
"""
_TYPES: dict[str, type[Record]] = {t.KIND: t for t in RECORD_TYPES}


class Database:
    """The interface both backends share; the base class keeps nothing."""

    path: Path | None = None

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._depth = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes; the outermost exit commits them (even if the body raised)."""
        with self._lock:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._flush()

    def put(self, record: Record) -> None:
        """Insert or replace ``record``."""

    def delete(self, record: Record) -> None:
        """Remove ``record``."""

    def put_bucket(self, row: BucketRow) -> None:
        """Insert or replace one rate-limit bucket."""

    def add_ledger(self, row: LedgerRow) -> None:
        """Append one ledger entry."""

    def load_records(self) -> list[Record]:
        return []

    def load_buckets(self) -> list[BucketRow]:
        return []

    def load_ledger(self) -> list[LedgerRow]:
        return []

    def clear(self) -> None:
        """Forget everything (control API reset)."""

    def close(self) -> None:
        """Release the connection."""

    def _flush(self) -> None:
        pass


class MemoryDatabase(Database):
    """No durability: the simulation mode."""


class SqliteDatabase(Database):
    """One WAL-mode connection under the database lock, prepared statements only."""

    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.path = directory / "emulator.sqlite3"
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EmulatorError(
                f"--state {directory}: cannot create it ({exc.strerror}); choose a writable "
                "directory"
            ) from exc
        # One emulator per state directory: two would hand out the same numbers and lose
        # each other's writes. Released by close(), or by the kernel if we die.
        self._state_lock = hold_lock(
            directory / "emulator.lock",
            f"--state {directory} is in use by another emulator; stop it or choose another "
            "directory",
        )
        try:
            # Autocommit mode: transactions are explicit BEGIN/COMMIT in _flush.
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            self._state_lock.release()
            raise EmulatorError(
                f"--state {directory}: cannot open the emulator's state database ({exc}); "
                "choose a writable directory, or remove a damaged emulator.sqlite3"
            ) from exc
        self._puts: dict[tuple[str, int], Record] = {}
        self._deletes: set[tuple[str, int]] = set()
        self._buckets: dict[tuple[str, str], BucketRow] = {}
        self._ledger: list[LedgerRow] = []
        self._encoder = msgspec.json.Encoder()

    def put(self, record: Record) -> None:
        with self._lock:
            key = (record.KIND, record.id)
            self._deletes.discard(key)
            self._puts[key] = record
            if self._depth == 0:
                self._flush()

    def delete(self, record: Record) -> None:
        with self._lock:
            key = (record.KIND, record.id)
            self._puts.pop(key, None)
            self._deletes.add(key)
            if self._depth == 0:
                self._flush()

    def put_bucket(self, row: BucketRow) -> None:
        with self._lock:
            self._buckets[(row[0], row[1])] = row
            if self._depth == 0:
                self._flush()

    def add_ledger(self, row: LedgerRow) -> None:
        with self._lock:
            self._ledger.append(row)
            if self._depth == 0:
                self._flush()

    def _flush(self) -> None:
        if not (self._puts or self._deletes or self._buckets or self._ledger):
            return
        conn = self._conn
        conn.execute("BEGIN")
        try:
            if self._puts:
                conn.executemany(
                    "INSERT OR REPLACE INTO records(kind, id, data) VALUES (?, ?, ?)",
                    [(k, i, self._encoder.encode(r)) for (k, i), r in self._puts.items()],
                )
            if self._deletes:
                conn.executemany("DELETE FROM records WHERE kind = ? AND id = ?", self._deletes)
            if self._buckets:
                conn.executemany(
                    "INSERT OR REPLACE INTO buckets(owner, resource, used, window_start)"
                    " VALUES (?, ?, ?, ?)",
                    list(self._buckets.values()),
                )
            if self._ledger:
                conn.executemany(
                    "INSERT INTO ledger(ts, owner, token_id, resource, cost, endpoint, status)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    self._ledger,
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        finally:
            self._puts.clear()
            self._deletes.clear()
            self._buckets.clear()
            self._ledger.clear()

    def load_records(self) -> list[Record]:
        with self._lock:
            rows: list[Any] = self._conn.execute(
                "SELECT kind, data FROM records ORDER BY id"
            ).fetchall()
        out: list[Record] = []
        for kind, data in rows:
            record_type = _TYPES.get(kind)
            if record_type is not None:
                out.append(msgspec.json.decode(data, type=record_type))
        return out

    def load_buckets(self) -> list[BucketRow]:
        with self._lock:
            rows: list[BucketRow] = self._conn.execute(
                "SELECT owner, resource, used, window_start FROM buckets"
            ).fetchall()
        return rows

    def load_ledger(self) -> list[LedgerRow]:
        with self._lock:
            rows: list[LedgerRow] = self._conn.execute(
                "SELECT ts, owner, token_id, resource, cost, endpoint, status FROM ledger"
                " ORDER BY seq"
            ).fetchall()
        return rows

    def clear(self) -> None:
        with self._lock:
            self._puts.clear()
            self._deletes.clear()
            self._buckets.clear()
            self._ledger.clear()
            self._conn.execute("BEGIN")
            for table in ("records", "buckets", "ledger"):
                self._conn.execute(f"DELETE FROM {table}")
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            if not self._state_lock.held:
                return
            try:
                self._flush()
                self._conn.close()
            finally:
                self._state_lock.release()
