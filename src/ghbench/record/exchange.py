"""One HTTP round trip as gh's ``GH_DEBUG=api`` log shows it, and the log's line grammar.

gh logs each round trip through httpretty:

    * Request at 2026-12-01 06:24:06.35476284 +0000 UTC m=+0.028005841
    * Request to http://api.github.localhost/graphql
    > POST /graphql HTTP/1.1
    > Host: api.github.localhost
    > Authorization: token ████████████████████
    …request headers…
    (empty line)
    …request body…
    < HTTP/1.1 200 OK
    < X-Ratelimit-Remaining: 4999
    …response headers…
    (empty line)
    …response body…
    * Request took 1.985151ms

A transport failure replaces the response with one ``* <error>`` line. ``parse_block``
reads one such block; ``ghbench.record.interleaved`` reads requests that overlapped.

Pure: lines in, ``Exchange`` values out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

__all__ = [
    "BLOCK_END",
    "BLOCK_START",
    "REQUEST_LINE",
    "REQUEST_TO",
    "SECRET_HEADERS",
    "STATUS_LINE",
    "Exchange",
    "body_text",
    "header_line",
    "header_lines",
    "parse_block",
    "parse_go_duration",
    "parse_go_time",
]

BLOCK_START = b"* Request at "
BLOCK_END = b"* Request took "
REQUEST_TO = "* Request to "
STATUS_LINE = re.compile(r"< (HTTP/[0-9.]+) ((\d{3})(?: .*)?)$")
REQUEST_LINE = re.compile(r"> ([A-Z]+) (\S+) HTTP/[0-9.]+$")
# Go's time.Time.String(): "2006-01-02 15:04:05.999999999 -0700 MST m=+0.1"
_GO_TIME = re.compile(
    r"(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? ([+-])(\d{2})(\d{2})"
)
# Go's time.Duration.String(): "1h2m3.5s", "1.985151ms", "206.438µs", "850ns", "0s"
_GO_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)")
_DURATION_MS = {
    "ns": 1e-6,
    "us": 1e-3,
    "µs": 1e-3,
    "μs": 1e-3,
    "ms": 1.0,
    "s": 1e3,
    "m": 60e3,
    "h": 3600e3,
}
# Headers whose values must never be kept, even though httpretty masks Authorization.
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})


@dataclass(frozen=True)
class Exchange:
    """One HTTP round trip as gh logged it. Secret headers are dropped, never stored."""

    started_at: float | None = None  # epoch seconds, from "* Request at"
    url: str | None = None
    method: str | None = None
    target: str | None = None  # request URI: "/graphql", "/repos/o/r/pulls?state=open"
    request_headers: dict[str, str] = field(default_factory=dict)  # lower-cased names
    request_body: str = ""
    protocol: str | None = None
    status: int | None = None
    status_text: str | None = None  # "200 OK"
    response_headers: dict[str, str] = field(default_factory=dict)  # lower-cased names
    response_body: str = ""
    duration_ms: float | None = None
    error: str | None = None  # transport failure, when there was no response
    complete: bool = True  # False when the log ended before "* Request took"

    @property
    def status_line(self) -> str | None:
        if self.protocol is None or self.status_text is None:
            return None
        return f"{self.protocol} {self.status_text}"

    @property
    def finished_at(self) -> float | None:
        if self.started_at is None:
            return None
        return self.started_at + (self.duration_ms or 0.0) / 1000.0


def parse_go_time(text: str) -> float | None:
    """Epoch seconds from Go's ``time.Time.String()``, or None if it is not one."""
    m = _GO_TIME.search(text)
    if m is None:
        return None
    day, hh, mm, ss, frac, sign, oh, om = m.groups()
    offset = timedelta(hours=int(oh), minutes=int(om))
    tz = timezone(-offset if sign == "-" else offset)
    try:
        base = datetime.fromisoformat(f"{day}T{hh}:{mm}:{ss}").replace(tzinfo=tz)
    except ValueError:
        return None
    fraction = float(f"0.{frac}") if frac else 0.0
    return base.timestamp() + fraction


def parse_go_duration(text: str) -> float | None:
    """Milliseconds from Go's ``time.Duration.String()`` (``1.5ms``, ``2m3s``), or None."""
    s = text.strip()
    if s.startswith("-"):
        return None
    total = 0.0
    pos = 0
    for m in _GO_DURATION_PART.finditer(s):
        if m.start() != pos:
            return None
        total += float(m.group(1)) * _DURATION_MS[m.group(2)]
        pos = m.end()
    if pos != len(s) or not s:
        return None
    return total


def header_line(line: str, prefix: str) -> tuple[str, str] | None:
    body = line[len(prefix) :]
    name, sep, value = body.partition(":")
    if not sep or not name or " " in name:
        return None
    return name.strip().lower(), value[1:] if value.startswith(" ") else value


def header_lines(lines: list[str], start: int, prefix: str) -> tuple[dict[str, str], int]:
    headers: dict[str, str] = {}
    i = start
    while i < len(lines) and lines[i].startswith(prefix):
        pair = header_line(lines[i], prefix)
        if pair is not None and pair[0] not in SECRET_HEADERS:
            name, value = pair
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        i += 1
    return headers, i


def body_text(lines: list[str]) -> str:
    text = "\n".join(lines)
    return text.strip("\n")


def parse_block(raw: list[bytes], complete: bool) -> Exchange:
    """Turn the lines of one ``* Request at`` … ``* Request took`` block into an Exchange."""
    lines = [b.decode("utf-8", "replace").rstrip("\r\n") for b in raw]
    started_at = parse_go_time(lines[0][len(BLOCK_START) :]) if lines else None
    end = len(lines)
    duration_ms = None
    if complete and lines and lines[-1].startswith(BLOCK_END.decode()):
        duration_ms = parse_go_duration(lines[-1][len(BLOCK_END) :])
        end -= 1
    i = 1
    url = None
    if i < end and lines[i].startswith(REQUEST_TO):
        url = lines[i][len(REQUEST_TO) :].strip()
        i += 1
    while i < end and lines[i].startswith("* "):  # e.g. "* Skipping TLS verification"
        i += 1
    method = target = None
    request_headers: dict[str, str] = {}
    if i < end and lines[i].startswith("> "):
        parts = lines[i][2:].split(" ")
        if len(parts) >= 2:
            method, target = parts[0], parts[1]
        request_headers, i = header_lines(lines, i + 1, "> ")
        if i < end and lines[i] == "":
            i += 1
    response_at = next((j for j in range(i, end) if STATUS_LINE.match(lines[j])), None)
    protocol = status_text = error = None
    status = None
    response_headers: dict[str, str] = {}
    response_body = ""
    if response_at is not None:
        request_body = body_text(lines[i:response_at])
        m = STATUS_LINE.match(lines[response_at])
        assert m is not None
        protocol, status_text, status = m.group(1), m.group(2), int(m.group(3))
        response_headers, k = header_lines(lines, response_at + 1, "< ")
        if k < end and lines[k] == "":
            k += 1
        response_body = body_text(lines[k:end])
    else:
        err_at = next((j for j in range(end - 1, i - 1, -1) if lines[j].startswith("* ")), None)
        if err_at is not None:
            error = lines[err_at][2:]
            request_body = body_text(lines[i:err_at])
        else:
            request_body = body_text(lines[i:end])
    return Exchange(
        started_at=started_at,
        url=url,
        method=method,
        target=target,
        request_headers=request_headers,
        request_body=request_body,
        protocol=protocol,
        status=status,
        status_text=status_text,
        response_headers=response_headers,
        response_body=response_body,
        duration_ms=duration_ms,
        error=error,
        complete=complete,
    )
