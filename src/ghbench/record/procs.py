"""Process plumbing shared by ``ghbench record`` and its gh shim: signals and exit status.

Both sit between a caller and a child and must be invisible: signals sent to them
reach the child once, and they end exactly as the child ended (same exit code, or
killed by the same signal).

Ctrl-C and Ctrl-\\ reach every process of the terminal's foreground process group,
the child included, so those are forwarded only when we are not in that group
(someone signalled our pid directly). Other signals are forwarded always; a
process-group kill therefore reaches the child twice, which gh and typical
orchestrators treat like one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from types import FrameType
from typing import NoReturn

__all__ = ["FORWARDED_SIGNALS", "Stderr", "exit_like", "forward_signals", "signal_name"]

FORWARDED_SIGNALS: tuple[signal.Signals, ...] = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
)
_TERMINAL_SIGNALS = frozenset({signal.SIGINT, signal.SIGQUIT})
_STDERR_FD = 2


def _terminal_delivers_to_us() -> bool:
    """True when our process group is the foreground group of our controlling terminal."""
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def forward_signals(proc: subprocess.Popen[bytes]) -> Callable[[], None]:
    """Forward FORWARDED_SIGNALS to ``proc`` until the returned restore function is called."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        if signum in _TERMINAL_SIGNALS and _terminal_delivers_to_us():
            return
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signum)

    previous = {sig: signal.signal(sig, handler) for sig in FORWARDED_SIGNALS}

    def restore() -> None:
        for sig, old in previous.items():
            signal.signal(sig, old)

    return restore


def signal_name(returncode: int) -> str | None:
    """``SIGTERM`` for a Popen returncode of -15; None for a normal exit."""
    if returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"SIG{-returncode}"


def exit_like(returncode: int) -> NoReturn:
    """End this process as the child ended: same exit code, or the same fatal signal."""
    if returncode < 0:
        sig = -returncode
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
        except (OSError, ValueError):
            pass
        os._exit(128 + sig)
    sys.exit(returncode)


class Stderr:
    """Writes to fd 2 until the reader goes away; after that, output is dropped."""

    def __init__(self) -> None:
        self.open = True

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while self.open and view:
            try:
                view = view[os.write(_STDERR_FD, view) :]
            except OSError:
                self.open = False
