"""Parsing ``gh api -i`` output: the status line, the headers of the last block, the body."""

from __future__ import annotations

from ghbench.trace.headers import parse_gh_include_output, parse_graphql_rate


def test_parse_body_without_headers() -> None:
    parsed = parse_gh_include_output('{"data":{}}')
    assert parsed.status_line is None
    assert parsed.http_status is None
    assert parsed.headers == {}
    assert parsed.body == '{"data":{}}'


def test_parse_status_and_lower_cased_headers() -> None:
    out = 'HTTP/2 200\r\nEtag: W/"abc123"\r\nX-Ratelimit-Remaining: 4999\r\n\r\n{"ok":true}'
    parsed = parse_gh_include_output(out)
    assert parsed.status_line == "HTTP/2 200"
    assert parsed.http_status == 200
    assert parsed.headers == {"etag": 'W/"abc123"', "x-ratelimit-remaining": "4999"}
    assert parsed.body == '{"ok":true}'


def test_parse_takes_the_last_block() -> None:
    out = (
        'HTTP/1.1 302 Found\r\nLocation: /x\r\nEtag: W/"first"\r\n\r\n'
        'HTTP/1.1 200 OK\r\nEtag: W/"final"\r\nX-Ratelimit-Resource: core\r\n\r\n[]'
    )
    parsed = parse_gh_include_output(out.encode())
    assert parsed.status_line == "HTTP/1.1 200 OK"
    assert parsed.http_status == 200
    assert parsed.headers == {"etag": 'W/"final"', "x-ratelimit-resource": "core"}
    assert parsed.body == "[]"


def test_parse_304_without_body() -> None:
    parsed = parse_gh_include_output('HTTP/1.1 304 Not Modified\r\nEtag: "e"\r\n\r\n')
    assert parsed.http_status == 304
    assert parsed.body == ""


def test_graphql_rate_from_body() -> None:
    rate = parse_graphql_rate('{"data":{"rateLimit":{"cost":3,"remaining":4990,"resetAt":"R"}}}')
    assert rate is not None
    assert (rate.cost, rate.remaining, rate.reset_at) == (3, 4990, "R")
    assert parse_graphql_rate("not json") is None
    assert parse_graphql_rate('{"data":{"viewer":{}}}') is None
