"""The lifeline: what ghbench starts stops when ghbench dies, however it dies.

A reaper process (``ghbench.reaper``, in a session of its own so no terminal or
group signal meant for ghbench reaches it) holds the read end of a pipe whose one
write end is ghbench's. Through it ghbench names each process group (or lone
process) it starts, and each it has stopped. When the write end closes, the reaper
reads end-of-file: ghbench has exited, normally or not (SIGKILL and the OOM killer
included, since the kernel closes a dead process's descriptors). It then stops what
is still named (``ghbench.procs.stop_orphans``). Nothing polls and nothing is found
by name.

This module is only the pipe and its protocol; ``ghbench.procs`` decides what to
name and signals. One line per message, shorter than PIPE_BUF so each write is whole:
``+ g PGID START``, ``- g PGID``, and ``p`` for a lone process. START is the
process's start time (``/proc/PID/stat``), so a number reused by an unrelated process
after ours is gone is never signalled.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ghbench.credentials import without_tokens

__all__ = ["Held", "Kind", "hold", "ready", "release", "watch"]

Kind = Literal["g", "p"]  # a process group by its id, or one process by its pid


@dataclass(frozen=True)
class Held:
    """A group or process the reaper stops if ghbench dies; ``start`` is 0 when unknown."""

    kind: Kind
    pid: int
    start: int


def _reaper_argv(fd: int) -> list[str]:
    # -I: no PYTHON* variables, no user site; the package's own directory is put on
    # the path, so a checkout run without installing finds the reaper too
    src = str(Path(__file__).resolve().parent.parent)
    code = f"import sys; sys.path.insert(0, {src!r}); from ghbench.reaper import main; main()"
    return [sys.executable, "-I", "-c", code, str(fd)]


class _Line:
    """ghbench's side: the write end, the reaper, and what it was told is held."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._reaper: subprocess.Popen[bytes] | None = None
        self._held: dict[tuple[Kind, int], int] = {}

    def _open(self) -> None:
        """Start a reaper and tell it everything held (again, if an earlier one died)."""
        read_fd, write_fd = os.pipe()
        try:
            self._reaper = subprocess.Popen(
                _reaper_argv(read_fd),
                pass_fds=(read_fd,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd="/",
                env=without_tokens(os.environ),  # it calls no one: no token
                start_new_session=True,
            )
        except BaseException:
            os.close(write_fd)
            raise
        finally:
            os.close(read_fd)
        self._fd = write_fd
        for (kind, pid), start in self._held.items():
            os.write(write_fd, f"+ {kind} {pid} {start}\n".encode())

    def _send(self, line: str) -> None:
        data = line.encode()
        for _ in range(2):
            try:
                if self._fd is None:
                    self._open()
                assert self._fd is not None
                os.write(self._fd, data)
                return
            except OSError:  # the reaper is gone (killed on its own): start another
                self._drop()
        # no reaper can be started (no processes left, say): the run goes on unguarded

    def _drop(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd = None
        self._reaper = None

    def ready(self) -> None:
        with self._lock:
            if self._fd is None:
                with contextlib.suppress(OSError):
                    self._open()

    def hold(self, kind: Kind, pid: int, start: int) -> None:
        with self._lock:
            self._held[(kind, pid)] = start
            self._send(f"+ {kind} {pid} {start}\n")

    def release(self, kind: Kind, pid: int) -> None:
        with self._lock:
            if self._held.pop((kind, pid), None) is not None:
                self._send(f"- {kind} {pid}\n")

    def forget(self) -> None:
        """In a forked child: the parent's line stays the parent's."""
        self._lock = threading.Lock()
        self._drop()
        self._held.clear()


_LINE = _Line()
os.register_at_fork(after_in_child=_LINE.forget)


def ready() -> None:
    """Start the reaper now, so naming a child just started costs one write: the
    moment between a child's start and its being named (when a SIGKILL to ghbench
    would leave it unknown to the reaper) stays as short as it can be."""
    _LINE.ready()


def hold(kind: Kind, pid: int, start: int) -> None:
    """Name a group or process to the reaper (starting it on first use)."""
    _LINE.hold(kind, pid, start)


def release(kind: Kind, pid: int) -> None:
    """It is stopped: the reaper forgets it (nothing is sent for what was never held)."""
    _LINE.release(kind, pid)


def _messages(fd: int) -> Iterator[str]:
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except InterruptedError:
            continue
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            yield line.decode("ascii", "replace")


def watch(fd: int) -> list[Held]:
    """The reaper's side: read messages until end-of-file; what is still held then."""
    held: dict[tuple[Kind, int], int] = {}
    for message in _messages(fd):
        parts = message.split()
        if len(parts) < 3 or parts[1] not in ("g", "p") or not parts[2].isdigit():
            continue
        kind: Kind = "g" if parts[1] == "g" else "p"
        key = (kind, int(parts[2]))
        if parts[0] == "+" and len(parts) == 4 and parts[3].isdigit():
            held[key] = int(parts[3])
        elif parts[0] == "-":
            held.pop(key, None)
    return [Held(kind, pid, start) for (kind, pid), start in held.items()]
