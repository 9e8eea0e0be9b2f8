"""Data-driven routing on plain tables: the most literal pattern wins whatever the
table's order, ``{name:path}`` takes slashes, parameters are URL-decoded, HEAD is
answered by GET's route, and the emulator's own table routes the paths clients send."""

from __future__ import annotations

import pytest

from ghbench.emulator.rest import ROUTES
from ghbench.emulator.rest.routing import Call, Reply, Route, Router


def _handler(call: Call) -> Reply:
    return Reply(None)


def route(method: str, pattern: str) -> Route:
    return Route(method, pattern, _handler)


TABLE = [
    route("GET", "/repos/{owner}/{repo}/pulls/{number}"),
    route("GET", "/repos/{owner}/{repo}/pulls/comments"),
    route("GET", "/repos/{owner}/{repo}/git/ref/{ref:path}"),
    route("GET", "/repos/{owner}/{repo}"),
    route("POST", "/repos/{owner}/{repo}/pulls"),
    route("GET", "/users/{username}"),
    route("GET", "/{anything}/x"),
]


@pytest.mark.parametrize("table", [TABLE, TABLE[::-1]])
def test_the_most_literal_pattern_wins_in_any_order(table: list[Route]) -> None:
    router = Router(table)
    found = router.match("GET", "/repos/acme/todo/pulls/comments")
    assert found is not None and found[0].pattern.endswith("/pulls/comments")
    found = router.match("GET", "/repos/acme/todo/pulls/7")
    assert found is not None and found[1] == {"owner": "acme", "repo": "todo", "number": "7"}


def test_parameters_segments_paths_and_decoding() -> None:
    router = Router(TABLE)
    ref = router.match("GET", "/repos/acme/todo/git/ref/heads/feat/a%2Fb")
    assert ref is not None and ref[1]["ref"] == "heads/feat/a/b"
    user = router.match("GET", "/users/octo%40x")
    assert user is not None and user[1] == {"username": "octo@x"}
    slash = router.match("GET", "/repos/acme/todo/")  # a trailing slash is the same path
    assert slash is not None and slash[0].pattern == "/repos/{owner}/{repo}"
    assert router.match("GET", "/users/a/b") is None  # one segment only
    assert router.match("GET", "/repos/acme/todo/pulls") is None  # POST only
    assert router.match("DELETE", "/repos/acme/todo") is None
    assert router.match("GET", "/orgs/y") is None
    other = router.match("GET", "/anything-at-all/x")  # a pattern whose first segment varies
    assert other is not None and other[1] == {"anything": "anything-at-all"}


def test_head_is_answered_by_get() -> None:
    router = Router(TABLE)
    assert router.match("HEAD", "/repos/acme/todo") == router.match("GET", "/repos/acme/todo")


def test_a_routes_ledger_name_drops_path_markers() -> None:
    assert route("GET", "/repos/{owner}/{repo}/git/ref/{ref:path}").name == (
        "GET /repos/{owner}/{repo}/git/ref/{ref}"
    )


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("GET", "/repos/a/b/pulls/comments", "GET /repos/{owner}/{repo}/pulls/comments"),
        ("GET", "/repos/a/b/pulls/3/comments", "GET /repos/{owner}/{repo}/pulls/{number}/comments"),
        (
            "GET",
            "/repos/a/b/commits/feat/x/status",
            "GET /repos/{owner}/{repo}/commits/{ref}/status",
        ),
        ("GET", "/repos/a/b/branches/feat/x", "GET /repos/{owner}/{repo}/branches/{branch}"),
        ("GET", "/user/repos", "GET /user/repos"),
    ],
)
def test_the_emulators_table(method: str, path: str, name: str) -> None:
    found = Router(ROUTES).match(method, path)
    assert found is not None and found[0].name == name
