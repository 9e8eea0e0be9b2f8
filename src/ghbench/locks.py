"""One holder per directory: a lock file that names the process holding it.

``hold_lock(path, what)`` takes an exclusive ``flock(2)`` on ``path`` (created if
missing) and writes the holder's pid into it. The kernel drops the lock when the
holder's descriptor closes, however the holder ends (``kill -9`` and the OOM killer
included), so a lock left by a dead process is taken over by the next one, which
rewrites the pid; nothing is guessed from whether a pid is alive (pids are reused).
A holder may remove the file as it lets go (``release(remove=True)``); a process that
opened the old file meanwhile finds the name gone after locking, and tries again.
A lock that is held raises :class:`LockHeld`, which names the holder's pid as the
file gives it. The descriptor is close-on-exec: programs the holder starts never
hold the lock. Used for ``emulator serve --state`` (one emulator per state
directory) and for ``--out`` (one run per output directory).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from ghbench.errors import GhbenchError

__all__ = ["HeldLock", "LockHeld", "hold_lock"]

_REOPENS = 10  # lock files removed under us before giving up (each needs a holder leaving)


class LockHeld(GhbenchError):
    """Another live process holds the lock; ``pid`` is the holder's (None if unreadable)."""

    def __init__(self, path: Path, pid: int | None, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.pid = pid


class HeldLock:
    """A lock this process holds; ``release()`` (or leaving the ``with``) drops it.

    ``taken_over``: the pid a previous, dead holder left in the file, if any.
    """

    def __init__(self, path: Path, fd: int, taken_over: int | None) -> None:
        self.path = path
        self.taken_over = taken_over
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self, *, remove: bool = False) -> None:
        """Drop the lock; with ``remove``, delete the file first, while still holding
        it (a process that opened it meanwhile sees it gone and opens it anew)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            if remove:
                with contextlib.suppress(OSError):
                    self.path.unlink()
            os.close(fd)  # closing the descriptor releases the flock

    def __enter__(self) -> HeldLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _pid_in(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 64, 0).decode("ascii", "replace").split()
        return int(text[0]) if text else None
    return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        held, named = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


def hold_lock(path: Path, what: str) -> HeldLock:
    """Take the lock at ``path`` for this process, or raise LockHeld.

    ``what`` names the resource in the refusal, with what to do: for example
    ``"--state DIR is in use by another emulator"``; the message adds the holder's pid.
    An unwritable path raises GhbenchError naming it. A lock file removed by its
    holder as we took it (``release(remove=True)``) is opened again.
    """
    for _ in range(_REOPENS):
        lock = _try_lock(path, what)
        if lock is not None:
            return lock
    raise GhbenchError(f"cannot lock {path}: it keeps being removed as it is locked")


def _try_lock(path: Path, what: str) -> HeldLock | None:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise GhbenchError(f"cannot create the lock file {path} ({exc.strerror})") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _pid_in(fd)
        os.close(fd)
        who = f"pid {holder}" if holder is not None else "a process whose pid is not recorded"
        raise LockHeld(path, holder, f"{what} ({who} holds {path})") from None
    except OSError as exc:
        os.close(fd)
        raise GhbenchError(f"cannot lock {path} ({exc.strerror})") from exc
    if not _same_file(fd, path):  # its holder removed it as it let go: take the new one
        os.close(fd)
        return None
    previous = _pid_in(fd)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return HeldLock(path, fd, previous if previous != os.getpid() else None)
