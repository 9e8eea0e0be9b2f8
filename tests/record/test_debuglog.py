"""The GH_DEBUG=api parser: exchanges out, and exactly the user's stderr passed through."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.record.debuglog import (
    DebugLogSplitter,
    DebugMode,
    debug_mode,
    split_debug_log,
)

FIXTURES = Path(__file__).parent / "fixtures"
# (fixture stem, what `gh` printed on stderr without GH_DEBUG)
CAPTURED = ["pr_view", "api_404", "api_304", "graphql_ratelimit", "paginate", "transport_error"]


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.mark.parametrize(
    ("gh_debug", "legacy", "mode"),
    [
        (None, None, DebugMode.OFF),
        ("", None, DebugMode.OFF),
        ("0", "1", DebugMode.OFF),  # GH_DEBUG set, even false, wins over DEBUG
        ("false", None, DebugMode.OFF),
        ("no", None, DebugMode.OFF),
        ("1", None, DebugMode.BASIC),
        ("true", None, DebugMode.BASIC),
        ("api", None, DebugMode.VERBOSE),
        ("1,api", None, DebugMode.VERBOSE),
        (None, "1", DebugMode.BASIC),
        (None, "yes", DebugMode.BASIC),
        (None, "api", DebugMode.VERBOSE),
        (None, "on", DebugMode.OFF),  # legacy DEBUG accepts only true/1/yes/api
    ],
)
def test_debug_mode_follows_gh(gh_debug: str | None, legacy: str | None, mode: DebugMode) -> None:
    assert debug_mode(gh_debug, legacy) is mode


@pytest.mark.parametrize("stem", CAPTURED)
def test_captured_logs_pass_through_as_plain_gh_printed_them(stem: str) -> None:
    debug = fixture(f"{stem}.debug.stderr")
    _, off = split_debug_log(debug, DebugMode.OFF)
    _, verbose = split_debug_log(debug, DebugMode.VERBOSE)
    assert off == fixture(f"{stem}.plain.stderr")
    assert verbose == debug


@pytest.mark.parametrize("stem", CAPTURED)
def test_basic_mode_keeps_only_the_star_lines(stem: str) -> None:
    debug = fixture(f"{stem}.debug.stderr")
    exchanges, basic = split_debug_log(debug, DebugMode.BASIC)
    plain = fixture(f"{stem}.plain.stderr")
    star_lines = [ln for ln in basic.splitlines(keepends=True) if ln.startswith(b"* ")]
    assert b"".join(ln for ln in basic.splitlines(keepends=True) if ln not in star_lines) == plain
    assert len(star_lines) == 3 * len(exchanges) + sum(e.error is not None for e in exchanges)
    assert all(ln in debug for ln in star_lines)


def test_pr_view_exchange() -> None:
    [ex] = split_debug_log(fixture("pr_view.debug.stderr"), DebugMode.OFF)[0]
    assert ex.method == "POST"
    assert ex.target == "/graphql"
    assert ex.url == "http://api.github.localhost/graphql"
    assert ex.status == 200
    assert ex.status_line == "HTTP/1.1 200 OK"
    assert ex.response_headers["x-ratelimit-resource"] == "graphql"
    assert int(ex.response_headers["x-ratelimit-remaining"]) < 5000
    assert "query PullRequestByNumber" in ex.request_body
    assert ex.duration_ms is not None and ex.duration_ms > 0
    assert ex.started_at is not None and ex.finished_at is not None
    assert ex.finished_at >= ex.started_at
    assert ex.complete
    assert "authorization" not in ex.request_headers


def test_paginate_gives_one_exchange_per_page() -> None:
    exchanges = split_debug_log(fixture("paginate.debug.stderr"), DebugMode.OFF)[0]
    assert len(exchanges) >= 2
    assert all(e.status == 200 for e in exchanges)
    assert len({e.target for e in exchanges}) == len(exchanges)


def test_304_has_headers_and_no_body() -> None:
    [ex] = split_debug_log(fixture("api_304.debug.stderr"), DebugMode.OFF)[0]
    assert ex.status == 304
    assert ex.response_body == ""
    assert "if-none-match" in ex.request_headers
    assert ex.response_headers["x-ratelimit-resource"] == "core"


def test_transport_error_has_no_status() -> None:
    [ex] = split_debug_log(fixture("transport_error.debug.stderr"), DebugMode.OFF)[0]
    assert ex.status is None
    assert ex.error is not None and "connection refused" in ex.error
    assert ex.duration_ms is not None


# -- synthetic edge cases ----------------------------------------------------------

BLOCK = (
    b"* Request at 2026-12-01 06:24:42.687396186 +0000 UTC m=+0.046261319\n"
    b"* Request to http://api.github.localhost/repos/acme/todo\n"
    b"> GET /repos/acme/todo HTTP/1.1\n"
    b"> Host: api.github.localhost\n"
    b"> Authorization: token \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\n"
    b"\n"
    b"< HTTP/1.1 200 OK\n"
    b"< X-Ratelimit-Remaining: 4999\n"
    b"\n"
    b'{"name": "todo"}\n'
    b"\n"
    b"* Request took 2.1ms\n"
)


def test_gh_output_around_blocks_is_kept_in_order() -> None:
    data = b"before\n" + BLOCK + b"between\n" + BLOCK + b"gh: done\n"
    exchanges, shown = split_debug_log(data, DebugMode.OFF)
    assert shown == b"before\nbetween\ngh: done\n"
    assert [e.status for e in exchanges] == [200, 200]
    assert exchanges[0].response_body == '{"name": "todo"}'


def test_git_command_echo_is_stripped_only_when_debug_was_ours() -> None:
    data = b"[git remote -v]\n[git config --get-regexp ^remote\\..*\\.gh-resolved$]\nok\n"
    assert split_debug_log(data, DebugMode.OFF)[1] == b"ok\n"
    assert split_debug_log(data, DebugMode.BASIC)[1] == data


def test_a_partial_line_that_cannot_be_debug_is_not_held() -> None:
    splitter = DebugLogSplitter(DebugMode.OFF)
    assert splitter.feed(b"? Title ") == b"? Title "
    assert splitter.feed(b"more\n") == b"more\n"
    assert splitter.feed(b"* Req") == b""  # may still become a block
    assert splitter.feed(b"uest at 2026") == b""
    assert splitter.finish() == b""
    assert len(splitter.exchanges) == 1
    assert not splitter.exchanges[0].complete


def test_a_star_line_that_is_not_a_block_passes() -> None:
    data = b"* Request to nowhere\n* other\n"
    assert split_debug_log(data, DebugMode.OFF)[1] == data


def test_block_cut_short_is_an_incomplete_exchange() -> None:
    cut = BLOCK[: BLOCK.index(b"< HTTP")]
    exchanges, shown = split_debug_log(cut, DebugMode.OFF)
    assert shown == b""
    [ex] = exchanges
    assert not ex.complete
    assert ex.status is None
    assert ex.method == "GET"


def _writes(block: bytes) -> list[bytes]:
    lines = block.splitlines(keepends=True)
    body_at = lines.index(b'{"name": "todo"}\n')
    return [*lines[:body_at], lines[body_at] + lines[body_at + 1], *lines[body_at + 2 :]]


def test_concurrent_requests_stay_hidden_and_are_all_counted() -> None:
    # httpretty writes each line of a head on its own and a body at once, so two
    # requests in flight interleave those writes
    other = BLOCK.replace(b"/repos/acme/todo", b"/graphql").replace(b"200 OK", b"502 Bad Gateway")
    a, b = _writes(BLOCK), _writes(other)
    mixed = b"".join(x + y for x, y in zip(a, b, strict=True))
    exchanges, shown = split_debug_log(b"first\n" + mixed + b"gh: done\n", DebugMode.OFF)
    assert shown == b"first\ngh: done\n"
    assert [e.target for e in exchanges] == ["/repos/acme/todo", "/graphql"]
    assert sorted(e.status or 0 for e in exchanges) == [200, 502]
    assert all(e.complete and e.duration_ms == 2.1 for e in exchanges)
    _, basic = split_debug_log(mixed, DebugMode.BASIC)
    assert basic.count(b"* Request took") == 2 and b"> GET" not in basic


def test_non_utf8_output_passes_byte_for_byte() -> None:
    data = b"\xff\xfe caf\xe9\n" + BLOCK + b"\x00\x01 tail without newline"
    assert (
        split_debug_log(data, DebugMode.OFF)[1]
        == b"\xff\xfe caf\xe9\n\x00\x01 tail without newline"
    )


def test_secret_headers_are_never_kept() -> None:
    block = BLOCK.replace(b"> Host:", b"> Cookie: session=abc\n> Host:")
    [ex] = split_debug_log(block, DebugMode.OFF)[0]
    assert "authorization" not in ex.request_headers
    assert "cookie" not in ex.request_headers
    assert ex.request_headers["host"] == "api.github.localhost"


@settings(max_examples=60, deadline=None)
@given(
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
    mode=st.sampled_from(list(DebugMode)),
)
def test_chunking_never_changes_the_result(cuts: list[int], mode: DebugMode) -> None:
    data = b"gh: x\n" + BLOCK + b"[git status]\n" + BLOCK + b"? prompt"
    whole_exchanges, whole = split_debug_log(data, mode)
    splitter = DebugLogSplitter(mode)
    out = bytearray()
    last = 0
    for cut in sorted({min(c, len(data)) for c in cuts}):
        out += splitter.feed(data[last:cut])
        last = cut
    out += splitter.feed(data[last:]) + splitter.finish()
    assert bytes(out) == whole
    assert splitter.exchanges == whole_exchanges
