"""Writing AO-compatible trace rows: ``build_row`` fills a row from one ``gh`` invocation
the way AO's ``execGhObserved`` does, and ``TraceWriter`` appends rows to a JSONL file.

Bodies are never stored, only their sizes. Arguments are redacted as AO does, and then
every string in the row is scrubbed of anything that still looks like a credential, so
no token can reach a trace even through an unusual argument form.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from ghbench.timefmt import iso_ms
from ghbench.trace.headers import parse_gh_include_output, parse_graphql_rate, rate_limit_fields
from ghbench.trace.limits import refusal_kind
from ghbench.trace.operation import (
    REDACTED,
    api_endpoint,
    api_method,
    extract_operation,
    redact_args,
)
from ghbench.trace.schema import TraceRow

__all__ = ["TraceLoss", "TraceWriter", "build_row", "scrub_row", "scrub_text"]

# Token shapes GitHub issues (classic and fine-grained) and any Authorization header value.
_TOKEN_SHAPES = re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_[A-Za-z0-9_]{20,})")
_AUTH_VALUE = re.compile(r"(authorization\s*[:=]\s*)(?!\[REDACTED\]).+", re.IGNORECASE)


def scrub_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace known secret values, token-shaped words and Authorization values."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    text = _TOKEN_SHAPES.sub(REDACTED, text)
    return _AUTH_VALUE.sub(lambda m: m.group(1) + REDACTED, text)


def _looks_clean(values: tuple[Any, ...], secrets: tuple[str, ...]) -> bool:
    """True when no string of the row can hold a credential: one pass of each pattern
    over all of them joined (NUL is a word boundary and in no secret), instead of one
    per field; the common case, so most rows are never copied."""
    strings = [v for v in values if isinstance(v, str)]
    for value in values:
        if isinstance(value, list):
            strings += value
    joined = "\0".join(strings)
    if any(secret in joined for secret in secrets):
        return False
    return _TOKEN_SHAPES.search(joined) is None and _AUTH_VALUE.search(joined) is None


def scrub_row(row: TraceRow, secrets: Iterable[str] = ()) -> TraceRow:
    """A copy of ``row`` in which no string field or argument can carry a credential."""
    keep = tuple(s for s in secrets if s)
    if _looks_clean(msgspec.structs.astuple(row), keep):
        return row
    changes: dict[str, Any] = {}
    for name in row.__struct_fields__:
        value = getattr(row, name)
        if isinstance(value, str):
            clean = scrub_text(value, keep)
            if clean != value:
                changes[name] = clean
        elif isinstance(value, list):
            clean_list = [scrub_text(a, keep) for a in value]
            if clean_list != value:
                changes[name] = clean_list
    return msgspec.structs.replace(row, **changes) if changes else row


def _size(data: str | bytes | None) -> int:
    if data is None:
        return 0
    return len(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)


def build_row(
    *,
    args: Sequence[str],
    started_at: float,
    finished_at: float,
    exit_code: int | None,
    signal: str | None,
    stdout: str | bytes | None,
    stderr: str | bytes | None,
    component: str | None,
    operation: str | None = None,
    cwd: str | None = None,
    project_id: str | None = None,
    session_id: str | None = None,
    origin: str | None = None,
    invocation_id: str | None = None,
    request_index: int | None = None,
    graphql_operation: str | None = None,
    secrets: Iterable[str] = (),
) -> TraceRow:
    """One AO-schema row for a finished ``gh`` invocation.

    ``started_at``/``finished_at`` are epoch seconds; the row's timestamp is the
    completion time. ``exit_code``/``signal`` are recorded only on failure, as AO does.
    ``secrets`` (e.g. the token in use) are scrubbed from every field. ``rateLimited``
    says which limit refused the call, from the status, headers and body gh printed.
    """
    argv = list(args)
    ok = exit_code == 0 and signal is None
    parsed = parse_gh_include_output(stdout if stdout is not None else "")
    headers = parsed.headers
    is_graphql = "graphql" in argv
    graphql = parse_graphql_rate(parsed.body) if is_graphql else None
    limited = refusal_kind(parsed.http_status, headers, parsed.body, graphql=is_graphql)
    row = TraceRow(
        timestamp=iso_ms(finished_at),
        component=component,
        operation=operation if operation is not None else extract_operation(argv),
        projectId=project_id,
        sessionId=session_id,
        cwd=cwd,
        args=redact_args(argv),
        endpoint=api_endpoint(argv),
        method=api_method(argv),
        ok=ok and limited is None,
        exitCode=None if ok else exit_code,
        signal=None if ok else signal,
        durationMs=round(max(0.0, finished_at - started_at) * 1000, 3),
        stdoutBytes=_size(stdout),
        stderrBytes=_size(stderr),
        statusLine=parsed.status_line,
        httpStatus=parsed.http_status,
        etag=headers.get("etag"),
        **rate_limit_fields(headers),
        graphqlCost=graphql.cost if graphql else None,
        graphqlRemaining=graphql.remaining if graphql else None,
        graphqlResetAt=graphql.reset_at if graphql else None,
        origin=origin,
        invocationId=invocation_id,
        requestIndex=request_index,
        graphqlOperation=graphql_operation,
        rateLimited=limited,
    )
    return scrub_row(row, secrets)


class TraceLoss(msgspec.Struct, frozen=True, kw_only=True):
    """Rows a writer could not write to ``trace``, and why (its last error)."""

    trace: str
    rows: int
    reason: str


class TraceWriter:
    """Appends rows to a JSONL trace, one ``write()`` per line, never truncating.

    The file is opened with ``O_APPEND``, so lines from several processes writing the
    same trace never interleave. A failure to open or write (disk full, permissions)
    never raises into the caller: ``failed`` is set, ``error`` keeps the first error,
    ``on_error`` is called once (so a ``gh`` shim can warn once and carry on), and every
    row not written whole is counted (``rows_lost``, ``loss()``). A row cut short by a
    full disk stays a line of its own: the next row starts on a new line, so a partial
    line is never read as a row and never swallows the next one; a row short of only its
    newline is a row (the reader reads it as one), so it is written, not lost.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        on_error: Callable[[OSError], None] | None = None,
        secrets: Iterable[str] = (),
    ) -> None:
        self.path = Path(path)
        self.error: OSError | None = None
        self.rows_written = 0
        self.rows_lost = 0
        self._cut_short = False  # the last line written has no newline yet
        self._on_error = on_error
        self._secrets = tuple(s for s in secrets if s)
        self._encoder = msgspec.json.Encoder()
        self._fd: int | None = None
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            self._fail(exc)

    @property
    def failed(self) -> bool:
        return self.error is not None

    def _fail(self, exc: OSError) -> None:
        first = self.error is None
        self.error = exc
        if first and self._on_error is not None:
            self._on_error(exc)

    def loss(self) -> TraceLoss | None:
        """The rows lost so far and the first error, or None when none was lost."""
        if not self.rows_lost:
            return None
        error = self.error
        reason = "unknown error" if error is None else (error.strerror or str(error))
        return TraceLoss(trace=str(self.path), rows=self.rows_lost, reason=reason)

    def write(self, row: TraceRow) -> bool:
        """Append ``row``; True when the row reached the file whole (its newline at the latest
        with the next write)."""
        if self._fd is None:
            self.rows_lost += 1
            return False
        line = self._encoder.encode(scrub_row(row, self._secrets)) + b"\n"
        if self._cut_short:
            line = b"\n" + line  # end the partial line first
        try:
            written = os.write(self._fd, line)
        except OSError as exc:
            self._fail(exc)
            self.rows_lost += 1
            return False
        if written == len(line) - 1:
            # all but the newline (disk full): the row is whole, the next write ends it
            self._cut_short = True
            self.rows_written += 1
            return True
        if written != len(line):
            # a short write (disk full): a partial line, ended by the next write
            self._cut_short = True
            self._fail(
                OSError(errno.ENOSPC, "a line was cut short (no space left, or a size limit)")
            )
            self.rows_lost += 1
            return False
        self._cut_short = False
        self.rows_written += 1
        return True

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError as exc:
                self._fail(exc)

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
