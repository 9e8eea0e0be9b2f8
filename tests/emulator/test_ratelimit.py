"""Primary limits: buckets, windows, exhaustion, /rate_limit and the ledger."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from emu_helpers import API, TOKEN, ClientFactory, new_emulator, remaining

from ghbench.emulator.config import config_from_mapping
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import ArtifactError

REPO = "/repos/acme/todo"
START = 1_776_400_000  # the VirtualClock's default start


def test_each_charge_is_one_ledger_entry_without_the_token(
    emulator: Emulator, api: httpx.Client
) -> None:
    seen = [remaining(api.get(REPO)) for _ in range(3)]
    assert seen == [4999, 4998, 4997]
    entries = emulator.ledger_entries()
    assert [(e.owner, e.resource, e.cost, e.status) for e in entries] == [
        ("octo", "core", 1, 200)
    ] * 3
    assert entries[0].endpoint == "GET /repos/{owner}/{repo}"
    assert TOKEN not in emulator.limiter.export_jsonl(emulator.ledger_entries()).decode()
    assert entries[0].token_id.startswith("token-")


def test_fixed_window_starts_at_first_charge(emulator: Emulator, api: httpx.Client) -> None:
    idle = api.get("/rate_limit").json()["resources"]["core"]
    assert idle == {"limit": 5000, "used": 0, "remaining": 5000, "reset": START + 3600}
    emulator.advance_clock(100)
    first = api.get(REPO)
    assert first.headers["x-ratelimit-reset"] == str(START + 100 + 3600)
    emulator.advance_clock(3000)
    assert api.get(REPO).headers["x-ratelimit-reset"] == str(START + 100 + 3600)
    emulator.advance_clock(600)  # past the reset: a new window starts at this charge
    renewed = api.get(REPO)
    assert renewed.headers["x-ratelimit-used"] == "1"
    assert renewed.headers["x-ratelimit-reset"] == str(START + 3700 + 3600)


def test_exhaustion_is_403_with_githubs_message(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_limit("core", 3, 3600)
    assert [api.get(REPO).status_code for _ in range(3)] == [200, 200, 200]
    refused = api.get(REPO)
    assert refused.status_code == 403
    assert refused.headers["x-ratelimit-remaining"] == "0"
    user_id = emulator.store.user("octo").id  # type: ignore[union-attr]
    assert refused.json()["message"] == f"API rate limit exceeded for user ID {user_id}."
    assert "rate-limits" in refused.json()["documentation_url"]
    assert len(emulator.ledger_entries()) == 3  # a refused request is not charged
    emulator.advance_clock(3600)
    assert api.get(REPO).status_code == 200


def test_a_spent_primary_limit_may_answer_429_as_set() -> None:
    """GitHub's docs: 403 or 429; 403 (every report) by default, 429 when configured."""
    emulator = new_emulator(config=config_from_mapping({"primary_status": 429}))
    emulator.set_limit("core", 1, 3600)
    with httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": f"token {TOKEN}"},
    ) as client:
        assert client.get(REPO).status_code == 200
        refused = client.get(REPO)
    assert refused.status_code == 429
    assert refused.headers["x-ratelimit-remaining"] == "0"
    assert refused.json()["message"].startswith("API rate limit exceeded for user ID")


def test_unauthenticated_is_60_per_hour_per_address(
    emulator: Emulator, make_client: ClientFactory
) -> None:
    one = make_client(None, address="10.0.0.1")
    other = make_client(None, address="10.0.0.2")
    statuses = [one.get(REPO).status_code for _ in range(61)]
    assert statuses == [200] * 60 + [403]
    refused = one.get(REPO)
    assert refused.json()["message"].startswith("API rate limit exceeded for 10.0.0.1.")
    assert other.get(REPO).status_code == 200
    assert {e.owner for e in emulator.ledger_entries()} == {"ip:10.0.0.1", "ip:10.0.0.2"}


def test_rate_limit_endpoint_is_free_and_shaped_like_githubs(api: httpx.Client) -> None:
    api.get(REPO)
    doc = api.get("/rate_limit").json()
    for name in ("core", "search", "graphql"):
        assert set(doc["resources"][name]) == {"limit", "used", "remaining", "reset"}
    assert doc["rate"] == doc["resources"]["core"]
    assert doc["resources"]["search"]["limit"] == 30
    assert api.get("/rate_limit").json()["resources"]["core"]["used"] == 1


def test_graphql_charges_its_own_bucket(emulator: Emulator, api: httpx.Client) -> None:
    response = api.post("/graphql", json={"query": "query Probe { viewer { login } }"})
    assert response.status_code == 200
    assert response.headers["x-ratelimit-resource"] == "graphql"
    (entry,) = emulator.ledger_entries(resource="graphql")
    assert entry.endpoint == "Probe" and entry.cost >= 1
    assert remaining(response) == 5000 - entry.cost


def test_graphql_exhausted_is_200_rate_limited(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_limit("graphql", 0, 3600, owner="octo")
    response = api.post("/graphql", json={"query": "{ viewer { login } }"})
    assert response.status_code == 200
    assert response.json()["errors"][0]["type"] == "RATE_LIMITED"
    assert emulator.ledger_entries(resource="graphql") == []


def test_graphql_needs_a_token(make_client: ClientFactory) -> None:
    response = make_client(None).post("/graphql", json={"query": "{ viewer { login } }"})
    assert response.status_code == 401


def test_ledger_queries_and_jsonl(emulator: Emulator, api: httpx.Client) -> None:
    api.get(REPO)
    emulator.advance_clock(10)
    api.get(REPO)
    api.post("/graphql", json={"query": "{ viewer { login } }"})
    assert len(emulator.ledger_entries(since=START + 5)) == 2
    assert len(emulator.ledger_entries(until=START + 5)) == 1
    assert emulator.ledger_entries(token="someone-else") == []
    assert len(emulator.ledger_entries(token="octo")) == 3
    totals = emulator.ledger_totals()
    assert totals["core"] == 2 and totals["graphql"] >= 1
    lines = emulator.limiter.export_jsonl(emulator.ledger_entries()).decode().splitlines()
    assert [json.loads(line)["resource"] for line in lines] == ["core", "core", "graphql"]


def test_export_ledger_never_overwrites(
    emulator: Emulator, api: httpx.Client, tmp_path: Path
) -> None:
    api.get(REPO)
    out = emulator.export_ledger(tmp_path / "ledger.jsonl")
    assert json.loads(out.read_text())["cost"] == 1
    with pytest.raises(ArtifactError):
        emulator.export_ledger(tmp_path / "ledger.jsonl")


def test_search_has_its_own_bucket_of_30_per_minute(emulator: Emulator, api: httpx.Client) -> None:
    emulator.create_pull("acme/todo", "feat/found", title="Find me")
    emulator.create_issue("acme/todo", "Other")
    hits = api.get("/search/issues", params={"q": "repo:acme/todo is:pr is:open find"})
    assert hits.headers["x-ratelimit-resource"] == "search"
    assert hits.headers["x-ratelimit-limit"] == "30"
    assert hits.json()["total_count"] == 1
    assert hits.json()["items"][0]["pull_request"]["html_url"].endswith("/pull/1")
    assert hits.headers["x-ratelimit-reset"] == str(START + 60)
    statuses = [api.get("/search/issues", params={"q": "x"}).status_code for _ in range(30)]
    assert statuses == [200] * 29 + [403]
    assert api.get(REPO).status_code == 200  # core is untouched
    emulator.advance_clock(60)
    assert api.get("/search/issues", params={"q": "x"}).status_code == 200
    assert emulator.ledger_totals() == {"search": 31, "core": 1}


def test_tokens_of_one_user_share_one_budget(
    emulator: Emulator, api: httpx.Client, make_client: ClientFactory
) -> None:
    emulator.create_user("octo", ["ghp_second_token_of_octo"])
    api.get(REPO)
    other = make_client("ghp_second_token_of_octo").get(REPO)
    assert other.headers["x-ratelimit-used"] == "2"
    assert len({e.token_id for e in emulator.ledger_entries()}) == 2  # two tokens, one bucket


def test_used_may_exceed_a_lowered_limit(emulator: Emulator, api: httpx.Client) -> None:
    for _ in range(5):
        api.get(REPO)
    emulator.set_limit("core", 3, 3600)
    doc = api.get("/rate_limit").json()["resources"]["core"]
    assert doc == {"limit": 3, "used": 5, "remaining": 0, "reset": START + 3600}
    assert api.get(REPO).status_code == 403
