"""What happened to issues and pull requests: their event history, and who acts.

Every change GitHub shows on an issue's or pull request's timeline is recorded here as
an :class:`~ghbench.emulator.state.models.IssueEvent` (REST ``issues/{n}/events`` and
``timeline``, GraphQL ``timelineItems``). The actor is the user of the request being
answered (``begin_request``); a change made through the Python or control API is the
repository owner's, as the control API's own commits are. What a request is lives in
its thread: requests take turns on the turnstile in the middle of their work (one
thread each), so another request's turn never changes it.
"""

from __future__ import annotations

import itertools
import threading
from collections import defaultdict

from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import Issue, IssueEvent, PullRequest, Record, User

__all__ = ["EventOps"]


class EventOps(StoreBase):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        # (repo id, number) -> events, oldest first
        self.events_by_number: dict[tuple[int, int], list[IssueEvent]] = defaultdict(list)
        self.events_by_id: dict[int, IssueEvent] = {}
        self._requests = itertools.count(1)
        self._request = threading.local()  # .serial, .user: the request this thread answers

    def _index(self, record: Record) -> None:
        super()._index(record)
        if isinstance(record, IssueEvent):
            self.events_by_number[(record.repo_id, record.number)].append(record)
            self.events_by_id[record.id] = record

    def begin_request(self, user: User | None) -> None:
        """This thread now answers a new API request by ``user`` (None: anonymous): the
        actor of what it changes; work GitHub does in the background (mergeability)
        is ready for the requests after it."""
        self._request.serial = next(self._requests)
        self._request.user = user

    def end_request(self) -> None:
        self._request.serial = None
        self._request.user = None

    @property
    def request_serial(self) -> int | None:
        """The request this thread answers (None: a Python or control API call)."""
        serial: int | None = getattr(self._request, "serial", None)
        return serial

    def actor_for(self, repo_id: int) -> User:
        """Who acts now: the request's user, else the repository's owner."""
        user: User | None = getattr(self._request, "user", None)
        return user if user is not None else self.users[self.repos[repo_id].owner_id]

    def events(self, item: Issue | PullRequest) -> list[IssueEvent]:
        return self.events_by_number.get((item.repo_id, item.number), [])

    def record_event(
        self, item: Issue | PullRequest, event: str, **details: str | int | None
    ) -> IssueEvent:
        """Note ``event`` on ``item`` now, by the acting user (``details``: the
        ``IssueEvent`` fields that event has, e.g. ``label="bug"``)."""
        return self.create(
            IssueEvent,
            "IE",
            now=("created_at",),
            repo_id=item.repo_id,
            number=item.number,
            event=event,
            actor_id=self.actor_for(item.repo_id).id,
            **details,
        )
