"""What the harness shows while it waits: sessions ready, warmup, the window countdown.

On a TTY it is a rich progress bar on stderr; otherwise plain lines on stderr (one
per poll while waiting for PRs, at least every ``EVERY_S`` seconds while waiting and
during the warmup and the window), so a log shows the run alive and how far it is.
The matrix's cells (``LogProgress``) print the same countdown through its log. stdout
carries only the results.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from ghbench.timefmt import format_duration

__all__ = [
    "EVERY_S",
    "LineProgress",
    "LogProgress",
    "Progress",
    "RichProgress",
    "make_progress",
]

EVERY_S = 15.0  # off a terminal, a long wait says how far it is at least this often


class Progress(Protocol):
    def note(self, text: str) -> None:
        """A one-off status line."""
        ...

    def sessions_ready(self, ready: int, total: int, elapsed: float, timeout: float) -> None: ...

    def phase(self, name: str, total: float) -> None:
        """Start a timed phase (``warmup``, ``window``) of ``total`` seconds."""
        ...

    def tick(self, elapsed: float) -> None:
        """Seconds elapsed in the current phase; called about once a second."""
        ...

    def close(self) -> None: ...


class _Countdown:
    """Lines: the phase when it starts, then what is left every ``every`` seconds (the
    spec's countdown, more often), through ``note``."""

    def __init__(self, every: float = EVERY_S) -> None:
        self.every = every
        self._phase = ""
        self._total = 0.0
        self._next = 0.0

    def note(self, text: str) -> None:
        raise NotImplementedError

    def phase(self, name: str, total: float) -> None:
        self._phase, self._total, self._next = name, total, self.every
        self.note(f"{name}: {format_duration(total)}")

    def tick(self, elapsed: float) -> None:
        if elapsed >= self._next and elapsed < self._total:
            left = self._total - elapsed
            self.note(f"{self._phase}: {format_duration(left)} left")
            while self._next <= elapsed:
                self._next += self.every

    def close(self) -> None:
        return None


class LineProgress(_Countdown):
    """Plain lines on stderr: sessions ready at each poll (and while a poll waits), the
    warmup's and the window's countdown every ``EVERY_S`` seconds."""

    def __init__(self, stream: TextIO, every: float = EVERY_S) -> None:
        super().__init__(every)
        self.stream = stream

    def note(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def sessions_ready(self, ready: int, total: int, elapsed: float, timeout: float) -> None:
        self.note(
            f"sessions ready {ready}/{total} "
            f"({format_duration(elapsed)} of {format_duration(timeout)})"
        )


class LogProgress(_Countdown):
    """``prefix: text`` lines to ``log`` (a matrix cell's): the notes and the countdown;
    the matrix says which cell runs itself."""

    def __init__(self, log: Callable[[str], None], prefix: str, every: float = EVERY_S) -> None:
        super().__init__(every)
        self.log, self.prefix = log, prefix
        self._ready_next = 0.0

    def note(self, text: str) -> None:
        self.log(f"{self.prefix}: {text}")

    def sessions_ready(self, ready: int, total: int, elapsed: float, timeout: float) -> None:
        """Every ``every`` seconds of the wait, not at every poll (the emulator's are a
        second apart)."""
        if elapsed >= self._ready_next or ready == total:
            self.note(f"sessions ready {ready}/{total} ({format_duration(elapsed)})")
            self._ready_next = elapsed + self.every


class RichProgress:
    """A live bar on a terminal."""

    def __init__(self, stream: TextIO) -> None:
        # rich takes ~0.1 s to import (docs/performance.md); off a terminal nobody needs it
        from rich.console import Console  # noqa: PLC0415
        from rich.progress import (  # noqa: PLC0415
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichBar  # noqa: PLC0415

        self.console = Console(file=stream, stderr=stream is sys.stderr)
        self._bar: Any = RichBar(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self._bar.start()
        self._task: Any = None
        self._ready_task: Any = None

    def note(self, text: str) -> None:
        self.console.print(text, highlight=False, markup=False)

    def sessions_ready(self, ready: int, total: int, elapsed: float, timeout: float) -> None:
        if self._ready_task is None:
            self._ready_task = self._bar.add_task("sessions ready", total=total)
        self._bar.update(self._ready_task, completed=ready)

    def phase(self, name: str, total: float) -> None:
        if self._task is not None:
            self._bar.remove_task(self._task)
        self._task = self._bar.add_task(f"{name} (s)", total=max(int(total), 1))
        self.note(f"{name}: {format_duration(total)}")

    def tick(self, elapsed: float) -> None:
        if self._task is not None:
            self._bar.update(self._task, completed=int(elapsed))

    def close(self) -> None:
        self._bar.stop()


def make_progress(stream: TextIO | None = None) -> Progress:
    s = stream if stream is not None else sys.stderr
    if s.isatty():
        return RichProgress(s)
    return LineProgress(s)
