"""The matrix's S6 readers: the thread and cadence they share, and the dashboard that runs
one for a window.

Every reader (AO's web dashboard, the AO daemon's desktop app, the workload model's
dashboard tab) reads at one cadence: a refresh every ``refresh_s``, and every
``click_s`` the next session's page, round-robin, so the drivers' S6 cells compare.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Protocol

from ghbench.errors import GhbenchError

__all__ = ["ReaderDashboard", "ReaderThread", "StopSignal"]


class StopSignal(Protocol):
    """What the cadence needs of its stop flag (a ``threading.Event``; tests fake it)."""

    def set(self) -> None: ...
    def is_set(self) -> bool: ...
    def wait(self, timeout: float | None = None) -> bool: ...


class ReaderThread:
    """An S6 reader in its own thread: ``start``, ``stop`` (sets the flag, joins), and
    ``error``, what ended it early (the cell fails with it; never lost silently)."""

    thread_name = "ghbench-dashboard"
    join_s = 60.0

    def __init__(self, refresh_s: float, click_s: float) -> None:
        self.refresh_s, self.click_s = refresh_s, click_s
        self.error: str | None = None
        self._stop: StopSignal = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.join_s)
            self._thread = None

    def _run(self) -> None:
        try:
            self._read()
        except Exception as exc:  # reported in the cell's notes, never lost silently
            self.error = f"{type(exc).__name__}: {exc}"

    def _read(self) -> None:
        raise NotImplementedError

    def _cadence(
        self,
        refresh: Callable[[], None],
        click: Callable[[int], None],
        items: int,
        *,
        now: Callable[[], float] = time.monotonic,
        refreshed: bool = False,
    ) -> None:
        """Until stopped: ``refresh()`` every ``refresh_s`` (at once, unless the caller
        just did), and ``click(i)`` every ``click_s`` for the next of ``items``,
        round-robin from 0, the first at once; both intervals run from when the last
        one started, as a person rereading a page would."""
        start = now()
        next_refresh = start + self.refresh_s if refreshed else start
        next_click = start if items else math.inf  # nothing to click: wait for refreshes
        clicks = 0
        while not self._stop.is_set():
            at = now()
            if at >= next_refresh:
                refresh()
                next_refresh = at + self.refresh_s
            if at >= next_click and items:
                click(clicks % items)
                clicks += 1
                next_click = at + self.click_s
            self._stop.wait(max(0.05, min(next_refresh, next_click) - now()))


class ReaderDashboard:
    """A window's dashboard (``base.Dashboard``) read by one ``ReaderThread``: ``start``
    starts it; ``close`` (once) stops it, fails the cell with what ended it early, and
    returns the notes. A family says what it checks while the orchestrator still runs
    (``_at_window_end``) and what the cell notes of the reads (``_notes``)."""

    what = "the dashboard reader"  # as the cell's error names it
    calls_github = True

    def __init__(self, reader: ReaderThread) -> None:
        self.reader = reader
        self._closed = False

    def start(self) -> None:
        self.reader.start()

    def close(self, *, at_window_end: bool) -> list[str]:
        if self._closed:
            return []
        self._closed = True
        try:  # the reader stops whatever the check finds
            notes = self._at_window_end() if at_window_end else []
        finally:
            self.reader.stop()
        if self.reader.error is not None:
            raise GhbenchError(f"S6: {self.what} failed: {self.reader.error}")
        return notes + self._notes()

    def _at_window_end(self) -> list[str]:
        return []

    def _notes(self) -> list[str]:
        return []
