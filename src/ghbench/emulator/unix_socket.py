"""Listening on a unix socket, the way gh reaches an enterprise host (``http_unix_socket``).

A stale socket file (left by an emulator that was killed: nobody answers on it) is
replaced, so a restart after ``kill -9`` needs no cleanup; anything else at the path is
refused, never removed. The listener removes its file when closed, unless something
else has taken the path since.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import stat
from pathlib import Path

from ghbench.errors import EmulatorError

__all__ = ["UnixListener", "UnixSocketError", "listen_unix"]


class UnixSocketError(EmulatorError):
    """A unix socket could not be listened on; ``reason`` says why and what to do."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot listen on the unix socket {path}: {reason}")
        self.path = path
        self.reason = reason


class UnixListener:
    """A listening unix socket whose file is ours: ``close()`` closes it and removes the
    file, unless something else has taken the path since (its inode tells)."""

    def __init__(self, path: Path, sock: socket.socket) -> None:
        self.path = path
        self.socket = sock
        info = os.lstat(path)
        self._identity = (info.st_dev, info.st_ino)

    def close(self) -> None:
        self.socket.close()
        with contextlib.suppress(FileNotFoundError):
            info = os.lstat(self.path)
            if (info.st_dev, info.st_ino) == self._identity:
                self.path.unlink()


def _stale_socket(path: Path) -> bool:
    """True if ``path`` is a socket file nobody listens on (its server was killed)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(2.0)
        probe.connect(str(path))
    except ConnectionRefusedError:
        return True
    except PermissionError as exc:
        raise UnixSocketError(
            path, "it is a socket we may not use (permission denied); choose another path"
        ) from exc
    except OSError:
        return False  # a listener too busy to accept: alive
    finally:
        probe.close()
    return False


def listen_unix(path: Path) -> UnixListener:
    """Listen on a unix socket at ``path``.

    A stale socket there (left by an emulator that was killed: nobody answers on it)
    is replaced, so a restart after ``kill -9`` needs no cleanup; anything else at the
    path (a file, a live socket, a symlink) is refused, never removed.
    """
    if not path.parent.is_dir():
        raise UnixSocketError(
            path, f"its directory {path.parent} does not exist; create it or choose another path"
        )
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None:
        if not stat.S_ISSOCK(mode):
            raise UnixSocketError(
                path, "it exists and is not a socket; remove it or choose another path"
            )
        if not _stale_socket(path):
            raise UnixSocketError(
                path, "another process listens on it; stop that process or choose another path"
            )
        path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        sock.listen(2048)
        return UnixListener(path, sock)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            reason = "another process took the path meanwhile; choose another path"
        else:
            # "AF_UNIX path too long" has no errno: about 107 bytes is the limit on Linux
            reason = f"{exc.strerror or exc}; choose a shorter path in a writable directory"
        raise UnixSocketError(path, reason) from exc
