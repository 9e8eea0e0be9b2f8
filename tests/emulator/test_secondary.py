"""Secondary limits: concurrency, points per minute, content creation; tunable."""

from __future__ import annotations

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.errors import ConfigError

REPO = "/repos/acme/todo"
AUTH = {"Authorization": f"token {TOKEN}"}


def _secondary(response: httpx.Response, status: int = 429) -> bool:
    return response.status_code == status and "secondary rate limit" in response.json()["message"]


def test_rest_points_per_minute(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(rest_points_per_minute=10)
    statuses = [api.get(REPO) for _ in range(11)]
    assert all(r.status_code == 200 for r in statuses[:10])
    refused = statuses[10]
    assert _secondary(refused)
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert len(emulator.ledger_entries()) == 10  # the refused request is not charged
    emulator.advance_clock(61)
    assert api.get(REPO).status_code == 200


def test_writes_cost_five_points(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(rest_points_per_minute=12)
    assert api.post(f"{REPO}/issues", json={"title": "a"}).status_code == 201
    assert api.post(f"{REPO}/issues", json={"title": "b"}).status_code == 201
    assert api.get(REPO).status_code == 200
    assert api.get(REPO).status_code == 200
    assert _secondary(api.get(REPO))


def test_rate_limit_endpoint_counts_for_secondary(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(rest_points_per_minute=3)
    assert [api.get("/rate_limit").status_code for _ in range(3)] == [200, 200, 200]
    assert _secondary(api.get("/rate_limit"))
    assert emulator.ledger_entries() == []


def test_content_creation_per_minute_and_hour(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(content_per_minute=2, content_per_hour=3)
    made = [api.post(f"{REPO}/issues", json={"title": str(i)}) for i in range(3)]
    assert [r.status_code for r in made[:2]] == [201, 201]
    assert _secondary(made[2]) and "content creation" in made[2].json()["message"]
    emulator.advance_clock(61)
    assert api.post(f"{REPO}/issues", json={"title": "x"}).status_code == 201
    emulator.advance_clock(61)
    hourly = api.post(f"{REPO}/issues", json={"title": "y"})
    assert _secondary(hourly) and int(hourly.headers["retry-after"]) > 60


def test_graphql_points_per_minute(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(graphql_points_per_minute=2)
    query = {"query": "{ viewer { login } }"}
    assert [api.post("/graphql", json=query).status_code for _ in range(2)] == [200, 200]
    assert _secondary(api.post("/graphql", json=query))


def test_concurrency_over_the_limit_is_refused(emulator: Emulator) -> None:
    emulator.set_secondary(max_concurrent=100)
    ok = emulator.handle(EmuRequest("GET", REPO, headers=AUTH, concurrency=100))
    refused = emulator.handle(EmuRequest("GET", REPO, headers=AUTH, concurrency=101))
    assert ok.status == 200 and refused.status == 429
    assert b"secondary rate limit" in refused.body and refused.headers["retry-after"]


def test_the_refusal_status_is_429_or_403_as_set(emulator: Emulator, api: httpx.Client) -> None:
    """GitHub answers 403 or 429; 429 by default (recent reports), 403 when set."""
    emulator.set_secondary(rest_points_per_minute=1)
    assert api.get(REPO).status_code == 200
    assert _secondary(api.get(REPO), 429)
    emulator.set_secondary(status=403)
    assert _secondary(api.get(REPO), 403)
    with pytest.raises(ConfigError, match="status: 500 is not one of 403, 429"):
        emulator.set_secondary(status=500)


def test_switched_off(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(enabled=False, rest_points_per_minute=1)
    assert {api.get(REPO).status_code for _ in range(5)} == {200}


def test_bad_settings_are_rejected(emulator: Emulator) -> None:
    with pytest.raises(ConfigError, match="unknown key bogus; known keys: enabled, max_concurrent"):
        emulator.set_secondary(bogus=1)
    with pytest.raises(ConfigError, match="max_concurrent: must be at least 0, got -1"):
        emulator.set_secondary(max_concurrent=-1)


def test_graphql_mutation_costs_five_points(emulator: Emulator, api: httpx.Client) -> None:
    emulator.push("acme/todo", "feat/m")
    repo = emulator.store.repo("acme", "todo")
    assert repo is not None
    emulator.set_secondary(graphql_points_per_minute=6)
    mutation = (
        "mutation { createPullRequest(input: {repositoryId: "
        f'"{repo.node_id}", baseRefName: "main", headRefName: "feat/m", title: "M"}})'
        " { pullRequest { number } } }"
    )
    made = api.post("/graphql", json={"query": mutation})
    assert made.json()["data"]["createPullRequest"]["pullRequest"]["number"] == 1
    query = {"query": "{ viewer { login } }"}
    assert api.post("/graphql", json=query).status_code == 200  # 5 + 1 = 6 points
    assert _secondary(api.post("/graphql", json=query))
