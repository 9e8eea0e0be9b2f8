"""Secondary limits: concurrency, points per minute, content creation; tunable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.errors import ConfigError
from ghbench.trace.limits import LIMIT_HEADER, refusal_kind

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


# -- which limit refused: the emulator says (GitHub does not); the classifier reads it ----
def _kind(response: httpx.Response, *, header: bool = True) -> str | None:
    headers = {k.lower(): v for k, v in response.headers.items()}
    if not header:
        headers.pop(LIMIT_HEADER, None)  # as GitHub answers: no such header
    return refusal_kind(response.status_code, headers, response.content)


def test_each_refusal_names_its_rule(emulator: Emulator, api: httpx.Client) -> None:
    emulator.set_secondary(rest_points_per_minute=1, content_per_minute=1)
    assert api.get(REPO).status_code == 200
    points = api.get(REPO)
    assert points.headers[LIMIT_HEADER] == "points" and _kind(points) == "secondary-points"
    assert _kind(points, header=False) == "secondary"  # GitHub's: which one is not said
    emulator.set_secondary(rest_points_per_minute=0)
    assert api.post(f"{REPO}/issues", json={"title": "a"}).status_code == 201
    content = api.post(f"{REPO}/issues", json={"title": "b"})
    assert _kind(content) == "secondary-content"
    assert _kind(content, header=False) == "secondary-content"  # its message says so
    refused = emulator.handle(EmuRequest("GET", REPO, headers=AUTH, concurrency=101))
    assert refused.headers[LIMIT_HEADER] == "concurrency"


def test_a_spent_primary_limit_is_told_from_a_secondary_one(
    emulator: Emulator, api: httpx.Client
) -> None:
    emulator.set_limit("core", 1)
    assert api.get(REPO).status_code == 200
    spent = api.get(REPO)
    assert spent.status_code == 403 and spent.headers["x-ratelimit-remaining"] == "0"
    assert _kind(spent) == _kind(spent, header=False) == "primary"


def test_the_primary_message_fault(emulator: Emulator, api: httpx.Client) -> None:
    """A secondary limit answered with the primary limit's message while budget is left,
    as GitHub was seen to do in 2026: a classifier that trusts the message calls it
    primary and waits for a reset that is not coming; ``remaining`` says otherwise."""
    user = api.get("/user").json()["id"]
    emulator.set_secondary(rest_points_per_minute=2, message="primary")
    assert api.get(REPO).status_code == 200
    refused = api.get(REPO)
    assert refused.status_code == 429
    assert refused.json()["message"] == f"API rate limit exceeded for user ID {user}."
    assert int(refused.headers["x-ratelimit-remaining"]) > 0
    assert "secondary rate" not in refused.text  # octokit's test for a secondary limit fails
    assert _kind(refused) == "secondary-points"
    assert _kind(refused, header=False) == "secondary"


@pytest.mark.slow
def test_serve_takes_the_fault_as_a_flag(tmp_path: Path) -> None:
    """``emulator serve --secondary-message primary`` over a real socket."""
    config = tmp_path / "emulator.yaml"
    config.write_text("secondary: {rest_points_per_minute: 1}\n")
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--token", TOKEN]
    argv += ["--config", str(config), "--secondary-message", "primary", "--repo", "acme/todo"]
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().decode().split()[4]
        with httpx.Client(base_url=url, headers=AUTH) as client:
            assert client.get(REPO).status_code == 200
            refused = client.get(REPO)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert refused.status_code == 429 and "API rate limit exceeded" in refused.text
    assert _kind(refused, header=False) == "secondary"
