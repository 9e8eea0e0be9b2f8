"""Secondary rate limits (limits reference §4), each switchable and tunable.

Per owner: concurrent requests (REST and GraphQL combined), points per minute
(REST: 1 per GET/HEAD/OPTIONS, 5 per write; GraphQL: 1 per query, 5 per
mutation) and content creation per minute and per hour. Windows slide. A request
that would cross a limit is refused with ``status`` (429 by default, or 403) and
``retry-after`` and is not counted; ``GET /rate_limit`` is free for the primary limit
but counts here.

GitHub's docs say a secondary limit answers "403 or 429" without saying when. Reports
up to 2024 show 403; the gh output recorded in projects' fixtures since 2025 reads
``HTTP 429: You have exceeded a secondary rate limit`` (**inferred**: 429 is what
GitHub sends now). ``status: 403`` gives the older answer; both carry the same body,
which octokit's throttling plugin recognises either way (``/\bsecondary rate\b/i``).

Every refusal names the rule that made it in ``x-ghbench-rate-limit`` (``points``,
``concurrency``, ``content``; ``ghbench.trace.limits``), which GitHub never says, so a
trace of a run on the emulator tells the secondary limits apart. ``message: primary``
is a fault: the refusal says what a spent primary limit says ("API rate limit exceeded
for user ID N.") while ``x-ratelimit-remaining`` is not 0, as GitHub was seen to answer
in 2026, so a client's classifier can be tested against it (one that trusts the message
waits for a reset that is not coming).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ghbench.clock import Clock
from ghbench.emulator.errors import SecondaryRateLimited
from ghbench.emulator.state.db import Database
from ghbench.trace.limits import LIMIT_HEADER
from ghbench.validation import updated

__all__ = ["SecondaryConfig", "SecondaryLimiter", "SecondaryMessage"]

# how a secondary-limit refusal reads: GitHub's own message, or the primary limit's (a fault)
SecondaryMessage = Literal["secondary", "primary"]

CONTENT_CREATION_MESSAGE = (
    "You have exceeded a secondary rate limit and have been temporarily blocked from "
    "content creation. Please retry your request again later. If you reach out to GitHub "
    "Support for help, please include the request ID."
)
Count = Annotated[int, Meta(ge=0)]


class SecondaryConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Limits; 0 switches one rule off, ``enabled=False`` all of them."""

    enabled: bool = True
    max_concurrent: Count = 100
    rest_points_per_minute: Count = 900
    graphql_points_per_minute: Count = 2000
    content_per_minute: Count = 80
    content_per_hour: Count = 500
    concurrent_retry_after: Count = 5
    status: Literal[429, 403] = 429  # see the module doc
    # "primary": the fault of answering with the primary limit's message (module doc)
    message: SecondaryMessage = "secondary"

    def update(self, values: Mapping[str, object], *, source: str = "secondary") -> None:
        """Apply changes, all or none; ConfigError names the key and what is allowed."""
        new = updated(self, values, source=source)
        for name in self.__struct_fields__:
            setattr(self, name, getattr(new, name))


class _Window:
    """A sliding window of (time, points) with a running sum."""

    __slots__ = ("events", "span", "total")

    def __init__(self, span: float) -> None:
        self.span = span
        self.events: deque[tuple[float, int]] = deque()
        self.total = 0

    def expire(self, now: float) -> None:
        events = self.events
        while events and events[0][0] <= now - self.span:
            self.total -= events.popleft()[1]

    def retry_after(self, now: float, need: int, limit: int) -> int:
        """Seconds until ``need`` more points fit under ``limit``."""
        excess = self.total + need - limit
        freed = 0
        for ts, points in self.events:
            freed += points
            if freed >= excess:
                return max(1, math.ceil(ts + self.span - now))
        return max(1, math.ceil(self.span))

    def add(self, now: float, points: int) -> None:
        self.events.append((now, points))
        self.total += points


# each window kind's span in seconds: points per minute, content per minute and per hour
_SPANS = {"rest": 60, "graphql": 60, "content/60": 60, "content/3600": 3600}


class SecondaryLimiter:
    """Per-owner sliding windows; called under the emulator's lock.

    Every event also goes to ``db`` (with ``--state``), and a new limiter reloads the
    last hour's, so a restart does not open the windows again."""

    def __init__(
        self, clock: Clock, config: SecondaryConfig | None = None, db: Database | None = None
    ) -> None:
        self.clock = clock
        self.config = config or SecondaryConfig()
        self.db = db or Database()
        self._windows: dict[tuple[str, str], _Window] = {}
        for owner, kind, ts, points in self.db.load_secondary(since=clock.now() - 3600):
            self._window(owner, kind, _SPANS.get(kind, 3600)).events.append((ts, points))
            self._windows[(owner, kind)].total += points

    def _window(self, owner: str, kind: str, span: float) -> _Window:
        key = (owner, kind)
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(span)
        window.expire(self.clock.now())
        return window

    def check(
        self,
        owner: str,
        *,
        kind: str,
        points: int,
        creates_content: bool,
        concurrency: int,
        user_id: int | None = None,
    ) -> None:
        """Raise SecondaryRateLimited if this request would cross a limit (``user_id``:
        the caller's, which the primary-message fault names)."""
        cfg = self.config
        if not cfg.enabled:
            return
        if cfg.max_concurrent and concurrency > cfg.max_concurrent:
            self._refuse("concurrency", cfg.concurrent_retry_after, None, user_id)
        now = self.clock.now()
        limit = cfg.graphql_points_per_minute if kind == "graphql" else cfg.rest_points_per_minute
        window = self._window(owner, kind, 60)
        if limit and window.total + points > limit:
            self._refuse("points", window.retry_after(now, points, limit), None, user_id)
        if creates_content:
            for span, cap in ((60, cfg.content_per_minute), (3600, cfg.content_per_hour)):
                window = self._window(owner, f"content/{span}", span)
                if cap and window.total + 1 > cap:
                    retry = window.retry_after(now, 1, cap)
                    self._refuse("content", retry, CONTENT_CREATION_MESSAGE, user_id)

    def _refuse(self, rule: str, retry: int, message: str | None, user_id: int | None) -> None:
        if self.config.message == "primary":  # the fault (module doc)
            who = f"user ID {user_id}" if user_id is not None else "this client"
            message = f"API rate limit exceeded for {who}."
        headers = {"retry-after": str(retry), LIMIT_HEADER: rule}
        raise SecondaryRateLimited(message, headers=headers, status=self.config.status)

    def record(self, owner: str, *, kind: str, points: int, creates_content: bool) -> None:
        """Count an answered request."""
        if not self.config.enabled:
            return
        now = self.clock.now()
        self._add(owner, kind, now, points)
        if creates_content:
            self._add(owner, "content/60", now, 1)
            self._add(owner, "content/3600", now, 1)

    def _add(self, owner: str, kind: str, now: float, points: int) -> None:
        self._window(owner, kind, _SPANS[kind]).add(now, points)
        self.db.add_secondary((owner, kind, now, points))

    def reset(self) -> None:
        self._windows.clear()
