"""Start and stop child processes: the one place ghbench signals them.

Owning a child: every child starts in its own session (``start_new_session=True``),
so a Ctrl-C in the terminal reaches only ghbench, which then stops its children
itself: SIGTERM to the whole group, a deadline, then SIGKILL. Nothing is ever
killed by name. A stop holds ghbench's own signals off (``signals.uninterruptible``)
so it cannot be cut short.

When ghbench cannot clean up (SIGKILL, the OOM killer), the lifeline does: every
group ``start_process`` starts is ``guard``ed, and a reaper stops what is still
guarded when ghbench dies (``ghbench.lifeline``, ``stop_orphans``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ghbench import lifeline
from ghbench.proctable import group_alive, start_time
from ghbench.signals import uninterruptible

__all__ = [
    "ManagedProcess",
    "Stderr",
    "StopResult",
    "as_forked_child",
    "forking",
    "guard",
    "kill_group",
    "popen_guarded",
    "start_process",
    "stop_group",
    "stop_leader_first",
    "stop_orphans",
    "tool_output",
    "unguard",
]

# what a forked child of ghbench's must not get while it still runs its parent's
# handlers (SIGTERM or SIGHUP would raise the parent's StopSignal in the copy)
_FORK_SIGNALS = frozenset({signal.SIGTERM, signal.SIGHUP, signal.SIGINT})
_ORPHAN_GRACE_S = 5.0  # how long the reaper lets what ghbench left stop on SIGTERM
_STDERR_FD = 2
_REAP_S = 5.0  # how long a SIGKILLed group may take to disappear


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


@dataclass(frozen=True)
class StopResult:
    """How a process ended: its exit code (None if never reaped) and whether it needed SIGKILL."""

    returncode: int | None
    killed: bool


@dataclass
class ManagedProcess:
    """A child in its own process group, with its output going to ``log_path``."""

    popen: subprocess.Popen[bytes]
    name: str
    log_path: Path | None = None
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    @property
    def returncode(self) -> int | None:
        return self.popen.poll()

    def stop(self, grace: float = 10.0, *, drain: float | None = None) -> StopResult:
        """SIGTERM the group, wait up to ``grace`` seconds, then SIGKILL it.

        With ``drain``, the leader alone gets SIGTERM first (``stop_leader_first``), so a
        program that shuts itself down cleanly on SIGTERM does, and its children in
        flight get ``drain`` seconds to finish before the group is stopped.
        """
        with uninterruptible():
            try:
                if drain is not None:
                    return stop_leader_first(self.popen, grace, drain)
                return stop_group(self.popen, grace)
            finally:
                _unguard_if_gone(self.popen.pid)
                if self._log is not None:
                    self._log.close()
                    self._log = None

    def kill(self) -> None:
        """SIGKILL the group at once (a crash, not a stop) and reap it; the log stays open."""
        kill_group(self.popen)

    def log_tail(self, lines: int = 5) -> str:
        if self.log_path is None:
            return ""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])


def popen_guarded(
    argv: Sequence[str], *, group: bool = True, **kwargs: Any
) -> subprocess.Popen[bytes]:
    """``subprocess.Popen`` (in a new session unless ``group`` is False), guarded by the
    lifeline before any signal to ghbench is let through: a Ctrl-C or SIGTERM that
    arrives while the child starts is delivered once it is guarded, so the child can
    never be left running unknown to anyone."""
    lifeline.ready()
    with uninterruptible():
        popen: subprocess.Popen[bytes] = subprocess.Popen(
            list(argv), start_new_session=group, **kwargs
        )
        guard(popen.pid, group=group)
    return popen


def start_process(
    argv: Sequence[str],
    *,
    name: str,
    env: Mapping[str, str],
    cwd: Path | None = None,
    log_path: Path | None = None,
    pass_fds: Sequence[int] = (),
) -> ManagedProcess:
    """Start ``argv`` in a new session; stdout and stderr go to ``log_path`` (or /dev/null);
    ``pass_fds``: descriptors the child inherits (a pipe back to us)."""
    log: IO[bytes] | None = None
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(log_path, "ab")  # noqa: SIM115 - closed by ManagedProcess.stop
    try:
        popen = popen_guarded(
            argv,
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
            pass_fds=tuple(pass_fds),
        )
    except BaseException:
        if log is not None:
            log.close()
        raise
    return ManagedProcess(popen=popen, name=name, log_path=log_path, _log=log)


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Fork children in here: the stop signals wait (blocked in this thread, and so in
    each child it forks, whose only thread it is) until the child has its own handlers
    (``as_forked_child``). Here they are back when the block ends."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _FORK_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def as_forked_child() -> None:
    """A forked child's first step: a process group of its own (the parent stops it by
    its group), SIGTERM and SIGHUP end it quietly, SIGINT (the terminal's Ctrl-C, the
    parent's to act on) is ignored; then the signals ``forking`` held come in."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORK_SIGNALS)


def guard(pid: int, *, group: bool = True) -> None:
    """Stop ``pid``'s process group (or, with ``group=False``, the process alone) if
    ghbench dies before ``unguard``. ``start_process`` guards what it starts; a child
    started otherwise (a daemon such as a tmux server) is guarded by whoever starts it."""
    start = start_time(pid)
    if start is not None:
        lifeline.hold("g" if group else "p", pid, start)


def unguard(pid: int, *, group: bool = True) -> None:
    """``pid`` was stopped (or is meant to outlive ghbench): the lifeline forgets it."""
    lifeline.release("g" if group else "p", pid)


def _unguard_if_gone(pgid: int) -> None:
    if not group_alive(pgid):
        unguard(pgid)


def _held_alive(held: lifeline.Held) -> bool:
    """Still running and still the process that was guarded (its pid not reused)."""
    start = start_time(held.pid)
    if start is not None:
        if held.start and start and start != held.start:
            return False  # the number now belongs to someone else
        return True if held.kind == "p" else group_alive(held.pid)
    # the process is gone; a group can outlive its leader
    return held.kind == "g" and group_alive(held.pid)


def _signal_held(held: lifeline.Held, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if held.kind == "g":
            os.killpg(held.pid, sig)
        else:
            os.kill(held.pid, sig)


def stop_orphans(held: Iterable[lifeline.Held], grace: float = _ORPHAN_GRACE_S) -> None:
    """The reaper's one act: SIGTERM what ghbench left, a deadline, SIGKILL the rest."""
    left = [h for h in held if _held_alive(h)]
    for h in left:
        _signal_held(h, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [h for h in left if _held_alive(h)]
    for h in left:
        _signal_held(h, signal.SIGKILL)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)


def kill_group(popen: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``popen``'s process group at once, without a SIGTERM first, and reap it."""
    if popen.poll() is None:
        _signal_group(popen.pid, signal.SIGKILL)
        popen.wait()
    _unguard_if_gone(popen.pid)


def stop_group(popen: subprocess.Popen[bytes], grace: float) -> StopResult:
    """Stop ``popen``'s process group (its pid is the group id: it was started in a new
    session); a signal to ghbench meanwhile waits (``uninterruptible``)."""
    with uninterruptible():
        return _stop_group(popen, grace)


def _stop_group(popen: subprocess.Popen[bytes], grace: float) -> StopResult:
    pgid = popen.pid
    if popen.poll() is None or group_alive(pgid):
        _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + max(grace, 0.0)
    while time.monotonic() < deadline:
        if popen.poll() is not None and not group_alive(pgid):
            unguard(pgid)
            return StopResult(popen.returncode, killed=False)
        time.sleep(0.05)
    killed = popen.poll() is None or group_alive(pgid)
    if killed:
        _signal_group(pgid, signal.SIGKILL)
    reap_deadline = time.monotonic() + _REAP_S
    try:
        popen.wait(timeout=_REAP_S)
    except subprocess.TimeoutExpired:
        return StopResult(None, killed=True)
    # SIGKILL is delivered at once but a busy machine may not have torn every
    # member down yet: wait for the group to go, so "stopped" means gone
    while group_alive(pgid) and time.monotonic() < reap_deadline:
        time.sleep(0.01)
    _unguard_if_gone(pgid)
    return StopResult(popen.returncode, killed=killed)


def _wait_until(done: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + max(seconds, 0.0)
    while not done():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def stop_leader_first(popen: subprocess.Popen[bytes], grace: float, drain: float) -> StopResult:
    """SIGTERM the leader only and give it ``grace`` seconds to run its own shutdown;
    then let what it left in its group (calls in flight) finish for up to ``drain``
    seconds; then stop whatever remains as ``stop_group`` does.

    Signalling the whole group at once would kill the leader's children mid-call
    (each one then a failure in the leader's records) and, for a leader that cleans up
    after its children exit, race its shutdown.
    """
    pgid = popen.pid
    if popen.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            popen.send_signal(signal.SIGTERM)
    leader_exited = _wait_until(lambda: popen.poll() is not None, grace)
    if leader_exited:
        _wait_until(lambda: not group_alive(pgid), drain)
        if not group_alive(pgid):
            return StopResult(popen.returncode, killed=False)
    result = stop_group(popen, grace if not leader_exited else min(grace, 5.0))
    return StopResult(result.returncode, killed=result.killed and not leader_exited)


def tool_output(
    argv: Sequence[str], *, timeout: float, env: Mapping[str, str] | None = None
) -> str | None:
    """A short-lived tool's stripped stdout; None if it cannot run, fails or prints nothing.

    For optional facts (a token from ``gh auth token``, a checkout's sha): a missing
    answer is a normal outcome the caller handles, never an error.
    """
    try:
        proc = subprocess.run(
            list(argv),
            env=None if env is None else dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and out else None
