"""The control API's bodies and ledger query (``control_bodies``), validated as
settings are (issue 14 case 3): a 400 whose message names the endpoint, the key and
what is allowed."""

from __future__ import annotations

import httpx
import pytest


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        # issue 12 case 11: one string was three one-letter tokens
        ("/_ghbench/users", {"login": "x", "tokens": "abc"}, "tokens: expected array, got 'abc'"),
        ("/_ghbench/users", {"tokens": []}, "login is required"),
        ("/_ghbench/users", {"login": "x", "admin": True}, "unknown key admin; known keys"),
        ("/_ghbench/seed", {"repos": [{"name": "acme/todo", "issues": -1}]}, "issues: must be"),
        ("/_ghbench/seed", {"repos": [{"name": "a/b", "pulls": 10**9}]}, "pulls: must be at most"),
        ("/_ghbench/repos/acme/todo/ci", {"state": "green"}, "state: 'green' is not one of"),
        ("/_ghbench/repos/acme/todo/labels", {"number": 0}, "number: must be at least 1"),
        ("/_ghbench/repos/acme/todo/push", {"branch": "b", "files": {"a": 1}}, "files.a: "),
        ("/_ghbench/clock", {"advance": -5}, "advance: must be at least 0"),
        ("/_ghbench/faults", {"error_rate": 7}, "error_rate: must be at most 1, got 7"),
        ("/_ghbench/secondary", {"status": 200}, "status: 200 is not one of 403, 429"),
        ("/_ghbench/limits", {"resource": "core", "limit": -1}, "limit: must be at least 0"),
    ],
)
def test_control_bodies_are_validated_with_a_400_naming_the_key(
    api: httpx.Client, path: str, body: dict[str, object], message: str
) -> None:
    response = api.post(path, json=body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(f"POST {path}: ")
    assert message in response.json()["message"]


def test_the_ledger_query_is_validated(api: httpx.Client) -> None:
    refused = api.get("/_ghbench/ledger", params={"since": "yesterday"})
    assert refused.status_code == 400
    assert refused.json()["message"].startswith("GET /_ghbench/ledger query: since:")
    assert api.get("/_ghbench/ledger", params={"since": "12.5"}).status_code == 200
