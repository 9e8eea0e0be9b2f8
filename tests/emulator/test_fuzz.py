"""Random requests never crash the emulator, and the ledger invariants hold."""

from __future__ import annotations

from emu_helpers import TOKEN, new_emulator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghbench.emulator.http import EmuRequest

METHODS = st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT"])
SEGMENTS = st.sampled_from(
    [
        "repos",
        "acme",
        "todo",
        "pulls",
        "issues",
        "1",
        "2",
        "comments",
        "merge",
        "git",
        "refs",
        "heads",
        "main",
        "commits",
        "status",
        "check-runs",
        "statuses",
        "graphql",
        "rate_limit",
        "user",
        "_ghbench",
        "ledger",
        "%2F",
        "..",
        "",
        "x" * 300,
    ]
)
PATHS = st.lists(SEGMENTS, max_size=7).map(lambda parts: "/" + "/".join(parts))
QUERIES = st.sampled_from(["", "per_page=1", "page=-3", "state=all&sort=updated", "per_page=x"])
BODIES = st.one_of(
    st.binary(max_size=64),
    st.sampled_from(
        [
            b"{}",
            b"[]",
            b"null",
            b'{"title": 1}',
            b'{"title": "t", "head": "a"}',
            b'{"query": "{ viewer { login } }"}',
            b'{"state": "success"}',
        ]
    ),
)
AUTH = st.sampled_from(
    [
        {},
        {"Authorization": f"token {TOKEN}"},
        {"Authorization": "token nope"},
        {"Authorization": "Basic abc"},
        {"authorization": f"bearer {TOKEN}"},
    ]
)
REQUESTS = st.lists(st.tuples(METHODS, PATHS, QUERIES, BODIES, AUTH, st.booleans()), max_size=25)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(REQUESTS, st.floats(min_value=0, max_value=4000))
def test_random_requests_keep_invariants(
    requests: list[tuple[str, str, str, bytes, dict[str, str], bool]], advance: float
) -> None:
    emulator = new_emulator()
    emulator.set_limit("core", 7, 3600)
    emulator.create_pull("acme/todo", "feat/x")
    for i, (method, path, query, body, auth, absolute) in enumerate(requests):
        if path.startswith("/_ghbench/reset"):
            continue
        target = f"http://api.github.localhost{path}" if absolute else path
        response = emulator.handle(EmuRequest(method, target, query, dict(auth), body))
        assert 200 <= response.status < 500, (method, target, response.status, response.body)
        if i == len(requests) // 2:
            emulator.advance_clock(advance)
    limiter = emulator.limiter
    for owner in limiter.owners():
        for resource in ("core", "graphql", "search"):
            view = limiter.view(owner, resource)
            assert view.remaining >= 0
            charged = sum(
                e.cost
                for e in emulator.ledger_entries(token=owner, resource=resource)
                if e.ts >= view.reset - limiter.limit_for(owner, resource)[1]
            )
            assert charged == view.used
