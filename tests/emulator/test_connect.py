"""What GitHub's front end answers before the API: a body over the size limit is a 413,
free (never in the ledger)."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_oversized_body_is_413(emulator: Emulator, api: httpx.Client) -> None:
    emulator.config.max_body_bytes = 1000
    response = api.post(f"{REPO}/issues", content=b"x" * 2000)
    assert response.status_code == 413
    assert response.json()["message"] == "Request Entity Too Large"
    graphql = api.post("/graphql", content=b'{"query": "' + b" " * 2000 + b'{ viewer { login } }"}')
    assert graphql.status_code == 413
    assert emulator.ledger_entries() == []  # refused in front of the API: free
