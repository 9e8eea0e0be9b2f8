"""Durability: every record, rate-limit bucket, ledger entry and secondary-limit event
goes to SQLite.

The in-memory indexes in :class:`~ghbench.emulator.state.Store` are the working
copy; this module is the write-through log behind them. Writes made inside
``transaction()`` are buffered and committed together when the outermost
transaction ends, and the core ends it before it answers, so an acknowledged
request survives ``kill -9`` (WAL with ``synchronous=NORMAL`` loses nothing on a
process crash; only a power cut could lose the last commits). Secondary-limit events
ride along with the next commit (or every ``_SECONDARY_BATCH`` events), so a 304,
which writes nothing else, costs no commit of its own.

The file says whose it is: SQLite's ``application_id`` is ghbench's and ``meta`` holds
the schema version. A file written by a newer ghbench (a higher version, or a record
kind this one does not know) is refused with a clear message instead of being half
read; so is any other program's database, before anything is written to it. A file
of ghbench's layouts from before the application id is recognised by its tables and
columns. Ledger queries run in SQL, on its indexes.

``MemoryDatabase`` has the same interface and keeps only the ledger, in memory: the
simulation mode.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ghbench.emulator.state.models import RECORD_TYPES, Record
from ghbench.errors import EmulatorError, make_dir
from ghbench.locks import hold_lock

__all__ = [
    "SCHEMA_VERSION",
    "BucketRow",
    "Database",
    "LedgerFilter",
    "LedgerRow",
    "MemoryDatabase",
    "SecondaryRow",
    "SqliteDatabase",
]

# (owner, resource, used, window_start)
BucketRow = tuple[str, str, int, float | None]
# (ts, owner, token_id, resource, cost, endpoint, status)
LedgerRow = tuple[float, str, str, str, int, str, int]
# (owner, window kind, ts, points)
SecondaryRow = tuple[str, str, float, int]

# 1: records, buckets, ledger (+ its ts index), secondary-limit events, meta. A file
# without meta is the unversioned layout before it (0): the same tables but the last
# two, which are added.
SCHEMA_VERSION = 1
# SQLite's application id (the file header's bytes 68-71) for ghbench's state: "ghbE".
# Files written before it carry 0 and are recognised by their tables (_GHBENCH_TABLES).
APPLICATION_ID = 0x67686245
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
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
CREATE INDEX IF NOT EXISTS ledger_ts ON ledger(ts);
CREATE TABLE IF NOT EXISTS secondary(
    seq INTEGER PRIMARY KEY, owner TEXT NOT NULL, kind TEXT NOT NULL, ts REAL NOT NULL,
    points INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS secondary_ts ON secondary(ts);
"""
# Every table of every layout, with its columns: what makes a file without the
# application id ghbench's (the first three are in every layout).
_GHBENCH_TABLES = {
    "records": ("kind", "id", "data"),
    "buckets": ("owner", "resource", "used", "window_start"),
    "ledger": ("seq", "ts", "owner", "token_id", "resource", "cost", "endpoint", "status"),
    "secondary": ("seq", "owner", "kind", "ts", "points"),
    "meta": ("key", "value"),
}
_TYPES: dict[str, type[Record]] = {t.KIND: t for t in RECORD_TYPES}
_SECONDARY_BATCH = 512
_LEDGER_COLUMNS = "ts, owner, token_id, resource, cost, endpoint, status"


@dataclass(frozen=True)
class LedgerFilter:
    """Which ledger entries: ``since <= ts < until``; ``token`` matches the owner or the
    token id; ``resource`` the bucket. None: no bound."""

    since: float | None = None
    until: float | None = None
    token: str | None = None
    resource: str | None = None

    def matches(self, row: LedgerRow) -> bool:
        ts, owner, token_id, resource = row[0], row[1], row[2], row[3]
        return (
            (self.since is None or ts >= self.since)
            and (self.until is None or ts < self.until)
            and (self.token is None or self.token in (owner, token_id))
            and (self.resource is None or resource == self.resource)
        )

    def where(self) -> tuple[str, list[Any]]:
        """The SQL ``WHERE`` clause (or "") and its parameters."""
        clauses: list[str] = []
        args: list[Any] = []
        if self.resource is not None:
            clauses.append("resource = ?")
            args.append(self.resource)
        if self.since is not None:
            clauses.append("ts >= ?")
            args.append(self.since)
        if self.until is not None:
            clauses.append("ts < ?")
            args.append(self.until)
        if self.token is not None:
            clauses.append("(owner = ? OR token_id = ?)")
            args += [self.token, self.token]
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), args


class Database:
    """The interface both backends share."""

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

    def outside_transaction(self) -> bool:
        """Whether no transaction is open (writes made now commit at once)."""
        return self._depth == 0

    def put(self, record: Record) -> None:
        """Insert or replace ``record``."""

    def delete(self, record: Record) -> None:
        """Remove ``record``."""

    def put_bucket(self, row: BucketRow) -> None:
        """Insert or replace one rate-limit bucket."""

    def add_ledger(self, row: LedgerRow) -> None:
        """Append one ledger entry."""

    def add_secondary(self, row: SecondaryRow) -> None:
        """Note one secondary-limit event (written with the next commit)."""

    def load_records(self) -> list[Record]:
        return []

    def load_buckets(self) -> list[BucketRow]:
        return []

    def load_secondary(self, since: float) -> list[SecondaryRow]:
        """Events at or after ``since``, oldest first (older ones are dropped)."""
        return []

    def ledger(self, which: LedgerFilter) -> list[LedgerRow]:
        """Matching entries in charge order."""
        raise NotImplementedError

    def ledger_totals(self, which: LedgerFilter) -> dict[str, int]:
        """Points per resource of the matching entries."""
        raise NotImplementedError

    def ledger_count(self, which: LedgerFilter) -> int:
        raise NotImplementedError

    def clear(self) -> None:
        """Forget everything (control API reset)."""

    def close(self) -> None:
        """Release the connection."""

    def _flush(self) -> None:
        pass


class MemoryDatabase(Database):
    """No durability: the simulation mode. The ledger is kept (it is the ground truth)."""

    def __init__(self) -> None:
        super().__init__()
        self._ledger: list[LedgerRow] = []

    def add_ledger(self, row: LedgerRow) -> None:
        self._ledger.append(row)

    def ledger(self, which: LedgerFilter) -> list[LedgerRow]:
        with self._lock:
            return [row for row in self._ledger if which.matches(row)]

    def ledger_totals(self, which: LedgerFilter) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.ledger(which):
            out[row[3]] = out.get(row[3], 0) + row[4]
        return out

    def ledger_count(self, which: LedgerFilter) -> int:
        return len(self.ledger(which))

    def clear(self) -> None:
        with self._lock:
            self._ledger.clear()


class SqliteDatabase(Database):
    """One WAL-mode connection under the database lock, prepared statements only."""

    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.path = directory / "emulator.sqlite3"
        make_dir(
            directory,
            lambda why: EmulatorError(
                f"--state {directory}: cannot create it ({why}); choose a writable directory"
            ),
        )
        # One emulator per state directory: two would hand out the same numbers and lose
        # each other's writes. Released by close(), or by the kernel if we die.
        self._state_lock = hold_lock(
            directory / "emulator.lock",
            f"--state {directory} is in use by another emulator; stop it or choose another "
            "directory",
        )
        conn: sqlite3.Connection | None = None
        try:
            # Autocommit mode: transactions are explicit BEGIN/COMMIT in _flush.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn = conn
            self._check_owner(directory)  # before anything is written (WAL mode is)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._open_schema(directory)
        except BaseException as exc:
            if conn is not None:
                conn.close()
            # a refused state leaves no lock file behind (the lock was ours)
            self._state_lock.release(remove=True)
            if isinstance(exc, OSError | sqlite3.Error):
                raise EmulatorError(
                    f"--state {directory}: cannot open the emulator's state database ({exc}); "
                    "choose a writable directory, or another one if its emulator.sqlite3 is "
                    "damaged or not ghbench's"
                ) from exc
            raise
        self._puts: dict[tuple[str, int], Record] = {}
        self._deletes: set[tuple[str, int]] = set()
        self._buckets: dict[tuple[str, str], BucketRow] = {}
        self._ledger: list[LedgerRow] = []
        self._secondary: list[SecondaryRow] = []
        self._encoder = msgspec.json.Encoder()

    def _check_owner(self, directory: Path) -> None:
        """Refuse, without writing anything, a database that is not ghbench's: another
        application id, or tables or columns no ghbench layout has."""
        conn = self._conn
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id == APPLICATION_ID:
            return
        tables = {
            name: tuple(r[1] for r in conn.execute(f"PRAGMA table_info('{name}')"))
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        }
        user_version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id == 0 and user_version == 0:
            if not tables:
                return  # a new (or empty) database
            if {"records", "buckets", "ledger"} <= tables.keys() and all(
                _GHBENCH_TABLES.get(name) == columns for name, columns in tables.items()
            ):
                return  # a ghbench layout from before the application id
        what = f"application id {app_id:#x}" if app_id else "tables " + ", ".join(sorted(tables))
        raise EmulatorError(
            f"--state {directory}: emulator.sqlite3 is another program's database ({what}), "
            "not a ghbench emulator's state; it was left untouched: choose another directory"
        )

    def _open_schema(self, directory: Path) -> None:
        """Create the tables, or check an existing file's version and bring a version-0
        file up to this one (it only lacks tables)."""
        conn = self._conn
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = 0
        if "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            try:
                version = int(row[0]) if row else -1
            except ValueError:
                version = -1
        if version < 0 or version > SCHEMA_VERSION:
            shown = "unreadable" if version < 0 else str(version)
            raise EmulatorError(
                f"--state {directory}: its state schema version is {shown}, this ghbench "
                f"reads {SCHEMA_VERSION}; it was written by another ghbench: use that one, "
                "or choose another directory"
            )
        conn.executescript(_SCHEMA)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )

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

    def add_secondary(self, row: SecondaryRow) -> None:
        with self._lock:
            self._secondary.append(row)
            if self._depth == 0 and len(self._secondary) >= _SECONDARY_BATCH:
                self._flush()

    def _flush(self) -> None:
        if not (self._puts or self._deletes or self._buckets or self._ledger or self._secondary):
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
                    f"INSERT INTO ledger({_LEDGER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    self._ledger,
                )
            if self._secondary:
                conn.executemany(
                    "INSERT INTO secondary(owner, kind, ts, points) VALUES (?, ?, ?, ?)",
                    self._secondary,
                )
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk does): the first error is
            # the one to report, never a failed ROLLBACK in its place
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        finally:
            self._puts.clear()
            self._deletes.clear()
            self._buckets.clear()
            self._ledger.clear()
            self._secondary.clear()

    def load_records(self) -> list[Record]:
        with self._lock:
            rows: list[Any] = self._conn.execute(
                "SELECT kind, data FROM records ORDER BY id"
            ).fetchall()
        out: list[Record] = []
        for kind, data in rows:
            record_type = _TYPES.get(kind)
            if record_type is None:
                raise EmulatorError(
                    f"--state {self.path}: holds {kind!r} records, which this ghbench does not "
                    "know (a newer ghbench wrote them): use that one, or choose another "
                    "directory"
                )
            try:
                out.append(msgspec.json.decode(data, type=record_type))
            except msgspec.DecodeError as exc:
                raise EmulatorError(
                    f"--state {self.path}: a {kind!r} record cannot be read ({exc}); the file "
                    "is damaged or from another ghbench: choose another directory"
                ) from exc
        return out

    def load_buckets(self) -> list[BucketRow]:
        with self._lock:
            rows: list[BucketRow] = self._conn.execute(
                "SELECT owner, resource, used, window_start FROM buckets"
            ).fetchall()
        return rows

    def load_secondary(self, since: float) -> list[SecondaryRow]:
        with self._lock:
            self._flush()
            self._conn.execute("DELETE FROM secondary WHERE ts < ?", (since,))
            rows: list[SecondaryRow] = self._conn.execute(
                "SELECT owner, kind, ts, points FROM secondary ORDER BY seq"
            ).fetchall()
        return rows

    def ledger(self, which: LedgerFilter) -> list[LedgerRow]:
        where, args = which.where()
        with self._lock:
            self._flush()
            rows: list[LedgerRow] = self._conn.execute(
                f"SELECT {_LEDGER_COLUMNS} FROM ledger{where} ORDER BY seq", args
            ).fetchall()
        return rows

    def ledger_totals(self, which: LedgerFilter) -> dict[str, int]:
        where, args = which.where()
        with self._lock:
            self._flush()
            rows = self._conn.execute(
                f"SELECT resource, SUM(cost) FROM ledger{where} GROUP BY resource", args
            ).fetchall()
        return {resource: int(total) for resource, total in rows}

    def ledger_count(self, which: LedgerFilter) -> int:
        where, args = which.where()
        with self._lock:
            self._flush()
            (count,) = self._conn.execute(f"SELECT COUNT(*) FROM ledger{where}", args).fetchone()
        return int(count)

    def clear(self) -> None:
        with self._lock:
            self._puts.clear()
            self._deletes.clear()
            self._buckets.clear()
            self._ledger.clear()
            self._secondary.clear()
            self._conn.execute("BEGIN")
            for table in ("records", "buckets", "ledger", "secondary"):
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
                self._state_lock.release(remove=True)
