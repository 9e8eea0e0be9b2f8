"""The gh shim: ``python -m ghbench.record.shim ARGS…`` behaves exactly like ``gh ARGS…``.

It runs the real gh (``GHBENCH_REAL_GH``) with ``GH_DEBUG`` set so gh logs every
HTTP exchange on stderr, and:

- stdin and stdout are gh's own (inherited, never copied), so output streams at
  gh's pace whatever its size, and stdin works for ``--input -``;
- stderr goes through ``DebugLogSplitter``: the debug lines the shim added are
  removed, everything else reaches the caller byte for byte and in order;
- the exit code (or fatal signal) is gh's;
- after gh ends, one row per exchange is appended to each sink's trace. If a trace
  cannot be written, the first shim to notice warns once on stderr (a marker file in
  the sink's state dir) and gh's result stands.
"""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import sys
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from ghbench.clock import Clock, SystemClock
from ghbench.record.contract import (
    ENV_REAL_GH,
    ENV_SINKS,
    Sink,
    decode_sinks,
    gh_child_env,
    user_debug_env,
)
from ghbench.record.debuglog import DebugLogSplitter, Exchange, debug_mode
from ghbench.record.ghcache import cache_dirs, find_cache_hits, is_cacheable, scan_cache
from ghbench.record.procs import exit_like, forward_signals, signal_name
from ghbench.record.rows import Invocation, exchange_rows
from ghbench.trace.schema import TraceRow

__all__ = ["main", "run_gh", "token_values", "write_rows"]

_READ_SIZE = 65536
_TOKEN_VARS = ("GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
_REDACTED = b"[REDACTED]"


class _Stderr:
    """Writes to fd 2 until the reader goes away; after that, output is dropped."""

    def __init__(self) -> None:
        self.open = True

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while self.open and view:
            try:
                view = view[os.write(2, view) :]
            except OSError:
                self.open = False


def run_gh(
    real_gh: str, args: Sequence[str], env: Mapping[str, str]
) -> tuple[int, list[Exchange]]:
    """Run the real gh, pass its output through, and return (returncode, exchanges)."""
    splitter = DebugLogSplitter(debug_mode(*user_debug_env(env)))
    stderr = _Stderr()
    proc = subprocess.Popen(
        [real_gh, *args], stderr=subprocess.PIPE, env=gh_child_env(env), close_fds=False
    )
    restore = forward_signals(proc)
    try:
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        while chunk := os.read(fd, _READ_SIZE):
            stderr.write(splitter.feed(chunk))
        stderr.write(splitter.finish())
        proc.stderr.close()
        returncode = proc.wait()
    finally:
        restore()
    return returncode, splitter.exchanges


def token_values(env: Mapping[str, str]) -> list[bytes]:
    """Token values in the environment, longest first, to scrub from anything written."""
    values = {env[v].strip() for v in _TOKEN_VARS if len(env.get(v, "").strip()) >= 8}
    return sorted((v.encode() for v in values), key=len, reverse=True)


def _encode(rows: Sequence[TraceRow], tokens: Sequence[bytes]) -> bytes:
    import msgspec

    data = b"".join(msgspec.json.encode(row) + b"\n" for row in rows)
    for token in tokens:
        data = data.replace(token, _REDACTED)
    return data


def _warn_once(sink: Sink, exc: OSError, stderr: _Stderr) -> None:
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


def write_rows(data: bytes, sinks: Sequence[Sink], stderr: _Stderr) -> None:
    """Append ``data`` (whole lines) to every sink's trace in one write each."""
    if not data:
        return
    for sink in sinks:
        try:
            fd = os.open(sink.trace, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                if written != len(data):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            finally:
                os.close(fd)
        except OSError as exc:
            _warn_once(sink, exc, stderr)


def _record(
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
    if any(is_cacheable(ex) for ex in exchanges):
        starts = [ex.started_at for ex in exchanges if ex.started_at is not None]
        if starts:
            hits = find_cache_hits(exchanges, scan_cache(cache_dirs(env), before=max(starts)))
    try:
        cwd: str | None = os.getcwd()
    except OSError:
        cwd = None
    invocation_id = uuid.uuid4().hex[:16]
    for sink_group in _by_component(sinks):
        invocation = Invocation(
            args=args,
            exit_code=returncode if returncode >= 0 else None,
            signal=signal_name(returncode),
            component=sink_group[0].component,
            invocation_id=invocation_id,
            cwd=cwd,
        )
        rows = exchange_rows(exchanges, invocation, fallback_time=clock.now(), cache_hits=hits)
        write_rows(_encode(rows, token_values(env)), sink_group, _Stderr())


def _by_component(sinks: Sequence[Sink]) -> list[list[Sink]]:
    groups: dict[str, list[Sink]] = {}
    for sink in sinks:
        groups.setdefault(sink.component, []).append(sink)
    return list(groups.values())


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    env = os.environ
    real_gh = env.get(ENV_REAL_GH, "")
    if not real_gh:
        sys.stderr.write(
            f"ghbench record: {ENV_REAL_GH} is not set, so the real gh cannot be found; "
            "run gh through 'ghbench record -- COMMAND'\n"
        )
        sys.exit(127)
    try:
        returncode, exchanges = run_gh(real_gh, args, env)
    except OSError as exc:
        sys.stderr.write(
            f"ghbench record: cannot run gh at {real_gh}: {exc.strerror}; install gh "
            "(https://cli.github.com, or 'apt install gh') and run ghbench record again\n"
        )
        sys.exit(127)
    try:
        _record(args, returncode, exchanges, env, SystemClock())
    except Exception as exc:  # recording must never change what gh did
        sys.stderr.write(f"ghbench record: could not record this gh call: {exc!r}\n")
    exit_like(returncode)


if __name__ == "__main__":
    main()
