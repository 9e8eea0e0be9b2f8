"""Sharing one emulator fairly between clients: the turnstile and the request budget.

Every request changes or reads state under one lock. A plain lock lets one client's
expensive request (a 200-fold introspection, a huge alias batch) hold every other
client for seconds. The :class:`Turnstile` is that lock, made fair:

- a request that has worked for a slice (``SLICE_S``) steps aside at its next
  *checkpoint* when others wait, and queues behind every request that has not had a
  turn yet: a cheap request waits for at most one slice of work and the fresh
  requests ahead of it, however many expensive ones are under way;
- work that needs no state (parsing and validating a GraphQL document) runs with the
  turnstile released (:meth:`Turnstile.released`), and such work on large bodies goes
  through :data:`HEAVY_GATE` one at a time, so at most one of them competes with
  everything else for the interpreter.

:class:`RequestBudget` carries one request's checkpoints: each checks the deadline
(GitHub ends a request after 10 seconds: :class:`RequestTimeout`) and, once a slice
has passed, lets waiting requests go first, but only between database transactions,
so every answer is still committed before it is sent. It also counts the fields a
request resolves: past ``MAX_FIELDS`` the request stops with
:class:`ResourceLimitsExceeded` (GitHub's 2025 per-query resource limits; it publishes
no figure, so the bound is ours), which also bounds the memory one answer holds and so
the pauses the garbage collector takes to walk it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = [
    "HEAVY_BODY_BYTES",
    "HEAVY_GATE",
    "MAX_FIELDS",
    "SLICE_S",
    "RequestBudget",
    "RequestTimeout",
    "ResourceLimitsExceeded",
    "Turnstile",
]

SLICE_S = 0.004  # how long a request works before it lets waiting ones go first
HEAVY_BODY_BYTES = 16 * 1024  # GraphQL bodies above this parse through HEAVY_GATE
HEAVY_GATE = threading.BoundedSemaphore(1)
MAX_FIELDS = 100_000  # fields one request may resolve


class RequestTimeout(BaseException):
    """The request ran past its deadline.

    A BaseException on purpose: it must cut through GraphQL execution, which turns
    every ``Exception`` a resolver raises into a located error and carries on."""


class ResourceLimitsExceeded(BaseException):
    """The request resolved more than ``MAX_FIELDS`` fields. ``path`` is where it stopped
    (set by the executor that saw it). A BaseException, as RequestTimeout."""

    def __init__(self) -> None:
        super().__init__("Resource limits for this query exceeded.")
        self.path: list[str | int] = []


class Turnstile:
    """A reentrant lock that serves requests that have not had a turn before those that
    have (``pause``), each group first come, first served."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: int | None = None
        self._depth = 0
        self._next_ticket = 0
        self._fresh: list[int] = []  # tickets waiting for their first turn
        self._resumed: list[int] = []  # tickets that stepped aside, waiting to go on

    # -- lock protocol -------------------------------------------------------------
    def acquire(self) -> bool:
        self._take(resumed=False, depth=1)
        return True

    def release(self) -> None:
        with self._cond:
            if self._owner != threading.get_ident():
                raise RuntimeError("release of a turnstile held by another thread")
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._cond.notify_all()

    def __enter__(self) -> Turnstile:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    # -- fairness ------------------------------------------------------------------
    @property
    def contended(self) -> bool:
        """Whether anyone waits (read without the condition's lock: a hint)."""
        return bool(self._fresh or self._resumed)

    def pause(self) -> None:
        """Let every waiting request go first, then take the turnstile back (at the same
        depth), behind requests that have not had a turn yet. Only its holder calls it."""
        depth = self._give_up()
        self._take(resumed=True, depth=depth)

    @contextmanager
    def released(self) -> Iterator[None]:
        """Run the block without the turnstile (work that touches no state), then take
        it back as a request that has already had a turn."""
        depth = self._give_up()
        try:
            yield
        finally:
            self._take(resumed=True, depth=depth)

    def _give_up(self) -> int:
        with self._cond:
            if self._owner != threading.get_ident():
                raise RuntimeError("only the turnstile's holder can step aside")
            depth, self._depth, self._owner = self._depth, 0, None
            self._cond.notify_all()
            return depth

    def _take(self, *, resumed: bool, depth: int) -> None:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += depth
                return
            ticket = self._next_ticket
            self._next_ticket += 1
            queue = self._resumed if resumed else self._fresh
            queue.append(ticket)
            try:
                while self._owner is not None or not self._is_next(ticket):
                    self._cond.wait()
            except BaseException:
                queue.remove(ticket)
                self._cond.notify_all()
                raise
            queue.remove(ticket)
            self._owner, self._depth = me, depth

    def _is_next(self, ticket: int) -> bool:
        if self._fresh:
            return self._fresh[0] == ticket
        return bool(self._resumed) and self._resumed[0] == ticket


class RequestBudget:
    """One request's deadline and turns. ``checkpoint()`` is cheap: call it often.

    ``monotonic``: the clock deadlines are read on (injected; real time in a server).
    ``may_pause``: whether stepping aside is safe now (no database transaction open).
    """

    def __init__(
        self,
        turnstile: Turnstile,
        *,
        monotonic: Callable[[], float],
        timeout_s: float,
        may_pause: Callable[[], bool],
    ) -> None:
        self.turnstile = turnstile
        self._monotonic = monotonic
        self._may_pause = may_pause
        now = monotonic()
        self.deadline = now + timeout_s
        self._slice_end = now + SLICE_S
        self.fields = 0

    def checkpoint(self) -> None:
        """Called before each field: ResourceLimitsExceeded past ``MAX_FIELDS``,
        RequestTimeout past the deadline; after a slice of work, let others go first."""
        self.fields += 1
        if self.fields > MAX_FIELDS:
            raise ResourceLimitsExceeded
        now = self._monotonic()
        if now > self.deadline:
            raise RequestTimeout
        if now >= self._slice_end:
            if self.turnstile.contended and self._may_pause():
                self.turnstile.pause()
                now = self._monotonic()
            self._slice_end = now + SLICE_S

    @contextmanager
    def off_turnstile(self, heavy: bool) -> Iterator[None]:
        """Stateless work: the turnstile released; ``heavy`` work one at a time."""
        with self.turnstile.released():
            if heavy:
                with HEAVY_GATE:
                    yield
            else:
                yield
        self._slice_end = self._monotonic() + SLICE_S
