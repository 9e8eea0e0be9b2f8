"""Split gh's ``GH_DEBUG=api`` stderr into HTTP exchanges and what the user should see.

gh logs every HTTP round trip through httpretty, unbuffered, one line at a time:

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

A transport failure replaces the response with one ``* <error>`` line. Everything
from a ``* Request at`` to the ``* Request took`` that ends the last request in flight
is debug output (requests gh makes concurrently interleave their lines); everything
else on stderr is gh's own and passes through byte for byte, in order.

What is shown depends on what the *user* asked for (``DebugMode``): nothing extra
(``OFF``: every block and gh's ``[git …]`` command echo are stripped), gh's
short form (``BASIC``: the ``*`` lines only, as ``GH_DEBUG=1`` prints them), or
everything (``VERBOSE``: the user set ``GH_DEBUG=api`` themselves).

Pure: bytes in, bytes and ``Exchange`` values out. No files, no clock.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

__all__ = [
    "DebugLogSplitter",
    "DebugMode",
    "Exchange",
    "debug_mode",
    "parse_go_duration",
    "parse_go_time",
    "split_debug_log",
]

BLOCK_START = b"* Request at "
BLOCK_END = b"* Request took "
_REQUEST_TO = "* Request to "

# gh echoes each git (or other) subprocess it runs as ``[git remote -v]`` when debug is on.
_COMMAND_ECHO = re.compile(rb"\[[^\s\]][^\n]*\]\r?\n")
_STATUS_LINE = re.compile(r"< (HTTP/[0-9.]+) ((\d{3})(?: .*)?)$")
_REQUEST_LINE = re.compile(r"> ([A-Z]+) (\S+) HTTP/[0-9.]+$")
# "*" lines httpretty writes only while logging bodies (absent with GH_DEBUG=1).
_BODY_NOTES = (
    b"* body is too long",
    b"* cannot read body",
    b"* body cannot be formatted",
    b"* error on request body filter",
    b"* error on response body filter",
    b"* panic while",
)
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
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
_FALSY_GH_DEBUG = frozenset({"", "0", "false", "no"})
_TRUTHY_LEGACY_DEBUG = frozenset({"true", "1", "yes", "api"})


class DebugMode(enum.Enum):
    """How much of gh's debug log the user asked to see."""

    OFF = "off"
    BASIC = "basic"
    VERBOSE = "verbose"


def debug_mode(gh_debug: str | None, legacy_debug: str | None) -> DebugMode:
    """What gh itself would log for these ``GH_DEBUG``/``DEBUG`` values (None = unset).

    ``GH_DEBUG`` wins when set, even to a false value; the legacy ``DEBUG`` is read
    only when ``GH_DEBUG`` is unset. A value containing ``api`` logs headers and bodies.
    """
    if gh_debug is None:
        value = legacy_debug or ""
        enabled = value in _TRUTHY_LEGACY_DEBUG
    else:
        value = gh_debug
        enabled = value not in _FALSY_GH_DEBUG
    if not enabled:
        return DebugMode.OFF
    return DebugMode.VERBOSE if "api" in value else DebugMode.BASIC


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


def _header(line: str, prefix: str) -> tuple[str, str] | None:
    body = line[len(prefix) :]
    name, sep, value = body.partition(":")
    if not sep or not name or " " in name:
        return None
    return name.strip().lower(), value[1:] if value.startswith(" ") else value


def _headers(lines: list[str], start: int, prefix: str) -> tuple[dict[str, str], int]:
    headers: dict[str, str] = {}
    i = start
    while i < len(lines) and lines[i].startswith(prefix):
        pair = _header(lines[i], prefix)
        if pair is not None and pair[0] not in _SECRET_HEADERS:
            name, value = pair
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        i += 1
    return headers, i


def _body(lines: list[str]) -> str:
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
    if i < end and lines[i].startswith(_REQUEST_TO):
        url = lines[i][len(_REQUEST_TO) :].strip()
        i += 1
    while i < end and lines[i].startswith("* "):  # e.g. "* Skipping TLS verification"
        i += 1
    method = target = None
    request_headers: dict[str, str] = {}
    if i < end and lines[i].startswith("> "):
        parts = lines[i][2:].split(" ")
        if len(parts) >= 2:
            method, target = parts[0], parts[1]
        request_headers, i = _headers(lines, i + 1, "> ")
        if i < end and lines[i] == "":
            i += 1
    response_at = next((j for j in range(i, end) if _STATUS_LINE.match(lines[j])), None)
    protocol = status_text = error = None
    status = None
    response_headers: dict[str, str] = {}
    response_body = ""
    if response_at is not None:
        request_body = _body(lines[i:response_at])
        m = _STATUS_LINE.match(lines[response_at])
        assert m is not None
        protocol, status_text, status = m.group(1), m.group(2), int(m.group(3))
        response_headers, k = _headers(lines, response_at + 1, "< ")
        if k < end and lines[k] == "":
            k += 1
        response_body = _body(lines[k:end])
    else:
        err_at = next((j for j in range(end - 1, i - 1, -1) if lines[j].startswith("* ")), None)
        if err_at is not None:
            error = lines[err_at][2:]
            request_body = _body(lines[i:err_at])
        else:
            request_body = _body(lines[i:end])
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


def parse_overlapping(raw: list[bytes], complete: bool) -> list[Exchange]:
    """Best-effort exchanges from requests whose log lines interleaved.

    gh logs unbuffered, one write per line, so requests made concurrently (``gh pr
    create`` fetching metadata) mix their lines. Request-side lines are taken in start
    order and responses in the order their status lines appear; each response keeps the
    ``<`` header lines that follow its status line. Pairing by order can swap the
    responses of requests that finished out of order.
    """
    lines = [b.decode("utf-8", "replace").rstrip("\r\n") for b in raw]
    starts = [
        parse_go_time(ln[len(BLOCK_START) :]) for ln in lines if ln.startswith("* Request at ")
    ]
    urls = [ln[len(_REQUEST_TO) :].strip() for ln in lines if ln.startswith(_REQUEST_TO)]
    requests = [m.groups() for ln in lines if (m := _REQUEST_LINE.match(ln))]
    took = "* Request took "
    durations = [parse_go_duration(ln[len(took) :]) for ln in lines if ln.startswith(took)]
    responses: list[tuple[re.Match[str], dict[str, str]]] = []
    for ln in lines:
        m = _STATUS_LINE.match(ln)
        if m is not None:
            responses.append((m, {}))
        elif ln.startswith("< ") and responses:
            pair = _header(ln, "< ")
            if pair is not None and pair[0] not in _SECRET_HEADERS:
                responses[-1][1][pair[0]] = pair[1]
    exchanges = []
    for k, started_at in enumerate(starts):
        method, target = requests[k] if k < len(requests) else (None, None)
        status_match, headers = responses[k] if k < len(responses) else (None, {})
        exchanges.append(
            Exchange(
                started_at=started_at,
                url=urls[k] if k < len(urls) else None,
                method=method,
                target=target,
                protocol=status_match.group(1) if status_match else None,
                status=int(status_match.group(3)) if status_match else None,
                status_text=status_match.group(2) if status_match else None,
                response_headers=headers,
                duration_ms=durations[k] if k < len(durations) else None,
                complete=complete or k < len(durations),
            )
        )
    return exchanges


class DebugLogSplitter:
    """Incremental splitter: ``feed`` gh's stderr, get back what the user should see.

    A debug group opens at ``* Request at`` and closes when every request opened in it
    has logged ``* Request took``; everything in between is debug output, even when
    concurrent requests interleave their lines. Exchanges accumulate in
    ``exchanges``. Call ``finish`` once at EOF: it returns any held bytes and closes a
    group the log cut short (gh killed mid-request). A partial line outside a group is
    held only while it could still become a debug line, so gh's prompts and progress
    output reach the user without waiting for a newline.
    """

    def __init__(self, mode: DebugMode) -> None:
        self.mode = mode
        self.exchanges: list[Exchange] = []
        self._pending = b""
        self._streaming = False  # the current line is gh's own and already flowing out
        self._group: list[bytes] | None = None
        self._open = 0  # requests started in the group and not finished yet
        self._started = 0  # requests started in the group

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        buf = self._pending + data if self._pending else data
        self._pending = b""
        pos, n = 0, len(buf)
        while pos < n:
            nl = buf.find(b"\n", pos)
            if self._streaming:
                end = n if nl < 0 else nl + 1
                out += buf[pos:end]
                pos = end
                self._streaming = nl < 0
                continue
            if nl < 0:
                rest = buf[pos:]
                if self._group is None and not self._may_become_debug(rest):
                    out += rest
                    self._streaming = True
                else:
                    self._pending = rest
                break
            out += self._take_line(buf[pos : nl + 1])
            pos = nl + 1
        return bytes(out)

    def finish(self) -> bytes:
        out = bytearray()
        if self._pending:
            tail, self._pending = self._pending, b""
            out += self._take_line(tail)
        if self._group is not None:
            self._close_group(complete=False)
        return bytes(out)

    def _may_become_debug(self, partial: bytes) -> bool:
        probe = partial[: len(BLOCK_START)]
        if BLOCK_START.startswith(probe):
            return True
        return self.mode is DebugMode.OFF and partial.startswith(b"[") and b"\n" not in partial

    def _take_line(self, line: bytes) -> bytes:
        if self._group is None:
            if line.startswith(BLOCK_START):
                self._group = []
            elif self.mode is DebugMode.OFF and _COMMAND_ECHO.fullmatch(line):
                return b""
            else:
                return line
        assert self._group is not None
        self._group.append(line)
        if line.startswith(BLOCK_START):
            self._open += 1
            self._started += 1
        elif line.startswith(BLOCK_END):
            self._open -= 1
            if self._open <= 0:
                self._close_group(complete=True)
        return self._shown(line)

    def _shown(self, line: bytes) -> bytes:
        if self.mode is DebugMode.VERBOSE:
            return line
        if self.mode is DebugMode.BASIC and line.startswith(b"* "):
            # GH_DEBUG=1 prints the "*" lines (times, URL, transport errors) but not
            # the notes about bodies, which only the header/body logging adds.
            return b"" if line.startswith(_BODY_NOTES) else line
        return b""

    def _close_group(self, complete: bool) -> None:
        raw, started = self._group or [], self._started
        self._group, self._open, self._started = None, 0, 0
        if started == 1:
            self.exchanges.append(parse_block(raw, complete))
        elif started > 1:
            self.exchanges.extend(parse_overlapping(raw, complete))


def split_debug_log(data: bytes, mode: DebugMode) -> tuple[list[Exchange], bytes]:
    """Split a whole captured stderr at once: (exchanges, what the user should see)."""
    splitter = DebugLogSplitter(mode)
    shown = splitter.feed(data) + splitter.finish()
    return splitter.exchanges, shown
