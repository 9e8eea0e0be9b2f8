"""HTTP/1.1 for the front: llhttp (``httptools``) parses, a few lines frame.

Why not h11, which the front used first: on this machine h11 spent about half of the
front's CPU per kept-alive exchange (validating every header of four messages with
regular expressions); llhttp parses a head in a few microseconds (``bench/bench_front.py``,
docs/performance.md). The front needs little of a full HTTP library: a message's head,
its body as it comes, and the framing of what it sends on.

- ``MessageReader`` turns bytes into events (``Head``, ``Body``, ``END``), pipelined
  messages included; a CONNECT head ends the stream (``upgraded``: the bytes after it,
  a TLS ClientHello sent in the same write, belong to the tunnel). A head still
  incomplete after ``max_head`` bytes raises ``HeadTooLarge``; anything else that is
  not HTTP/1.1 raises ``ProtocolError``.
- ``request_head``, ``response_head`` and ``Framing`` write what goes out: a body of
  known length as is, anything else chunked.

Pure: bytes in, bytes and events out.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import httptools

__all__ = [
    "END",
    "Body",
    "End",
    "Framing",
    "Head",
    "HeadTooLarge",
    "MessageReader",
    "ProtocolError",
    "declared_length",
    "header",
    "request_head",
    "response_head",
]

Headers = list[tuple[bytes, bytes]]


class ProtocolError(Exception):
    """The peer did not speak HTTP/1.1."""


class HeadTooLarge(ProtocolError):
    """A request or response head longer than the reader accepts."""


@dataclass(slots=True)
class Head:
    """A message's head: a request's method and target, or a response's status and
    reason; header names lower-case, in order."""

    method: bytes = b""
    target: bytes = b""
    status: int = 0
    reason: bytes = b""
    headers: Headers = field(default_factory=list)
    keep_alive: bool = True


@dataclass(slots=True)
class Body:
    data: bytes


class End:
    """The end of a message."""


END = End()
Event = Head | Body | End


def header(headers: Headers, name: bytes) -> bytes | None:
    """The first value of the (lower-case) header ``name``."""
    for key, value in headers:
        if key == name:
            return value
    return None


class MessageReader:
    """Requests (``response=False``) or responses, parsed as bytes arrive (``feed``);
    the parsed events wait in ``events``."""

    def __init__(self, *, response: bool = False, max_head: int = 64 * 1024) -> None:
        self.events: deque[Event] = deque()
        self.upgraded: bytes | None = None  # after a CONNECT: the bytes that followed it
        self.max_head = max_head
        self._response = response
        self._head: Head | None = None
        self._in_head = False
        self._head_bytes = 0
        self._in_body = False  # a head was read, its message has not ended
        self._parser = (
            httptools.HttpResponseParser(self) if response else httptools.HttpRequestParser(self)
        )

    @property
    def mid_head(self) -> bool:
        """Some bytes of a head that is not complete yet have arrived."""
        return self._in_head

    def feed(self, data: bytes) -> None:
        """Parse ``data``; b"" is the end of the stream."""
        if not data:
            self._end_of_stream()
            return
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade as upgrade:
            self.upgraded = data[upgrade.args[0] :]
            return
        except httptools.HttpParserError as exc:
            if isinstance(exc.__context__, HeadTooLarge):
                raise exc.__context__ from None
            raise ProtocolError(str(exc) or type(exc).__name__) from None
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head:
                raise HeadTooLarge(f"a head over {self.max_head} bytes")

    def _end_of_stream(self) -> None:
        """A response body delimited by the close (neither a length nor chunked) ends
        here; llhttp is told of the end only by ``llhttp_finish``, which httptools does
        not expose (fed b"", it reports an empty body chunk and no end)."""
        head = self._head
        if not self._response or not self._in_body or head is None:
            return
        if header(head.headers, b"content-length") is None and not _chunked(head.headers):
            self._in_body = False
            self.events.append(END)

    def cut_body(self) -> None:
        """The head just read has no body whatever it says (the answer to a HEAD)."""
        self.events.append(END)
        self._in_body = False
        self._parser = (
            httptools.HttpResponseParser(self)
            if self._response
            else httptools.HttpRequestParser(self)
        )

    # httptools' callbacks
    def on_message_begin(self) -> None:
        self._head = Head()
        self._in_head = True
        self._head_bytes = 0

    def on_url(self, url: bytes) -> None:
        assert self._head is not None
        self._head.target += url
        self._grow(len(url))

    def on_status(self, status: bytes) -> None:
        assert self._head is not None
        self._head.reason += status

    def on_header(self, name: bytes, value: bytes) -> None:
        assert self._head is not None
        self._head.headers.append((name.lower(), value))
        self._grow(len(name) + len(value) + 4)

    def _grow(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > self.max_head:
            raise HeadTooLarge(f"a head over {self.max_head} bytes")

    def on_headers_complete(self) -> None:
        head = self._head
        assert head is not None
        self._in_head = False
        parser = self._parser
        if isinstance(parser, httptools.HttpResponseParser):
            head.status = parser.get_status_code()
        else:
            head.method = parser.get_method()
        head.keep_alive = parser.should_keep_alive()
        if 100 <= head.status < 200:
            return  # an interim answer (100 Continue): not the response
        self.events.append(head)
        self._in_body = True

    def on_body(self, body: bytes) -> None:
        self.events.append(Body(body))

    def on_message_complete(self) -> None:
        head = self._head
        if head is not None and 100 <= head.status < 200:
            return
        if head is not None:
            head.keep_alive = self._parser.should_keep_alive()
        self._in_body = False
        self.events.append(END)


def _lines(first: bytes, headers: Headers) -> bytes:
    parts = [first]
    for name, value in headers:
        parts += (name, b": ", value, b"\r\n")
    parts.append(b"\r\n")
    return b"".join(parts)


def request_head(method: bytes, target: bytes, headers: Headers) -> bytes:
    return _lines(method + b" " + target + b" HTTP/1.1\r\n", headers)


def response_head(status: int, reason: bytes, headers: Headers) -> bytes:
    return _lines(b"HTTP/1.1 %d %s\r\n" % (status, reason), headers)


_FRAMING = (b"content-length", b"transfer-encoding")


class Framing:
    """How a body goes out: with its length when known, else chunked.

    ``headers`` are the message's headers with the framing it will be sent with;
    ``length``: the body's size when known (None: chunked; ``bodyless``: none at all,
    the answer to a HEAD, a 204 or a 304, whatever its headers say)."""

    def __init__(self, headers: Headers, length: int | None, *, bodyless: bool = False) -> None:
        kept = [(k, v) for k, v in headers if k not in _FRAMING]
        self.chunked = not bodyless and length is None
        if bodyless:
            kept += [(k, v) for k, v in headers if k == b"content-length"][:1]
        elif length is not None:
            kept.append((b"content-length", b"%d" % length))
        else:
            kept.append((b"transfer-encoding", b"chunked"))
        self.headers = kept

    def data(self, chunk: bytes) -> bytes:
        if not self.chunked or not chunk:
            return chunk
        return b"%x\r\n%s\r\n" % (len(chunk), chunk)

    def end(self) -> bytes:
        return b"0\r\n\r\n" if self.chunked else b""


def _chunked(headers: Headers) -> bool:
    coding = header(headers, b"transfer-encoding")
    return coding is not None and b"chunked" in coding.lower()


def declared_length(headers: Headers) -> int | None:
    """A message's ``Content-Length`` when it has one and no ``Transfer-Encoding``."""
    if header(headers, b"transfer-encoding") is not None:
        return None
    value = header(headers, b"content-length")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
