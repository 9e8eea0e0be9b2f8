"""Parsing ``gh api -i`` output: the status line, the response headers and the body.

gh writes ``HTTP/1.1 200 OK`` (or ``HTTP/2.0 ...``), then ``Name: value`` header lines
sorted by name and ending ``\\r\\n``, an empty line, then the body. With ``--paginate``
the block repeats per page; after a followed redirect there may be an earlier block.
AO keeps the LAST block, and so do we.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

import msgspec

__all__ = [
    "GraphqlRateLimit",
    "ParsedHeaders",
    "RateLimitFields",
    "header_int",
    "parse_gh_include_output",
    "parse_graphql_rate",
    "rate_limit_fields",
]

_STATUS_LINE = re.compile(r"^HTTP/\S+ (\d{3})(?: .*)?$")


@dataclass(frozen=True)
class ParsedHeaders:
    """The last HTTP block of ``gh api -i`` output; headers are lower-cased."""

    status_line: str | None
    http_status: int | None
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""


def parse_gh_include_output(stdout: str | bytes) -> ParsedHeaders:
    """Split ``gh api -i`` output into its last status line, headers and body.

    Output without any ``HTTP/`` status line (no ``-i``, or ``gh pr ...``) is all body.
    """
    text = stdout.decode("utf-8", "replace") if isinstance(stdout, bytes) else stdout
    lines = text.split("\n")
    last = -1
    for i, line in enumerate(lines):
        if line.startswith("HTTP/") and _STATUS_LINE.match(line.rstrip("\r")):
            last = i
    if last < 0:
        return ParsedHeaders(None, None, {}, text)
    status_line = lines[last].rstrip("\r")
    m = _STATUS_LINE.match(status_line)
    assert m is not None  # matched above
    headers: dict[str, str] = {}
    i = last + 1
    while i < len(lines):
        line = lines[i].rstrip("\r")
        i += 1
        if not line:
            break
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return ParsedHeaders(status_line, int(m.group(1)), headers, "\n".join(lines[i:]))


@dataclass(frozen=True)
class GraphqlRateLimit:
    """``data.rateLimit`` of a GraphQL response body."""

    cost: int | None
    remaining: int | None
    reset_at: str | None


def header_int(value: str | None) -> int | None:
    """A header's integer value (``x-ratelimit-remaining``); None when absent or not one."""
    if value is None:
        return None
    try:
        return int(value.strip())
    except ValueError:
        return None


class RateLimitFields(TypedDict):
    """A trace row's fields read from an answer's ``x-ratelimit-*`` headers."""

    rateLimitLimit: int | None
    rateLimitRemaining: int | None
    rateLimitReset: int | None
    rateLimitResource: str | None


def rate_limit_fields(headers: Mapping[str, str]) -> RateLimitFields:
    """A row's ``rateLimit*`` fields from an answer's headers (lower-cased names)."""
    return RateLimitFields(
        rateLimitLimit=header_int(headers.get("x-ratelimit-limit")),
        rateLimitRemaining=header_int(headers.get("x-ratelimit-remaining")),
        rateLimitReset=header_int(headers.get("x-ratelimit-reset")),
        rateLimitResource=headers.get("x-ratelimit-resource"),
    )


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def parse_graphql_rate(body: str | bytes) -> GraphqlRateLimit | None:
    """``data.rateLimit`` {cost, remaining, resetAt} from a GraphQL body, or None."""
    try:
        doc = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None
    data = doc.get("data") if isinstance(doc, dict) else None
    rate = data.get("rateLimit") if isinstance(data, dict) else None
    if not isinstance(rate, dict):
        return None
    reset_at = rate.get("resetAt")
    return GraphqlRateLimit(
        cost=_int_or_none(rate.get("cost")),
        remaining=_int_or_none(rate.get("remaining")),
        reset_at=reset_at if isinstance(reset_at, str) else None,
    )
