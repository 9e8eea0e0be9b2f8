"""Start and stop the processes ghbench owns, always by process group.

Every child starts in its own session (``start_new_session=True``), so a Ctrl-C in
the terminal reaches only ghbench, which then stops its children itself: SIGTERM to
the whole group, a deadline, then SIGKILL. Nothing is ever killed by name.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

__all__ = ["ManagedProcess", "StopResult", "group_alive", "start_process", "stop_group"]


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

    def stop(self, grace: float = 10.0) -> StopResult:
        """SIGTERM the group, wait up to ``grace`` seconds, then SIGKILL it."""
        try:
            return stop_group(self.popen, grace)
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None

    def log_tail(self, lines: int = 5) -> str:
        if self.log_path is None:
            return ""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])


def start_process(
    argv: Sequence[str],
    *,
    name: str,
    env: Mapping[str, str],
    cwd: Path | None = None,
    log_path: Path | None = None,
) -> ManagedProcess:
    """Start ``argv`` in a new session; stdout and stderr go to ``log_path`` (or /dev/null)."""
    log: IO[bytes] | None = None
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(log_path, "ab")  # noqa: SIM115 - closed by ManagedProcess.stop
    try:
        popen = subprocess.Popen(
            list(argv),
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
            start_new_session=True,
        )
    except BaseException:
        if log is not None:
            log.close()
        raise
    return ManagedProcess(popen=popen, name=name, log_path=log_path, _log=log)


def _live_members(pgid: int) -> bool | None:
    """Whether the group has a member that is not a zombie; None without /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces, so split after ')'
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) >= 3 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def group_alive(pgid: int) -> bool:
    """True while any process of the group runs (zombies awaiting a reaper do not count)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    live = _live_members(pgid)
    return True if live is None else live


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)


def stop_group(popen: subprocess.Popen[bytes], grace: float) -> StopResult:
    """Stop ``popen``'s process group (its pid is the group id: it was started in a new session)."""
    pgid = popen.pid
    if popen.poll() is None or group_alive(pgid):
        _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + max(grace, 0.0)
    while time.monotonic() < deadline:
        if popen.poll() is not None and not group_alive(pgid):
            return StopResult(popen.returncode, killed=False)
        time.sleep(0.05)
    killed = popen.poll() is None or group_alive(pgid)
    if killed:
        _signal_group(pgid, signal.SIGKILL)
    try:
        popen.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return StopResult(None, killed=True)
    return StopResult(popen.returncode, killed=killed)
