"""ghbench.record.exchange: one ``* Request at`` ... ``* Request took`` block of gh's debug
log (gh 2.102, GH_DEBUG=api) into an Exchange, and Go's times and durations in it."""

from __future__ import annotations

import pytest

from ghbench.record.exchange import Exchange, parse_block, parse_go_duration, parse_go_time

START = b"* Request at 2026-12-01 06:24:06.5 +0000 UTC m=+0.028005841"


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("1.985151ms", 1.985151),
        ("206.438µs", 0.206438),
        ("850ns", 0.00085),
        ("1.5s", 1500.0),
        ("2m3.5s", 123500.0),
        ("1h0m0s", 3600000.0),
        ("0s", 0.0),
    ],
)
def test_go_durations(text: str, ms: float) -> None:
    assert parse_go_duration(text) == pytest.approx(ms)


@pytest.mark.parametrize("text", ["", "fast", "1.5", "-1s", "1s garbage"])
def test_bad_go_durations(text: str) -> None:
    assert parse_go_duration(text) is None


def test_go_time_with_offset_and_monotonic_reading() -> None:
    utc = parse_go_time("2026-12-01 06:24:06.35476284 +0000 UTC m=+0.028005841")
    cet = parse_go_time("2026-12-01 07:24:06.35476284 +0100 CET m=+0.028005841")
    assert utc == pytest.approx(1796106246.35476284)
    assert cet == pytest.approx(utc)
    assert parse_go_time("yesterday") is None


def test_a_block_with_its_answer() -> None:
    ex = parse_block(
        [
            START,
            b"* Request to https://api.github.com/repos/o/r/pulls?state=open",
            b"> GET /repos/o/r/pulls?state=open HTTP/1.1",
            b"> Accept: application/json",
            b"> Authorization: token ghp_never_kept",
            b"> X-Many: a",
            b"> X-Many: b",
            b">  Bad Header: x",
            b"",
            b"< HTTP/2.0 200 OK",
            b'< Etag: W/"abc"',
            b"< Set-Cookie: session=never_kept",
            b"",
            b"[]",
            b"* Request took 1.5ms",
        ],
        complete=True,
    )
    assert (ex.method, ex.target, ex.status, ex.status_line) == (
        "GET",
        "/repos/o/r/pulls?state=open",
        200,
        "HTTP/2.0 200 OK",
    )
    assert ex.url == "https://api.github.com/repos/o/r/pulls?state=open"
    assert ex.request_headers == {"accept": "application/json", "x-many": "a, b"}
    assert ex.response_headers == {"etag": 'W/"abc"'}
    assert (ex.response_body, ex.duration_ms, ex.error) == ("[]", 1.5, None)
    assert ex.finished_at == pytest.approx(ex.started_at + 0.0015)  # type: ignore[operator]


def test_a_block_without_an_answer_keeps_the_transport_error() -> None:
    ex = parse_block(
        [
            START,
            b"> POST /graphql HTTP/1.1",
            b"",
            b'{"query":"{ viewer { login } }"}',
            b"* dial tcp: lookup api.github.com: no such host",
            b"* Request took 3s",
        ],
        complete=True,
    )
    assert (ex.status, ex.status_line) == (None, None)
    assert ex.error == "dial tcp: lookup api.github.com: no such host"
    assert ex.request_body == '{"query":"{ viewer { login } }"}'


def test_a_block_the_log_cut_short_has_no_duration() -> None:
    ex = parse_block([START, b"> GET /user HTTP/1.1", b"> Accept: */*"], complete=False)
    assert (ex.complete, ex.duration_ms, ex.target) == (False, None, "/user")
    assert ex.finished_at == ex.started_at
    assert Exchange().finished_at is None
