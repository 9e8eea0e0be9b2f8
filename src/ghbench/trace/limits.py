"""Which rate limit refused a call, from its answer: the one classifier every row writer uses.

GitHub refuses a call for a rate limit in a few shapes (github-api-limits.md §1.4, §3, §4):

- a primary (hourly) limit: REST ``403`` or ``429`` with ``x-ratelimit-remaining: 0``;
  GraphQL ``200`` with an error of type ``RATE_LIMITED`` (``RATE_LIMIT`` in 2026
  reports) and no data;
- a secondary limit: ``403`` or ``429`` and a message saying a secondary rate limit was
  exceeded (``retry-after`` often), ``remaining`` not 0; a content-creation refusal says
  "content creation". In 2026 GitHub was also seen answering a secondary limit with
  the primary's message ("API rate limit exceeded for user ID …") while ``remaining``
  was not 0: a classifier that trusts the message calls that primary and waits for a
  reset that is not coming. So ``remaining`` decides first, the message second.

Which secondary limit (points per minute, concurrency) GitHub never says. ghbench's
emulator does, in ``x-ghbench-rate-limit`` (``LIMIT_HEADER``), so a run on it tells
them apart exactly; on GitHub such a refusal is ``secondary``, which one unknown.

A row's ``rateLimited`` holds the kind (``RateLimitKind``); a row without the field (AO's
own rows, older traces) is judged from what it does hold (``ghbench.scorecard.costs``:
``403``/``429`` with ``remaining`` 0 is the primary limit, any other ``429`` a secondary
one, a GraphQL ``200`` gh reported failed with ``remaining`` 0 the primary limit's
``RATE_LIMITED``; a ``403`` with budget left, without its message, is neither).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, Literal, get_args

__all__ = [
    "FORBIDDEN",
    "GRAPHQL_RATE_LIMITED_TYPES",
    "HEAD_BYTES",
    "KINDS",
    "LIMIT_HEADER",
    "PRIMARY",
    "SECONDARY",
    "TOO_MANY",
    "RateLimitKind",
    "graphql_refused",
    "refusal_kind",
]

RateLimitKind = Literal[
    "primary",
    "secondary-points",
    "secondary-concurrency",
    "secondary-content",
    "secondary",
]
KINDS: tuple[RateLimitKind, ...] = get_args(RateLimitKind)
PRIMARY: Final = "primary"
SECONDARY: Final = "secondary"
# ghbench's emulator names the limit that refused a call (its value: a kind's suffix)
LIMIT_HEADER = "x-ghbench-rate-limit"
_HEADER_KINDS: dict[str, RateLimitKind] = {
    "primary": "primary",
    "points": "secondary-points",
    "concurrency": "secondary-concurrency",
    "content": "secondary-content",
}
FORBIDDEN, TOO_MANY = 403, 429
REFUSAL_STATUSES = frozenset({FORBIDDEN, TOO_MANY})
GRAPHQL_RATE_LIMITED_TYPES = (b'"RATE_LIMITED"', b'"RATE_LIMIT"', b'"graphql_rate_limit"')
_SECONDARY_MESSAGE = re.compile(rb"secondary rate", re.IGNORECASE)  # octokit's own test
_CONTENT_MESSAGE = re.compile(rb"content creation", re.IGNORECASE)
_PRIMARY_MESSAGE = re.compile(rb"rate limit (?:already )?exceeded", re.IGNORECASE)
# an answer's head is enough: a refusal carries a short message and no data
HEAD_BYTES = 4096
_DATA = re.compile(rb'"data"\s*:\s*[{\[]')


def graphql_refused(body: bytes) -> bool:
    """A GraphQL answer refused for the primary limit: an error of GitHub's rate-limit
    type and no data (nothing ran). ``body`` may be the answer's head only."""
    head = body[:HEAD_BYTES]
    return any(t in head for t in GRAPHQL_RATE_LIMITED_TYPES) and not _DATA.search(head)


def _int(value: str | None) -> int | None:
    try:
        return None if value is None else int(value.strip())
    except ValueError:
        return None


def refusal_kind(
    status: int | None,
    headers: Mapping[str, str],
    body: bytes | str | None,
    *,
    graphql: bool = False,
) -> RateLimitKind | None:
    """The limit that refused this answer, or None when it is no rate-limit refusal.

    ``headers``: the answer's, names lower-case; ``body``: the answer's (its head is
    enough), None when the writer did not keep it; ``graphql``: a ``POST /graphql``."""
    text = body[:HEAD_BYTES] if body is not None else None
    data = text.encode("utf-8", "replace") if isinstance(text, str) else (text or b"")
    named = _HEADER_KINDS.get(headers.get(LIMIT_HEADER, "").strip())
    if status == 200 and graphql:
        return "primary" if data and graphql_refused(data) else None
    if status not in REFUSAL_STATUSES:
        return None
    if named is not None:
        return named
    head = data[:HEAD_BYTES]
    remaining = _int(headers.get("x-ratelimit-remaining"))
    if _SECONDARY_MESSAGE.search(head):
        return "secondary-content" if _CONTENT_MESSAGE.search(head) else "secondary"
    if remaining == 0:
        return "primary"
    if _PRIMARY_MESSAGE.search(head) or "retry-after" in headers or status == TOO_MANY:
        # a rate-limit answer with budget left is a secondary limit, whatever it says
        return "secondary"
    return None
