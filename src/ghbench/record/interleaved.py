"""Exchanges from gh requests whose debug logs interleaved.

gh sends some requests side by side (gh 2.102's ``pr merge`` asks its two
feature-detection queries at once) and httpretty logs each one as it goes, in
writes: the request's head (``*`` and ``>`` lines, then an empty line), its body,
the response's status line, each ``<`` header line, the response body, ``* Request
took``. With two requests in flight those writes interleave (gh 2.102's own log:
``tests/record/fixtures/gh-2.102-pr-merge-concurrent.debug.stderr``). What still holds:

- a body is one write: unprefixed lines, then an empty line;
- a request's body follows its head, and its response comes after both;
- header lines come in order: ``Host`` first, then sorted by name.

So each line goes to the open part it can continue: a header line to the head whose
last header comes right before it in that order; a body to a request or response still owed one (the
one whose Content-Length it matches, else the first); a response to the first request
still without one that could have asked for it (a ``graphql`` bucket answers a
``/graphql`` request; the fields a GraphQL answer's data holds are named in the query).
Only requests that look alike in every one of these ways can still be swapped.

Pure: lines in, ``Exchange`` values out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ghbench.record.exchange import (
    BLOCK_END,
    BLOCK_START,
    REQUEST_LINE,
    REQUEST_TO,
    SECRET_HEADERS,
    STATUS_LINE,
    Exchange,
    body_text,
    header_line,
    parse_go_duration,
    parse_go_time,
)

__all__ = ["parse_overlapping"]

_AT = BLOCK_START.decode()
_TOOK = BLOCK_END.decode()
_PREFIXES = ("* ", "> ", "< ")
HeaderKey = tuple[int, str]


@dataclass
class _Part:
    """A request or a response, put together from its lines as they come."""

    headers: dict[str, str] = field(default_factory=dict)
    last_header: HeaderKey | None = None
    body: str | None = None
    touched: int = 0  # the index of its latest line

    def add_header(self, name: str, value: str, key: HeaderKey) -> None:
        self.last_header = key
        if name not in SECRET_HEADERS:
            known = self.headers.get(name)
            self.headers[name] = value if known is None else f"{known}, {value}"

    def content_length(self) -> int | None:
        try:
            return int(self.headers["content-length"])
        except (KeyError, ValueError):
            return None


@dataclass
class _Request(_Part):
    started_at: float | None = None
    url: str | None = None
    method: str | None = None
    target: str | None = None

    def owes_body(self) -> bool:
        return self.body is None and (self.content_length() or 0) > 0


@dataclass
class _Response(_Part):
    protocol: str = ""
    status: int = 0
    status_text: str = ""
    duration_ms: float | None = None

    def bodiless(self) -> bool:
        return self.status in (204, 304) or self.content_length() == 0

    def owes_body(self) -> bool:
        return self.body is None and not self.bodiless()


def _header_key(name: str) -> HeaderKey:
    # httpretty writes Host first, then the other headers sorted by name
    return (0, "") if name == "host" else (1, name)


def _continues(parts: Iterable[_Part], key: HeaderKey) -> _Part | None:
    """The head this header line goes on: among those still before their body, the one
    whose last header comes right before it in httpretty's order (the first on a tie)."""
    before = [p for p in parts if p.body is None and (p.last_header is None or p.last_header < key)]
    return max(before, key=lambda p: p.last_header or (-1, "")) if before else None


def _wire_length(text: str) -> int:
    """The bytes a body took on the wire, when httpretty indented JSON sent compact."""
    out: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
        elif ch in " \t\r\n":
            continue
        else:
            in_string = ch == '"'
        out.append(ch)
    return len("".join(out).encode())


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _body_end(lines: list[str], start: int) -> int:
    """Where the body that starts at ``lines[start]`` ends: its closing empty line."""
    for j in range(start, len(lines)):
        if lines[j] != "":
            continue
        after = lines[j + 1] if j + 1 < len(lines) else ""
        if after == "" or after.startswith(_PREFIXES) or _is_json("\n".join(lines[start:j])):
            return j
    return len(lines)


def _owed(requests: list[_Request], responses: list[_Response], body: str) -> _Part | None:
    """The request or response this body belongs to."""
    candidates: list[_Part] = [r for r in requests if r.method and r.owes_body()]
    candidates += [r for r in responses if r.owes_body()]
    sizes = {len(body.encode()), _wire_length(body)}
    for part in candidates:
        if part.content_length() in sizes:
            return part
    return candidates[0] if candidates else None


def _time(responses: list[_Response], duration: float | None, stray: list[float | None]) -> None:
    """Give a ``Request took`` to the response that ended last (a request that failed
    has none: its duration waits in ``stray``)."""
    ended = [r for r in responses if r.duration_ms is None and (r.body is not None or r.bodiless())]
    if ended:
        max(ended, key=lambda r: r.touched).duration_ms = duration
    else:
        stray.append(duration)


def _graphql_fields(response: _Response) -> list[str]:
    try:
        data = json.loads(response.body or "").get("data")
    except (ValueError, AttributeError):
        return []
    return list(data) if isinstance(data, dict) else []


def _could_answer(request: _Request, response: _Response) -> bool:
    is_graphql = (request.target or "").split("?")[0].endswith("/graphql")
    resource = response.headers.get("x-ratelimit-resource")
    if resource is not None and (resource == "graphql") != is_graphql:
        return False
    if not is_graphql:
        return True
    body = request.body or ""
    return all(re.search(rf"\b{re.escape(name)}\b", body) for name in _graphql_fields(response))


def _pair(requests: list[_Request], responses: list[_Response]) -> dict[int, _Response]:
    """Each request's response (by the request's index), in the order responses came."""
    paired: dict[int, _Response] = {}
    for response in responses:
        waiting = [k for k in range(len(requests)) if k not in paired]
        fitting = [k for k in waiting if _could_answer(requests[k], response)]
        chosen = fitting or waiting
        if chosen:
            paired[chosen[0]] = response
    return paired


def parse_overlapping(raw: list[bytes], complete: bool) -> list[Exchange]:
    """The exchanges of requests whose log lines interleaved, in the order they started."""
    lines = [b.decode("utf-8", "replace").rstrip("\r\n") for b in raw]
    requests: list[_Request] = []
    responses: list[_Response] = []
    stray_durations: list[float | None] = []
    errors: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        part: _Part | None = None
        if line.startswith(_AT):
            part = _Request(started_at=parse_go_time(line[len(_AT) :]))
            requests.append(part)
        elif line.startswith(_TOOK):
            _time(responses, parse_go_duration(line[len(_TOOK) :]), stray_durations)
        elif line.startswith(REQUEST_TO):
            part = next((r for r in requests if r.url is None), None)
            if part is not None:
                part.url = line[len(REQUEST_TO) :].strip()
        elif line.startswith("* "):
            errors.append(line[2:])  # a transport failure, for a request left unanswered
        elif (m := REQUEST_LINE.match(line)) is not None:
            part = next((r for r in requests if r.method is None), None)
            if part is not None:
                part.method, part.target = m.group(1), m.group(2)
        elif (m := STATUS_LINE.match(line)) is not None:
            part = _Response(protocol=m.group(1), status=int(m.group(3)), status_text=m.group(2))
            responses.append(part)
        elif line.startswith(("> ", "< ")) and (pair := header_line(line, line[:2])):
            heads: list[_Part] = []
            heads += [r for r in requests if r.method] if line[0] == ">" else responses
            key = _header_key(pair[0])
            part = _continues(heads, key)
            if part is not None:
                part.add_header(*pair, key)
        elif line != "":  # an empty line ends a head; which one, the body that follows says
            end = _body_end(lines, i - 1)
            body = body_text(lines[i - 1 : end])
            part = _owed(requests, responses, body)
            if part is not None:
                part.body = body
            i = end + 1
        if part is not None:
            part.touched = i
    paired = _pair(requests, responses)
    exchanges = []
    for k, request in enumerate(requests):
        response = paired.get(k)
        duration = response.duration_ms if response else None
        error = None
        if response is None:
            duration = stray_durations.pop(0) if stray_durations else None
            error = errors.pop(0) if errors else None
        exchanges.append(
            Exchange(
                started_at=request.started_at,
                url=request.url,
                method=request.method,
                target=request.target,
                request_headers=request.headers,
                request_body=request.body or "",
                protocol=response.protocol if response else None,
                status=response.status if response else None,
                status_text=response.status_text if response else None,
                response_headers=response.headers if response else {},
                response_body=(response.body or "") if response else "",
                duration_ms=duration,
                error=error,
                complete=complete or duration is not None,
            )
        )
    return exchanges
