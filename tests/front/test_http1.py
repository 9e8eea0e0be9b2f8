"""ghbench.front.http1: bytes into events (pipelined requests, a CONNECT's tunnel bytes,
heads too large, what is not HTTP/1.1) and the framing of what goes out."""

from __future__ import annotations

import pytest

from ghbench.front.http1 import (
    END,
    Body,
    Framing,
    Head,
    HeadTooLarge,
    MessageReader,
    ProtocolError,
    declared_length,
    header,
    request_head,
    response_head,
)


def _events(reader: MessageReader) -> list[Head | Body | object]:
    events = list(reader.events)
    reader.events.clear()
    return events


def test_pipelined_requests_are_events_in_order_with_lower_case_headers() -> None:
    reader = MessageReader()
    reader.feed(
        b"GET /user HTTP/1.1\r\nHost: api.github.com\r\nX-Two: a\r\n\r\n"
        b"POST /graphql HTTP/1.1\r\nHost: api.github.com\r\nContent-Length: 2\r\n\r\n{}"
    )
    first, end1, second, body, end2 = _events(reader)
    assert isinstance(first, Head) and isinstance(second, Head)
    assert (first.method, first.target) == (b"GET", b"/user")
    assert first.headers == [(b"host", b"api.github.com"), (b"x-two", b"a")]
    assert (second.method, body, end1, end2) == (b"POST", Body(b"{}"), END, END)


def test_a_head_split_across_writes_is_one_head() -> None:
    reader = MessageReader()
    for part in (b"GET /re", b"pos/o/r HTTP/1.1\r\nHo", b"st: x\r\n", b"\r\n"):
        assert not reader.events
        reader.feed(part)
        if part != b"\r\n":
            assert reader.mid_head
    head = reader.events[0]
    assert isinstance(head, Head) and head.target == b"/repos/o/r" and not reader.mid_head


def test_a_connect_ends_the_stream_and_keeps_the_tunnels_first_bytes() -> None:
    reader = MessageReader()
    hello = b"\x16\x03\x01\x02\x00\x01"  # a TLS ClientHello sent in the CONNECT's write
    reader.feed(b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n" + hello)
    assert reader.upgraded == hello
    head = reader.events[0]
    assert isinstance(head, Head) and (head.method, head.target) == (
        b"CONNECT",
        b"api.github.com:443",
    )


def test_a_head_over_the_limit_is_too_large_even_a_line_at_a_time() -> None:
    whole = MessageReader(max_head=256)
    with pytest.raises(HeadTooLarge):
        whole.feed(b"GET /" + b"a" * 300 + b" HTTP/1.1\r\n\r\n")
    trickled = MessageReader(max_head=256)
    trickled.feed(b"GET / HTTP/1.1\r\n")
    with pytest.raises(HeadTooLarge):
        for i in range(100):
            trickled.feed(b"x-%d: %s\r\n" % (i, b"v" * 10))


@pytest.mark.parametrize(
    "data",
    [b"\x16\x03\x01\x00\xa5\x01\x00", b"GET / HTTP/9.9\r\n\r\n", b"GET / HTTP/1.1\r\nA\r\n\r\n"],
)
def test_what_is_not_http_1_1_is_a_protocol_error(data: bytes) -> None:
    with pytest.raises(ProtocolError) as raised:
        MessageReader().feed(data)
    assert not isinstance(raised.value, HeadTooLarge)


def test_a_response_without_length_ends_with_the_stream() -> None:
    reader = MessageReader(response=True)
    reader.feed(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello ")
    reader.feed(b"world")
    head, one, two = _events(reader)
    assert isinstance(head, Head) and (head.status, head.reason, head.keep_alive) == (
        200,
        b"OK",
        False,
    )
    assert (one, two) == (Body(b"hello "), Body(b"world"))
    reader.feed(b"")
    assert _events(reader) == [END]


def test_an_interim_100_continue_is_not_the_response() -> None:
    reader = MessageReader(response=True)
    reader.feed(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
    head, end = _events(reader)
    assert isinstance(head, Head) and head.status == 201 and end is END


def test_the_answer_to_a_head_request_has_no_body_whatever_it_says() -> None:
    reader = MessageReader(response=True)
    reader.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")
    reader.cut_body()
    reader.feed(b"HTTP/1.1 304 Not Modified\r\n\r\n")
    head, end, second = _events(reader)[:3]
    assert isinstance(head, Head) and end is END
    assert isinstance(second, Head) and second.status == 304


def test_heads_written_out() -> None:
    headers = [(b"host", b"api.github.com"), (b"accept", b"*/*")]
    assert request_head(b"GET", b"/user", headers) == (
        b"GET /user HTTP/1.1\r\nhost: api.github.com\r\naccept: */*\r\n\r\n"
    )
    assert response_head(407, b"Proxy Authentication Required", []) == (
        b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"
    )
    assert header(headers, b"accept") == b"*/*" and header(headers, b"Accept") is None


def test_framing_a_known_length_replaces_what_the_message_said() -> None:
    headers = [(b"a", b"1"), (b"transfer-encoding", b"chunked"), (b"content-length", b"9")]
    framing = Framing(headers, 3)
    assert framing.headers == [(b"a", b"1"), (b"content-length", b"3")]
    assert (framing.data(b"abc"), framing.end()) == (b"abc", b"")


def test_framing_an_unknown_length_is_chunked() -> None:
    framing = Framing([(b"content-length", b"9")], None)
    assert framing.headers == [(b"transfer-encoding", b"chunked")]
    assert framing.data(b"x" * 26) == b"1a\r\n" + b"x" * 26 + b"\r\n"
    assert framing.data(b"") == b""  # an empty chunk would end the body early
    assert framing.end() == b"0\r\n\r\n"


def test_framing_a_bodyless_answer_keeps_its_declared_length_only() -> None:
    headers = [(b"content-length", b"120"), (b"content-length", b"7"), (b"etag", b"x")]
    framing = Framing([*headers, (b"transfer-encoding", b"chunked")], None, bodyless=True)
    assert framing.headers == [(b"etag", b"x"), (b"content-length", b"120")]
    assert not framing.chunked and framing.end() == b""


@pytest.mark.parametrize(
    ("headers", "length"),
    [
        ([(b"content-length", b"12")], 12),
        ([(b"content-length", b"12"), (b"transfer-encoding", b"chunked")], None),
        ([(b"content-length", b"twelve")], None),
        ([], None),
    ],
)
def test_declared_length(headers: list[tuple[bytes, bytes]], length: int | None) -> None:
    assert declared_length(headers) == length


def test_a_body_cut_short_by_the_close_does_not_end() -> None:
    """A declared length (or chunks) the stream ended before: truncated, not complete."""
    for framing in (b"Content-Length: 10\r\n", b"Transfer-Encoding: chunked\r\n"):
        reader = MessageReader(response=True)
        reader.feed(b"HTTP/1.1 200 OK\r\n" + framing + b"\r\n" + b"3\r\nabc")
        _events(reader)
        reader.feed(b"")
        assert END not in _events(reader)
