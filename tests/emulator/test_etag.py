"""Conditional requests: per-token weak ETags, If-None-Match matching, Last-Modified and
If-Modified-Since, free 304s."""

from __future__ import annotations

from typing import Any

import githubkit
import httpx
import pytest
from emu_helpers import ClientFactory, remaining

from ghbench.emulator.core import Emulator
from ghbench.emulator.etag import etag_matches

GUARD = "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1"


@pytest.fixture(autouse=True)
def _pulls(emulator: Emulator) -> None:
    emulator.create_pull("acme/todo", "feat/one")


def test_304_is_free_and_keeps_headers(emulator: Emulator, api: httpx.Client) -> None:
    first = api.get(GUARD)
    etag = first.headers["etag"]
    assert etag.startswith('W/"')
    again = api.get(GUARD, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert remaining(again) == remaining(first) == 4999
    assert again.headers["etag"] == etag
    assert again.headers["x-ratelimit-resource"] == "core"
    assert "Authorization" in again.headers["vary"]
    assert len(emulator.ledger_entries()) == 1


def test_change_gives_200_then_304_again(emulator: Emulator, api: httpx.Client) -> None:
    etag = api.get(GUARD).headers["etag"]
    emulator.advance_clock(1)
    emulator.push("acme/todo", "feat/one")
    changed = api.get(GUARD, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert api.get(GUARD, headers={"If-None-Match": changed.headers["etag"]}).status_code == 304


def test_unrelated_change_keeps_the_304(emulator: Emulator, api: httpx.Client) -> None:
    etag = api.get(GUARD).headers["etag"]
    emulator.set_ci("acme/todo", "failure", pr=1)  # CI does not touch the PR list
    assert api.get(GUARD, headers={"If-None-Match": etag}).status_code == 304


def test_etags_are_per_token(emulator: Emulator, make_client: ClientFactory) -> None:
    emulator.create_user("hubot", ["ghp_other"])
    etag = make_client().get(GUARD).headers["etag"]
    other = make_client("ghp_other").get(GUARD, headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag


@pytest.mark.parametrize(
    "header",
    ['W/"{t}"', '"{t}"', '"x", W/"{t}"', "*", 'W/"nope", *'],
)
def test_weak_comparison_lists_and_star(api: httpx.Client, header: str) -> None:
    opaque = api.get(GUARD).headers["etag"][3:-1]
    response = api.get(GUARD, headers={"If-None-Match": header.format(t=opaque)})
    assert response.status_code == 304


def test_no_match_is_a_charged_200(emulator: Emulator, api: httpx.Client) -> None:
    api.get(GUARD)
    assert api.get(GUARD, headers={"If-None-Match": 'W/"stale"'}).status_code == 200
    assert len(emulator.ledger_entries()) == 2


def test_endpoints_with_etags(emulator: Emulator, api: httpx.Client) -> None:
    sha = emulator.set_ci("acme/todo", "success", pr=1)
    for path in (
        "/repos/acme/todo/pulls/1",
        "/repos/acme/todo/pulls/1/comments",
        f"/repos/acme/todo/commits/{sha}/status",
        f"/repos/acme/todo/commits/{sha}/check-runs?per_page=1",
        "/repos/acme/todo",
        "/user",
    ):
        api.get(path)  # a pull request's mergeability: null until computed (GitHub's too)
        etag = api.get(path).headers["etag"]
        assert api.get(path, headers={"If-None-Match": etag}).status_code == 304, path


def test_etag_matches_unit() -> None:
    assert etag_matches('W/"a"', '"a"')
    assert not etag_matches('"b"', 'W/"a"')
    assert etag_matches(' "b" ,W/"a"', 'W/"a"')


def test_last_modified_and_if_modified_since_with_githubkit(emulator_server: Any) -> None:
    """Issue 21 case 8: clients that poll with If-Modified-Since get GitHub's free 304."""
    emu = emulator_server.emulator  # PR 1 (feat/one)
    github = githubkit.GitHub(
        githubkit.TokenAuthStrategy(emulator_server.token),
        base_url=emulator_server.url,
        http_cache=False,
        auto_retry=False,
    )
    rest = github.rest
    rest.pulls.get("acme", "todo", 1)  # mergeability: null until computed
    first = rest.pulls.get("acme", "todo", 1)
    stamp = first.headers["last-modified"]
    assert stamp == "Fri, 17 Apr 2026 04:26:40 GMT"  # the virtual clock's start
    charged = len(emu.ledger_entries())
    emu.advance_clock(60)
    again = rest.pulls.get("acme", "todo", 1, headers={"If-Modified-Since": stamp})
    assert again.status_code == 304 and again.headers["last-modified"] == stamp
    assert len(emu.ledger_entries()) == charged  # free, as on GitHub
    earlier = "Fri, 17 Apr 2026 04:26:39 GMT"
    assert (
        rest.pulls.get("acme", "todo", 1, headers={"If-Modified-Since": earlier}).status_code == 200
    )
    rest.pulls.update("acme", "todo", 1, title="A, renamed")
    changed = rest.pulls.get("acme", "todo", 1, headers={"If-Modified-Since": stamp})
    assert changed.status_code == 200
    assert changed.headers["last-modified"] == "Fri, 17 Apr 2026 04:27:40 GMT"
    assert len(emu.ledger_entries()) == charged + 3
