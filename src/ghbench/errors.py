"""The one exception hierarchy ghbench raises for user-facing failures.

    GhbenchError                 exit 1, runtime failure the user can act on
    ├── UsageError               exit 2, a flag or argument is wrong
    ├── ConfigError              exit 2, a config file is missing or invalid
    ├── TraceError               exit 1, a trace file is missing, empty or unreadable
    ├── ArtifactError            exit 1, an artifact is missing, stale, of an unknown version,
    │                                    or would overwrite an existing file
    ├── EmulatorError            exit 1, the embedded emulator failed to start or answer
    ├── GitHubError              exit 1, a control call to GitHub (or the emulator) failed
    ├── ToolMissingError         exit 1, an external program (gh, node, tmux, ao) is not installed
    └── Interrupted              exit 128 + the signal: Ctrl-C (130), SIGTERM (143), SIGHUP (129)

    StopSignal (a KeyboardInterrupt) SIGTERM or SIGHUP arriving, raised where Ctrl-C's
                                     KeyboardInterrupt would be, so every path that stops
                                     cleanly on Ctrl-C does on them too

The CLI catches only GhbenchError (and click's usage errors), prints one line
``error: <message>`` on stderr and exits with ``exit_code``. Anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "ArtifactError",
    "ConfigError",
    "EmulatorError",
    "GhbenchError",
    "GitHubError",
    "Interrupted",
    "StopSignal",
    "ToolMissingError",
    "TraceError",
    "UsageError",
    "interrupt_signal",
    "make_dir",
    "signal_label",
]


class GhbenchError(Exception):
    """A failure the user can fix; the message names the flag or file and says what to do."""

    exit_code = 1


class UsageError(GhbenchError):
    """A flag or argument has a bad value."""

    exit_code = 2


class ConfigError(GhbenchError):
    """A config file is missing, unreadable or has an invalid key."""

    exit_code = 2


class TraceError(GhbenchError):
    """A trace file is missing, empty or cannot be read."""


class ArtifactError(GhbenchError):
    """An artifact is missing, stale, has an unknown schema version, or already exists."""


class EmulatorError(GhbenchError):
    """The embedded GitHub emulator could not start, or stopped answering."""


class GitHubError(GhbenchError):
    """A control call to GitHub or the emulator failed."""


class ToolMissingError(GhbenchError):
    """An external program ghbench drives is not installed."""


class Interrupted(GhbenchError):
    """The run was interrupted: Ctrl-C, SIGTERM or SIGHUP; exits 128 + that signal."""

    def __init__(self, message: str, signum: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.signum = signum
        self.exit_code = 128 + signum


class StopSignal(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived (``ghbench.signals.stop_on_signals`` raises it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def make_dir(path: Path, failed: Callable[[str], GhbenchError]) -> Path:
    """``path``, created with its parents where missing; where the system refuses, the
    error ``failed`` makes of its reason (e.g. "Permission denied")."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise failed(exc.strerror or str(exc)) from exc
    return path


def interrupt_signal(exc: BaseException) -> int:
    """The signal behind a KeyboardInterrupt: its own for a StopSignal, else SIGINT."""
    return exc.signum if isinstance(exc, StopSignal) else signal.SIGINT


def signal_label(signum: int) -> str:
    """How a stop is named to the user: ``Ctrl-C`` for SIGINT, else ``SIGTERM``..."""
    if signum == signal.SIGINT:
        return "Ctrl-C"
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
