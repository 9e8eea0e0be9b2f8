"""``send_within_limits`` against the embedded emulator over a real socket: a request a
secondary limit refuses waits its ``retry-after`` (on the injected sleep, which moves
the emulator's clock) and is sent again; a spent primary budget is an error at once."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from tests.conftest import RunningEmulator

from ghbench.errors import GitHubError
from ghbench.throttle import SECONDARY_ATTEMPTS, response_message, send_within_limits

REPO = "/repos/acme/todo"


@pytest.fixture
def client(emulator_server: RunningEmulator) -> Iterator[httpx.Client]:
    headers = {"Authorization": f"token {emulator_server.token}"}
    with httpx.Client(base_url=emulator_server.url, headers=headers, timeout=30) as client:
        yield client


def test_a_secondary_refusal_waits_its_retry_after_and_is_sent_again(
    emulator_server: RunningEmulator, client: httpx.Client
) -> None:
    emulator = emulator_server.emulator
    emulator.set_secondary(rest_points_per_minute=2)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        emulator.advance_clock(seconds)

    for _ in range(2):
        assert send_within_limits(client, sleep, "GET", REPO).status_code == 200
    assert waits == []
    third = send_within_limits(client, sleep, "GET", REPO)
    assert third.status_code == 200
    assert len(waits) == 1 and 1 <= waits[0] <= 60  # the refusal's own retry-after
    assert len(emulator.ledger_entries()) == 3  # the refused request was not charged


def test_a_refusal_that_never_clears_is_an_error_after_the_last_attempt(
    emulator_server: RunningEmulator, client: httpx.Client
) -> None:
    emulator_server.emulator.set_secondary(rest_points_per_minute=1)
    client.get(REPO)
    waits: list[float] = []  # a sleep that does not move the emulator's clock
    with pytest.raises(GitHubError) as info:
        send_within_limits(client, waits.append, "GET", REPO)
    assert str(info.value) == (
        f"GET {REPO}: still refused by GitHub's secondary rate limit after"
        f" {SECONDARY_ATTEMPTS} waits; run setup again later"
    )
    assert len(waits) == SECONDARY_ATTEMPTS


def test_a_spent_primary_budget_is_an_error_at_once(
    emulator_server: RunningEmulator, client: httpx.Client
) -> None:
    emulator_server.emulator.set_limit("core", 1)
    assert client.get(REPO).status_code == 200
    waits: list[float] = []
    with pytest.raises(GitHubError) as info:
        send_within_limits(client, waits.append, "POST", f"{REPO}/issues", json={"title": "a"})
    message = str(info.value)
    assert message.startswith(f"POST {REPO}/issues: the token's primary rate limit is spent until")
    assert message.endswith("Z; run setup again after it")  # the reset, as a time
    assert waits == []


def test_any_other_refusal_is_returned_as_it_is(client: httpx.Client) -> None:
    waits: list[float] = []
    missing = send_within_limits(client, waits.append, "GET", "/repos/acme/nothing")
    assert missing.status_code == 404 and waits == []
    assert response_message(missing) == "Not Found"


def test_a_message_is_read_only_from_a_json_object() -> None:
    assert response_message(httpx.Response(403, json={"message": "m"})) == "m"
    assert response_message(httpx.Response(403, text="<html>")) == ""
    assert response_message(httpx.Response(403, json=["m"])) == ""
