"""How ghbench takes signals: being stopped, holding them off, standing in for a child.

Being stopped: SIGTERM and SIGHUP raise ``StopSignal`` (a KeyboardInterrupt) where
Ctrl-C would raise KeyboardInterrupt (``stop_on_signals``), so every flow that stops
cleanly on Ctrl-C does on them too; ``uninterruptible`` holds all three off while
a flow cleans up.

Standing in for a child (``ghbench record`` and its gh shim sit between a caller
and gh and must be invisible): signals sent to us reach the child once
(``forward_signals``), and we end exactly as the child ended (``exit_like``).
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
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import NoReturn

from ghbench.errors import StopSignal

__all__ = [
    "FORWARDED_SIGNALS",
    "STOP_SIGNALS",
    "SignalForwarder",
    "exit_like",
    "forward_signals",
    "handling",
    "signal_name",
    "stop_on_signals",
    "uninterruptible",
]

FORWARDED_SIGNALS: tuple[signal.Signals, ...] = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
)
_TERMINAL_SIGNALS = frozenset({signal.SIGINT, signal.SIGQUIT})
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)


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


class SignalForwarder:
    """Forwards FORWARDED_SIGNALS to a child from the moment it is made: a signal that
    arrives before the child is ``attach``ed (while it starts) is kept and sent to it
    then. With ``group`` a signal goes to the child's whole process group (it leads
    one). ``arrived``: every signal forwarded; ``restore`` puts the handlers back."""

    def __init__(self, *, group: bool = False) -> None:
        self.group = group
        self.arrived: list[int] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._previous = {sig: signal.signal(sig, self._handle) for sig in FORWARDED_SIGNALS}

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if signum in _TERMINAL_SIGNALS and _terminal_delivers_to_us():
            return
        self.arrived.append(signum)
        self._send(signum)

    def _send(self, signum: int) -> None:
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self.group:
                os.killpg(proc.pid, signum)
            elif proc.returncode is None:
                proc.send_signal(signum)

    def attach(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        for signum in self.arrived:
            self._send(signum)

    def restore(self) -> None:
        for sig, old in self._previous.items():
            signal.signal(sig, old)


def forward_signals(proc: subprocess.Popen[bytes]) -> Callable[[], None]:
    """Forward FORWARDED_SIGNALS to ``proc`` until the returned restore function is called."""
    forwarder = SignalForwarder()
    forwarder.attach(proc)
    return forwarder.restore


def _raise_stop(signum: int, _frame: FrameType | None) -> None:
    raise StopSignal(signum)


def stop_on_signals() -> None:
    """From now on SIGTERM and SIGHUP raise ``StopSignal`` in the main thread (called
    from another thread, where handlers cannot be set, it does nothing).

    A signal ghbench was started ignoring stays ignored: under ``nohup`` a closed
    terminal's SIGHUP must not end the run the user asked to outlive it.
    """
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                signal.signal(sig, _raise_stop)


# a function, or SIG_IGN / SIG_DFL
Handler = Callable[[int, FrameType | None], object] | signal.Handlers


@contextlib.contextmanager
def handling(signals: tuple[signal.Signals, ...], handler: Handler) -> Iterator[None]:
    """``handler`` for each of ``signals`` while the block runs; the handlers they had
    before are back when it ends, however it ends."""
    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before)


@contextlib.contextmanager
def uninterruptible(*, defer: bool = True) -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP off while cleanup runs, so a signal cannot cut a
    stop short and leave orphans or lose what was measured.

    ``defer``: the first signal that arrives is sent again, to whatever handles it
    outside, when the block ends; without, signals are ignored (a flow already
    stopping on a signal ignores a second one). Outside the main thread (where
    handlers cannot be set) it does nothing.
    """
    held = (signal.SIGINT, *STOP_SIGNALS)
    arrived: list[int] = []

    def remember(signum: int, _frame: FrameType | None) -> None:
        arrived.append(signum)

    try:
        previous = {sig: signal.signal(sig, remember if defer else signal.SIG_IGN) for sig in held}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if arrived:
            signal.raise_signal(arrived[0])


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
        # SIGKILL's handler cannot be set (nor need be): it still ends us by itself
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    sys.exit(returncode)
