"""A client's requests within GitHub's secondary rate limits.

GitHub refuses bursts of content creation (about 80 a minute, limits reference §4) with
a 403 or 429 and, usually, ``retry-after``; a refused request waits that long (60 s
without one, as Octokit does) on the ``sleep`` the caller injects and is sent again.
An exhausted primary budget is an error at once: waiting would not help before reset.
The harness's setup actions and the matrix's review burst on real GitHub use it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ghbench.errors import GitHubError
from ghbench.timefmt import iso_s

if TYPE_CHECKING:
    import httpx

__all__ = ["Sleep", "response_message", "send_within_limits"]

Sleep = Callable[[float], None]
SECONDARY_DEFAULT_WAIT_S = 60.0
SECONDARY_MAX_WAIT_S = 300.0
SECONDARY_ATTEMPTS = 8


def response_message(resp: httpx.Response) -> str:
    with contextlib.suppress(ValueError, AttributeError):
        return str(resp.json().get("message", ""))
    return ""


def _limited(resp: httpx.Response) -> bool:
    if resp.status_code not in (403, 429):
        return False
    return "retry-after" in resp.headers or "secondary rate limit" in response_message(resp).lower()


def send_within_limits(
    client: httpx.Client, sleep: Sleep, method: str, url: str, **kw: Any
) -> httpx.Response:
    """One request, sent again after each secondary-limit refusal's ``retry-after``."""
    for _ in range(SECONDARY_ATTEMPTS):
        resp = client.request(method, url, **kw)
        if resp.status_code in (403, 429) and resp.headers.get("x-ratelimit-remaining") == "0":
            reset = resp.headers.get("x-ratelimit-reset", "")
            when = iso_s(float(reset)) if reset.isdigit() else "the next reset"
            raise GitHubError(
                f"{method} {url}: the token's primary rate limit is spent until {when};"
                " run setup again after it"
            )
        if not _limited(resp):
            return resp
        try:
            wait = float(resp.headers["retry-after"])
        except (KeyError, ValueError):
            wait = SECONDARY_DEFAULT_WAIT_S
        sleep(min(max(wait, 1.0), SECONDARY_MAX_WAIT_S))
    raise GitHubError(
        f"{method} {url}: still refused by GitHub's secondary rate limit after"
        f" {SECONDARY_ATTEMPTS} waits; run setup again later"
    )
