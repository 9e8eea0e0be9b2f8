"""The one clock. Everything that needs the time takes a Clock, so runs are reproducible.

``SystemClock`` is wall time. ``VirtualClock`` only moves when told to (``advance``,
``set`` or ``sleep``), which lets a simulated 17-minute cell run in a second.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "SystemClock", "VirtualClock"]


@runtime_checkable
class Clock(Protocol):
    """A source of time in epoch seconds that can also wait."""

    def now(self) -> float:
        """Seconds since the Unix epoch (UTC)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``; a virtual clock advances instead."""
        ...


class SystemClock:
    """Wall-clock time."""

    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """A clock that moves only when advanced. Thread-safe."""

    def __init__(self, start: float = 1_776_400_000.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds`` (never backwards) and return the new time."""
        if seconds < 0:
            raise ValueError(f"a virtual clock cannot go back ({seconds} s)")
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, when: float) -> None:
        """Jump to ``when``; it may not be earlier than now."""
        with self._lock:
            if when < self._now:
                raise ValueError(f"a virtual clock cannot go back (to {when} from {self._now})")
            self._now = float(when)
