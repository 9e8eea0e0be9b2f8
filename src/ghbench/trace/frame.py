"""A columnar, in-memory view of a trace: what every analysis computes over.

The reader fills it from a JSONL file; ``TraceFrame.from_rows`` builds it from row
objects (tests, in-process simulation). Columns are numpy arrays in file order, one
entry per accepted row. Missing integers are ``NA`` (int64 min); missing durations
are NaN; strings are dictionary-encoded (``Categorical``, code -1 = missing).

A reader may build only some columns (``columns=``, a projection: a command reads what
it computes over, and only those fields are type-checked). The others are zero-memory
placeholders that read as missing; ``TraceFrame.require`` guards a computation against
a frame read without the columns it needs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow

__all__ = [
    "CALL_COLUMNS",
    "CATEGORICAL_COLUMNS",
    "COLUMNS",
    "NA",
    "NUMERIC_COLUMNS",
    "Categorical",
    "ReadWarning",
    "TraceFrame",
    "invocation_groups",
    "is_rate_limit",
]

NA: int = int(np.iinfo(np.int64).min)

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]

# column -> (dtype, the value a missing entry holds)
NUMERIC_COLUMNS: dict[str, tuple[type, float]] = {
    "ts_ms": (np.int64, 0),
    "duration_ms": (np.float64, np.nan),
    "ok": (np.int8, -1),
    "exit_code": (np.int64, NA),
    "http_status": (np.int64, NA),
    "rate_limit_limit": (np.int64, NA),
    "rate_limit_remaining": (np.int64, NA),
    "rate_limit_reset": (np.int64, NA),
    "graphql_cost": (np.int64, NA),
    "graphql_remaining": (np.int64, NA),
    # 1 where the row's endpoint is ``/rate_limit`` (free for the primary limit), else 0:
    # what the scorecard needs of the endpoint, without reading every endpoint's text
    "rate_limit_call": (np.int8, 0),
}
CATEGORICAL_COLUMNS: tuple[str, ...] = (
    "operation",
    "component",
    "resource",
    "session_id",
    "method",
    "endpoint",
    "repo",
    "origin",
    "rate_limited",
)
COLUMNS: tuple[str, ...] = (*NUMERIC_COLUMNS, *CATEGORICAL_COLUMNS)
# What every reading of a trace's calls computes over (the scorecard, summarize and
# analyze add their own): when, how long, how it ended, what it cost, what it was
CALL_COLUMNS: tuple[str, ...] = (
    "ts_ms",
    "duration_ms",
    "ok",
    "http_status",
    "rate_limit_remaining",
    "rate_limit_reset",
    "graphql_cost",
    "operation",
    "component",
    "resource",
)


@dataclass(frozen=True)
class Categorical:
    """Dictionary-encoded strings: ``labels[codes[i]]``, or None where ``codes[i] == -1``."""

    codes: I32
    labels: tuple[str, ...]

    @classmethod
    def encode(cls, values: Sequence[str | None]) -> Categorical:
        index: dict[str, int] = {}
        codes = np.empty(len(values), dtype=np.int32)
        for i, v in enumerate(values):
            if v is None:
                codes[i] = -1
            else:
                codes[i] = index.setdefault(v, len(index))
        return cls(codes, tuple(index))

    def value(self, i: int) -> str | None:
        c = int(self.codes[i])
        return None if c < 0 else self.labels[c]

    def code_of(self, label: str) -> int:
        """The code for ``label``, or -2 (matches nothing) when absent."""
        try:
            return self.labels.index(label)
        except ValueError:
            return -2

    def mask(self, label: str) -> npt.NDArray[np.bool_]:
        return np.asarray(self.codes == self.code_of(label), dtype=np.bool_)

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> Categorical:
        return Categorical(self.codes[index], self.labels)

    @classmethod
    def concat(cls, parts: Sequence[Categorical]) -> Categorical:
        """``parts`` one after another, their labels merged."""
        index: dict[str, int] = {}
        codes = []
        for part in parts:
            table = np.array([index.setdefault(x, len(index)) for x in part.labels] + [-1])
            codes.append(table[part.codes].astype(np.int32))
        return cls(np.concatenate(codes) if codes else np.empty(0, np.int32), tuple(index))

    @classmethod
    def missing(cls, n: int) -> Categorical:
        """``n`` missing values, in no memory (a column the reader did not build)."""
        return cls(np.broadcast_to(np.int32(-1), (n,)), ())


def missing_numbers(column: str, n: int) -> npt.NDArray[Any]:
    """``n`` missing values of a numeric column, in no memory (read-only)."""
    dtype, fill = NUMERIC_COLUMNS[column]
    return np.broadcast_to(np.array(fill, dtype=dtype), (n,))


def _taken_count(n: int, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> int:
    return int(np.count_nonzero(index)) if index.dtype == np.bool_ else len(index)


@dataclass(frozen=True)
class ReadWarning:
    """A line the reader skipped or doubted: 1-based line number and why."""

    line: int
    message: str


def _int(v: int | None) -> int:
    return NA if v is None else int(v)


def _bool(v: bool | None) -> int:
    return -1 if v is None else int(v)


@dataclass(frozen=True)
class TraceFrame:
    """The accepted rows of one trace, column by column.

    ``ts_ms`` is the completion time (AO's ``timestamp``) in epoch milliseconds.
    ``ok`` is 1/0, or -1 when absent. ``repo`` is ``owner/name`` derived from the
    endpoint (``repos/{o}/{r}/…``) or from ``--repo``/``-R`` in args.
    """

    ts_ms: I64
    duration_ms: F64
    ok: npt.NDArray[np.int8]
    exit_code: I64
    http_status: I64
    rate_limit_limit: I64
    rate_limit_remaining: I64
    rate_limit_reset: I64
    graphql_cost: I64
    graphql_remaining: I64
    rate_limit_call: npt.NDArray[np.int8]
    operation: Categorical
    component: Categorical
    resource: Categorical
    session_id: Categorical
    method: Categorical
    endpoint: Categorical
    repo: Categorical
    origin: Categorical
    rate_limited: Categorical  # the limit that refused the call (``rateLimited``)
    # what the reader saw, for reporting
    lines_read: int = 0
    skipped_lines: int = 0
    warnings: tuple[ReadWarning, ...] = field(default_factory=tuple)
    # the columns the reader built; the others are missing-value placeholders
    columns: frozenset[str] = frozenset(COLUMNS)

    def __len__(self) -> int:
        return int(self.ts_ms.shape[0])

    def require(self, needed: Iterable[str]) -> None:
        """Raise ValueError unless every column in ``needed`` was read."""
        lacking = sorted(set(needed) - self.columns)
        if lacking:
            raise ValueError(f"trace frame was read without column(s) {', '.join(lacking)}")

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[TraceRow],
        *,
        lines_read: int | None = None,
        skipped_lines: int = 0,
        warnings: Sequence[ReadWarning] = (),
    ) -> TraceFrame:
        """Build a frame from row objects; rows with an unparseable timestamp must be
        filtered out by the caller (the reader does, with a warning)."""
        rs = list(rows)
        return cls(
            ts_ms=np.array([round(parse_iso(r.timestamp) * 1000) for r in rs], dtype=np.int64),
            duration_ms=np.array(
                [np.nan if r.durationMs is None else float(r.durationMs) for r in rs],
                dtype=np.float64,
            ),
            ok=np.array([_bool(r.ok) for r in rs], dtype=np.int8),
            exit_code=np.array([_int(r.exitCode) for r in rs], dtype=np.int64),
            http_status=np.array([_int(r.httpStatus) for r in rs], dtype=np.int64),
            rate_limit_limit=np.array([_int(r.rateLimitLimit) for r in rs], dtype=np.int64),
            rate_limit_remaining=np.array([_int(r.rateLimitRemaining) for r in rs], dtype=np.int64),
            rate_limit_reset=np.array([_int(r.rateLimitReset) for r in rs], dtype=np.int64),
            graphql_cost=np.array([_int(r.graphqlCost) for r in rs], dtype=np.int64),
            graphql_remaining=np.array([_int(r.graphqlRemaining) for r in rs], dtype=np.int64),
            rate_limit_call=np.array([is_rate_limit(r.endpoint) for r in rs], dtype=np.int8),
            operation=Categorical.encode([r.operation for r in rs]),
            component=Categorical.encode([r.component for r in rs]),
            resource=Categorical.encode([r.rateLimitResource for r in rs]),
            session_id=Categorical.encode([r.sessionId for r in rs]),
            method=Categorical.encode([r.method for r in rs]),
            endpoint=Categorical.encode([r.endpoint for r in rs]),
            repo=Categorical.encode([repo_of(r.endpoint, r.args) for r in rs]),
            origin=Categorical.encode([r.origin for r in rs]),
            rate_limited=Categorical.encode([r.rateLimited for r in rs]),
            lines_read=len(rs) if lines_read is None else lines_read,
            skipped_lines=skipped_lines,
            warnings=tuple(warnings),
        )

    @classmethod
    def concat(cls, frames: Sequence[TraceFrame]) -> TraceFrame:
        """The rows of ``frames`` one after another (two traces of one run seen as one);
        only the columns every frame was read with."""
        columns = frozenset.intersection(*(f.columns for f in frames))
        n = sum(len(f) for f in frames)
        values: dict[str, Any] = {}
        for name in COLUMNS:
            if name not in columns:
                missing = name in NUMERIC_COLUMNS
                values[name] = missing_numbers(name, n) if missing else Categorical.missing(n)
            elif name in NUMERIC_COLUMNS:
                values[name] = np.concatenate([getattr(f, name) for f in frames])
            else:
                values[name] = Categorical.concat([getattr(f, name) for f in frames])
        return cls(**values, lines_read=n, columns=columns)

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> TraceFrame:
        """The rows selected by a boolean mask or an index array, metadata kept."""
        n = _taken_count(len(self), index)
        values: dict[str, Any] = {}
        for name in COLUMNS:
            column = getattr(self, name)
            if name not in self.columns:
                values[name] = (
                    missing_numbers(name, n) if name in NUMERIC_COLUMNS else Categorical.missing(n)
                )
            elif isinstance(column, Categorical):
                values[name] = column.take(index)
            else:
                values[name] = column[index]
        return TraceFrame(
            **values,
            lines_read=self.lines_read,
            skipped_lines=self.skipped_lines,
            warnings=self.warnings,
            columns=self.columns,
        )


RATE_LIMIT_ENDPOINT = re.compile(r"/?rate_limit(\?.*)?", re.DOTALL)


def is_rate_limit(endpoint: str | None) -> bool:
    """``endpoint`` is ``GET /rate_limit``'s (the reader's SQL says the same)."""
    return endpoint is not None and RATE_LIMIT_ENDPOINT.fullmatch(endpoint) is not None


def invocation_groups(invocation_ids: Sequence[str | None]) -> list[list[int]]:
    """Row indexes grouped by the invocation that made them (one gh command's requests),
    each group where its first row stands; a row with no invocation id stands alone."""
    groups: dict[str, list[int]] = {}
    order: list[list[int]] = []
    for i, invocation in enumerate(invocation_ids):
        if not invocation:
            order.append([i])
        elif invocation in groups:
            groups[invocation].append(i)
        else:
            order.append(groups.setdefault(invocation, [i]))
    return order


def repo_of(endpoint: str | None, args: Sequence[str] | None) -> str | None:
    """``owner/name`` from a ``repos/{o}/{r}/…`` endpoint, else from ``--repo``/``-R``."""
    if endpoint:
        path = endpoint.lstrip("/")
        if path.startswith("repos/"):
            parts = path.split("?", 1)[0].split("/")
            if len(parts) >= 3 and parts[1] and parts[2]:
                return f"{parts[1]}/{parts[2]}"
    if args:
        for i, a in enumerate(args):
            if a in ("--repo", "-R") and i + 1 < len(args):
                return args[i + 1]
            if a.startswith("--repo="):
                return a.split("=", 1)[1]
    return None
