"""ghbench.record.ghcache: telling gh's disk-cache hits (gh 2.102) from real requests,
and reading its cache directories."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ghbench.record.exchange import Exchange
from ghbench.record.ghcache import (
    CacheEntry,
    cache_dirs,
    cache_requested,
    find_cache_hits,
    scan_cache,
)


def _cached_exchange() -> Exchange:
    return Exchange(
        started_at=1000.0,
        method="POST",
        target="/graphql",
        request_headers={"content-type": "application/json", "x-gh-cache-ttl": "1h0m0s"},
        status=200,
        response_headers={"date": "Tue, 01 Dec 2026 06:24:46 GMT", "x-ratelimit-remaining": "4990"},
    )


def test_a_stored_response_older_than_the_request_is_a_hit() -> None:
    ex = _cached_exchange()
    stored = CacheEntry(mtime=900.0, status=200, headers=dict(ex.response_headers))
    assert find_cache_hits([ex], [stored]) == {0}


def test_a_response_stored_after_the_request_started_is_a_miss() -> None:
    ex = _cached_exchange()
    written_by_this_request = CacheEntry(
        mtime=999.995, status=200, headers=dict(ex.response_headers)
    )
    assert find_cache_hits([ex], [written_by_this_request]) == set()


def test_a_different_stored_response_is_not_a_hit() -> None:
    ex = _cached_exchange()
    other = CacheEntry(mtime=900.0, status=200, headers={**ex.response_headers, "date": "earlier"})
    assert find_cache_hits([ex], [other]) == set()


def test_requests_gh_does_not_cache_are_never_hits() -> None:
    ex = _cached_exchange()
    uncached = Exchange(started_at=1000.0, status=200, response_headers=dict(ex.response_headers))
    stored = CacheEntry(mtime=900.0, status=200, headers=dict(ex.response_headers))
    assert find_cache_hits([uncached], [stored]) == set()


def test_gh_api_cache_makes_every_request_cacheable() -> None:
    # gh 2.102 logs no X-Gh-Cache-Ttl for `gh api --cache`: the argv says it
    ex = _cached_exchange()
    untagged = Exchange(started_at=1000.0, status=200, response_headers=dict(ex.response_headers))
    stored = CacheEntry(mtime=900.0, status=200, headers=dict(ex.response_headers))
    assert find_cache_hits([untagged], [stored], all_cacheable=True) == {0}
    assert cache_requested(["api", "repos/o/r", "--cache", "1h"])
    assert cache_requested(["api", "--cache=30m", "repos/o/r"])
    assert not cache_requested(["pr", "view", "--cache", "1h"])
    assert not cache_requested(["api", "repos/o/r"])


def test_scan_cache_reads_stored_responses(tmp_path: Path) -> None:
    (tmp_path / "ab").mkdir()
    (tmp_path / "ab" / "cd").write_bytes(b'HTTP/1.1 200 OK\r\nEtag: W/"x"\r\nDate: D\r\n\r\n{}')
    (tmp_path / "junk").write_bytes(b"not a response")
    [entry] = scan_cache([tmp_path, tmp_path / "missing"], before=1e12)
    assert (entry.status, entry.headers["etag"], entry.headers["date"]) == (200, 'W/"x"', "D")
    assert scan_cache([tmp_path], before=0.0) == []


def test_a_stored_response_with_no_identifying_header_in_common_is_no_hit() -> None:
    ex = _cached_exchange()
    bare = CacheEntry(mtime=900.0, status=200, headers={"content-type": "application/json"})
    assert find_cache_hits([ex], [bare]) == set()
    other_status = CacheEntry(mtime=900.0, status=304, headers=dict(ex.response_headers))
    assert find_cache_hits([ex], [other_status]) == set()


def test_an_exchange_without_an_answer_is_no_hit() -> None:
    ex = dataclasses.replace(_cached_exchange(), status=None)  # a transport error
    stored = CacheEntry(mtime=900.0, status=200, headers=dict(ex.response_headers))
    assert find_cache_hits([ex], [stored], all_cacheable=True) == set()


def test_cache_dirs_for_both_go_gh_versions() -> None:
    assert cache_dirs({"TMPDIR": "/t", "XDG_CACHE_HOME": "/x", "HOME": "/h"}) == [
        Path("/t/gh-cli-cache"),
        Path("/x/gh"),
    ]
    assert cache_dirs({"HOME": "/h"}) == [Path("/tmp/gh-cli-cache"), Path("/h/.cache/gh")]
    assert cache_dirs({}) == [Path("/tmp/gh-cli-cache")]


def test_scan_cache_skips_what_is_no_stored_response(tmp_path: Path) -> None:
    (tmp_path / "no-status").write_bytes(b"HTTP/1.1 OK\r\n\r\n")
    (tmp_path / "no-end").write_bytes(b"HTTP/1.1 200 OK\r\nDate: D")
    (tmp_path / "ok").write_bytes(b"HTTP/1.1 304 Not Modified\r\nDate: D\r\nbad line\r\n\r\n")
    [entry] = scan_cache([tmp_path], before=1e12)
    assert (entry.status, dict(entry.headers)) == (304, {"date": "D"})
