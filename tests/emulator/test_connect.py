"""What GitHub's front end answers before the API: ``CONNECT`` is refused with what to
do instead, and a body over the size limit is a 413, free (never in the ledger)."""

from __future__ import annotations

import httpx
import pytest

from ghbench.emulator.connect import connect_refusal, payload_too_large
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest

REPO = "/repos/acme/todo"


def test_oversized_body_is_413(emulator: Emulator, api: httpx.Client) -> None:
    emulator.config.max_body_bytes = 1000
    response = api.post(f"{REPO}/issues", content=b"x" * 2000)
    assert response.status_code == 413
    assert response.json()["message"] == "Request Entity Too Large"
    graphql = api.post("/graphql", content=b'{"query": "' + b" " * 2000 + b'{ viewer { login } }"}')
    assert graphql.status_code == 413
    assert emulator.ledger_entries() == []  # refused in front of the API: free


@pytest.mark.parametrize("target", ["api.github.com:443", "github.com:443", "GitHub.com:443"])
def test_connect_to_github_says_to_talk_plain_http(target: str) -> None:
    refused = connect_refusal(target)
    assert refused.status == 405 and "CONNECT" not in refused.headers["allow"]
    message = refused.json()["message"]  # type: ignore[index]
    assert f"refusing CONNECT {target}" in message and "GH_HOST=github.localhost" in message
    assert "unix socket" not in message


@pytest.mark.parametrize(
    ("target", "host"),
    [("ghe.example.com:443", "ghe.example.com"), ("ghe.internal", "ghe.internal")],
)
def test_connect_to_an_enterprise_host_points_at_the_unix_socket(target: str, host: str) -> None:
    message = connect_refusal(target).json()["message"]  # type: ignore[index]
    assert f"for an enterprise host such as {host}, serve the emulator on a unix socket" in (
        message
    )


def test_the_core_answers_connect_with_the_refusal_free(emulator: Emulator) -> None:
    answer = emulator.handle(EmuRequest("CONNECT", "api.github.com:443"))
    assert answer.status == 405 and b"refusing CONNECT api.github.com:443" in answer.body
    assert emulator.ledger_entries() == []


def test_payload_too_large_is_githubs_json_shape() -> None:
    answer = payload_too_large()
    assert answer.status == 413 and answer.headers["content-type"].startswith("application/json")
    assert answer.json() == {
        "message": "Request Entity Too Large",
        "documentation_url": "https://docs.github.com/rest",
    }
