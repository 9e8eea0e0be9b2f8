"""Turning one finished gh invocation into rows in every sink's trace.

Imported by the shim only after gh has started, so loading msgspec and the row
builder overlaps with gh's own start-up instead of adding to it.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from ghbench.clock import Clock
from ghbench.procs import Stderr
from ghbench.record.contract import ENV_PROJECT, ENV_SESSION, ENV_SINKS, Sink, decode_sinks
from ghbench.record.exchange import Exchange
from ghbench.record.ghcache import (
    cache_dirs,
    cache_requested,
    find_cache_hits,
    is_cacheable,
    scan_cache,
)
from ghbench.record.rows import Invocation, exchange_rows
from ghbench.signals import signal_name
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter

__all__ = ["record_invocation", "token_values", "write_rows"]

_TOKEN_VARS = ("GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")


def token_values(env: Mapping[str, str]) -> list[str]:
    """Token values in the environment, longest first, to scrub from every row."""
    values = {env[v].strip() for v in _TOKEN_VARS if len(env.get(v, "").strip()) >= 8}
    return sorted(values, key=len, reverse=True)


def _warn_once(sink: Sink, exc: OSError, stderr: Stderr) -> None:
    key = hashlib.sha256(sink.trace.encode()).hexdigest()[:16]
    marker = Path(sink.state_dir) / f"trace-unwritable-{key}"
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return  # already warned, or the record run is over
    os.close(fd)
    reason = exc.strerror or str(exc)
    stderr.write(
        f"ghbench record: cannot write trace {sink.trace}: {reason}; "
        "gh calls are not being recorded (the command carries on)\n".encode()
    )


def write_rows(
    rows: Sequence[TraceRow], sink: Sink, secrets: Sequence[str], stderr: Stderr
) -> None:
    """Append ``rows`` to the sink's trace; a failure warns once and never raises."""

    def warn(exc: OSError) -> None:
        _warn_once(sink, exc, stderr)

    with TraceWriter(sink.trace, on_error=warn, secrets=secrets) as writer:
        for row in rows:
            if not writer.write(row):
                break


def record_invocation(
    args: Sequence[str],
    returncode: int,
    exchanges: Sequence[Exchange],
    env: Mapping[str, str],
    clock: Clock,
) -> None:
    sinks = decode_sinks(env.get(ENV_SINKS))
    if not sinks or not exchanges:
        return
    hits: set[int] = set()
    whole = cache_requested(args)
    if whole or any(is_cacheable(ex) for ex in exchanges):
        starts = [ex.started_at for ex in exchanges if ex.started_at is not None]
        if starts:
            stored = scan_cache(cache_dirs(env), before=max(starts))
            hits = find_cache_hits(exchanges, stored, all_cacheable=whole)
    try:
        cwd: str | None = os.getcwd()
    except OSError:
        cwd = None
    invocation_id = uuid.uuid4().hex[:16]
    secrets = token_values(env)
    stderr = Stderr()
    for sink_group in _by_component(sinks):
        invocation = Invocation(
            args=args,
            exit_code=returncode if returncode >= 0 else None,
            signal=signal_name(returncode),
            component=sink_group[0].component,
            invocation_id=invocation_id,
            cwd=cwd,
            session_id=env.get(ENV_SESSION) or None,
            project_id=env.get(ENV_PROJECT) or None,
        )
        rows = exchange_rows(exchanges, invocation, fallback_time=clock.now(), cache_hits=hits)
        for sink in sink_group:
            write_rows(rows, sink, secrets, stderr)


def _by_component(sinks: Sequence[Sink]) -> list[list[Sink]]:
    groups: dict[str, list[Sink]] = {}
    for sink in sinks:
        groups.setdefault(sink.component, []).append(sink)
    return list(groups.values())
