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

import contextlib
import importlib
import os
import select
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from ghbench.clock import SystemClock
from ghbench.procs import Stderr
from ghbench.record.contract import ENV_REAL_GH, gh_child_env, user_debug_env
from ghbench.signals import exit_like, forward_signals

if TYPE_CHECKING:
    from ghbench.record.exchange import Exchange

__all__ = ["main", "run_gh"]

_READ_SIZE = 65536
_ROW_WRITER = "ghbench.record.emit"


def _stderr_chunks(fd: int, pid: int) -> Iterator[bytes]:
    """gh's stderr until EOF, or until gh has exited and what it wrote is drained.

    A process gh leaves running in the background may hold the pipe open; plain gh
    would not wait for it, so neither does the shim (Linux pidfd; elsewhere, EOF).
    """
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        while chunk := os.read(fd, _READ_SIZE):
            yield chunk
        return
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.register(pidfd, select.POLLIN)
        while True:
            ready = {event_fd for event_fd, _ in poller.poll()}
            if fd in ready:
                chunk = os.read(fd, _READ_SIZE)
                if not chunk:
                    return
                yield chunk
            elif pidfd in ready:
                os.set_blocking(fd, False)
                with contextlib.suppress(BlockingIOError):
                    while chunk := os.read(fd, _READ_SIZE):
                        yield chunk
                return
    finally:
        os.close(pidfd)


def run_gh(real_gh: str, args: Sequence[str], env: Mapping[str, str]) -> tuple[int, list[Exchange]]:
    """Run the real gh, pass its output through, and return (returncode, exchanges)."""
    stderr = Stderr()
    proc = subprocess.Popen(
        [real_gh, *args], stderr=subprocess.PIPE, env=gh_child_env(env), close_fds=False
    )
    restore = forward_signals(proc)
    try:
        # gh is starting; its stderr waits in the pipe while the parser and the row
        # writer load (~0.1 s, docs/performance.md), so their import time overlaps gh's
        # instead of adding to every gh call.
        from ghbench.record.debuglog import DebugLogSplitter, debug_mode  # noqa: PLC0415

        splitter = DebugLogSplitter(debug_mode(*user_debug_env(env)))
        with contextlib.suppress(Exception):  # a failure resurfaces, reported, after gh ends
            importlib.import_module(_ROW_WRITER)
        assert proc.stderr is not None
        for chunk in _stderr_chunks(proc.stderr.fileno(), proc.pid):
            stderr.write(splitter.feed(chunk))
        stderr.write(splitter.finish())
        proc.stderr.close()
        returncode = proc.wait()
    finally:
        restore()
    return returncode, splitter.exchanges


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
        # loaded while gh ran (run_gh); importing it here costs nothing more
        from ghbench.record.emit import record_invocation  # noqa: PLC0415

        record_invocation(args, returncode, exchanges, env, SystemClock())
    except Exception as exc:  # recording must never change what gh did
        sys.stderr.write(f"ghbench record: could not record this gh call: {exc!r}\n")
    exit_like(returncode)


if __name__ == "__main__":
    main()
