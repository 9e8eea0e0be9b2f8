"""The front on every core: worker processes sharing its port, and what they share.

Python runs one thread of the front's event loop at a time, so one process uses one
core. The front's first process forks ``workers - 1`` more before any event loop
exists, each with a listening socket of its own on the same port (``SO_REUSEPORT``:
the kernel spreads new connections over them; only the same user can join a port).
They share what was made before the fork: the TLS context (so a session ticket from
one worker resumes on another), the trace's first segment, and a ``SharedMeter``.

Each worker writes its rows to the trace itself (``O_APPEND``: whole lines). The first
process is the only one ghbench speaks to: it passes every command on to the workers
over a pipe each, and answers with their segments merged (``merge``). A worker stops
when its pipe ends (the first process is gone, however it died), on ``close``, or on
SIGTERM to the group.
"""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import os
import signal
import socket
import struct
import time
from dataclasses import dataclass

import msgspec

from ghbench.front.settings import Cause, FrontCounts, Reply
from ghbench.trace.writer import TraceLoss

__all__ = ["Child", "SharedMeter", "listen", "merge", "reap"]

_WINDOWS = 8  # (limit, reset) windows whose highest reading is kept
_SLOT = struct.Struct("qqq")  # limit, reset, highest x-ratelimit-used
_HEAD = struct.Struct("qq")  # exchanges in flight, exchanges begun
_REAP_S = 5.0
_LOCK_S = 1.0  # held for microseconds; longer only if its holder died in it


def listen(port: int, count: int) -> list[socket.socket]:
    """``count`` listening sockets on one loopback port (``port`` 0: a free one).
    OSError when the port cannot be had."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            # IPPROTO_TCP: asyncio sets TCP_NODELAY only on accepted sockets whose
            # protocol says TCP (see emulator/bootstrap.py); without it answers wait
            # for delayed ACKs
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            socks.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if count > 1:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(("127.0.0.1", port))
            port = sock.getsockname()[1]
            sock.listen(1024)
    except OSError:
        for sock in socks:
            sock.close()
        raise
    return socks


class SharedMeter:
    """``graphql.GraphqlMeter`` across processes: the same readings and overlaps, in
    memory mapped before the fork, under one lock. An exchange overlapped another when
    one was in flight as it began, or one began before it ended."""

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, _HEAD.size + _WINDOWS * _SLOT.size)
        self._lock = multiprocessing.Lock()
        self._open: dict[int, bool] = {}  # this process's tickets: overlapped at begin

    def begin(self) -> int:
        if not self._lock.acquire(timeout=_LOCK_S):
            return 0  # a worker died holding it: this charge cannot be told
        try:
            in_flight, begun = _HEAD.unpack_from(self._memory, 0)
            _HEAD.pack_into(self._memory, 0, in_flight + 1, begun + 1)
        finally:
            self._lock.release()
        ticket = int(begun) + 1
        self._open[ticket] = in_flight > 0
        return ticket

    def end(
        self, ticket: int, limit: int | None, reset: int | None, used: int | None
    ) -> int | None:
        overlapped = self._open.pop(ticket, True)
        if not ticket or not self._lock.acquire(timeout=_LOCK_S):
            return None
        try:
            in_flight, begun = _HEAD.unpack_from(self._memory, 0)
            _HEAD.pack_into(self._memory, 0, in_flight - 1, begun)
            overlapped = overlapped or begun != ticket
            if limit is None or reset is None or used is None:
                return None
            before = self._reading(limit, reset, used)
        finally:
            self._lock.release()
        if overlapped or before is None or used - before < 1:
            return None
        return used - before

    def _reading(self, limit: int, reset: int, used: int) -> int | None:
        """The highest reading of the window before ``used``; ``used`` recorded."""
        slots = [
            _SLOT.unpack_from(self._memory, _HEAD.size + i * _SLOT.size) for i in range(_WINDOWS)
        ]
        found = next((i for i, s in enumerate(slots) if (s[0], s[1]) == (limit, reset)), None)
        before = None if found is None else slots[found][2]
        if found is None:  # a new window takes the slot of the oldest (or an empty one)
            found = min(range(_WINDOWS), key=lambda i: (slots[i][0] != 0, slots[i][1]))
        highest = used if before is None else max(before, used)
        _SLOT.pack_into(self._memory, _HEAD.size + found * _SLOT.size, limit, reset, highest)
        return before


@dataclass
class Child:
    """A worker as the first process sees it: its pid and the two ends of its pipes."""

    pid: int
    commands: int  # we write commands here
    replies: int  # and read its replies here


def merge(replies: list[Reply]) -> Reply:
    """One segment from every worker's: counts summed, losses per trace, warnings per
    cause (seen summed, a few clients)."""
    totals: dict[str, int] = {}
    losses: dict[str, TraceLoss] = {}
    causes: dict[str, Cause] = {}
    for reply in replies:
        for name in FrontCounts.__struct_fields__:
            value = getattr(reply.counts, name)
            if isinstance(value, int):
                totals[name] = totals.get(name, 0) + value
        for loss in reply.counts.losses:
            have = losses.get(loss.trace)
            rows = loss.rows + (have.rows if have is not None else 0)
            losses[loss.trace] = msgspec.structs.replace(have or loss, rows=rows)
        for cause in reply.causes:
            found = causes.setdefault(cause.key, Cause(key=cause.key, message=cause.message))
            found.add(cause.seen, cause.examples)
    counts = FrontCounts(
        **totals, losses=list(losses.values()), warnings=[c.line() for c in causes.values()]
    )
    error = next((r.error for r in replies if r.error is not None), None)
    return Reply(counts=counts, error=error, causes=list(causes.values()))


def reap(children: list[Child]) -> None:
    """Wait for the workers to end (their pipes closed), then SIGKILL what is left."""
    for child in children:
        for fd in (child.commands, child.replies):
            with contextlib.suppress(OSError):
                os.close(fd)
    deadline = time.monotonic() + _REAP_S
    left = {child.pid for child in children}
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                left.discard(pid)
        if left:
            time.sleep(0.02)
    for pid in left:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
