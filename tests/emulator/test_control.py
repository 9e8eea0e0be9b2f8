"""The control API under ``/_ghbench/``: free and never in the ledger; seeding, CI,
pushes, the ledger, the clock, limits, faults and reset; its errors (a body that is not
JSON is a 400, a bug in a handler is never one)."""

from __future__ import annotations

import json

import httpx
import pytest
from emu_helpers import API

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport

REPO = "/repos/acme/todo"


def test_control_api_is_free_and_never_in_the_ledger(emulator: Emulator, api: httpx.Client) -> None:
    seeded = api.post(
        "/_ghbench/seed",
        json={"repos": [{"name": "acme/todo", "issues": 2, "pulls": 2, "ci": "pending"}]},
    )
    assert seeded.status_code == 200
    assert seeded.json()["repos"][0]["pulls"] == [3, 4]
    assert "x-ratelimit-remaining" not in seeded.headers
    assert (
        api.post("/_ghbench/repos/acme/todo/ci", json={"pr": 3, "state": "success"}).json()["state"]
        == "success"
    )
    burst = api.post("/_ghbench/repos/acme/todo/review-comments", json={"count": 3})
    assert burst.json() == {"added": 6}
    pr = api.post("/_ghbench/repos/acme/todo/pulls", json={"head": "feat/x", "title": "X"})
    assert pr.json() == {"number": 5}
    pushed = api.post("/_ghbench/repos/acme/todo/push", json={"branch": "feat/x"})
    assert len(pushed.json()["sha"]) == 40
    assert api.post("/_ghbench/users", json={"login": "hubot", "tokens": ["t2"]}).status_code == 200
    assert api.get("/_ghbench/health").json()["ok"] is True
    assert emulator.ledger_entries() == []
    pulls = api.get(f"{REPO}/pulls/3/comments").json()
    assert len(pulls) == 3


def test_control_ledger_clock_limits_faults_reset(emulator: Emulator, api: httpx.Client) -> None:
    api.get(REPO)
    moved = api.post("/_ghbench/clock", json={"advance": 60}).json()["now"]
    assert moved == emulator.clock.now()
    api.get(REPO)
    ledger = api.get("/_ghbench/ledger", params={"since": moved}).json()
    assert ledger["count"] == 1 and ledger["totals"] == {"core": 1}
    jsonl = api.get("/_ghbench/ledger.jsonl", params={"resource": "core"})
    assert [json.loads(line)["cost"] for line in jsonl.text.splitlines()] == [1, 1]
    assert api.post("/_ghbench/limits", json={"resource": "core", "limit": 2}).status_code == 200
    assert api.get(REPO).status_code == 403
    faults = api.post("/_ghbench/faults", json={"error_rate": 0.5}).json()
    assert faults["error_rate"] == 0.5
    assert api.post("/_ghbench/secondary", json={"enabled": False}).json()["enabled"] is False
    assert api.post("/_ghbench/reset").json() == {"ok": True}
    assert emulator.ledger_entries() == [] and emulator.store.repos == {}


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/_ghbench/nope", b"", 404),
        ("POST", "/_ghbench/seed", b"{bad", 400),
        ("POST", "/_ghbench/users", b"{}", 400),
        ("POST", "/_ghbench/repos/acme/todo/ci", b'{"state": "weird", "pr": 1}', 400),
        ("POST", "/_ghbench/repos/acme/none/ci", b'{"state": "success", "pr": 1}', 404),
        ("POST", "/_ghbench/faults", b'{"latency": 3}', 400),
    ],
)
def test_control_errors(
    api: httpx.Client, method: str, path: str, body: bytes, status: int
) -> None:
    json_type = {"content-type": "application/json"}
    response = api.request(method, path, content=body, headers=json_type)
    assert response.status_code == status
    assert response.json()["message"]


def test_clock_control_needs_a_virtual_clock() -> None:
    emulator = Emulator()  # system clock
    headers = {CONTROL_KEY_HEADER: emulator.control_key}
    with httpx.Client(
        transport=EmulatorTransport(emulator), base_url=API, headers=headers
    ) as client:
        refused = client.post("/_ghbench/clock", json={"advance": 5})
    assert refused.status_code == 409 and "virtual clock" in refused.json()["message"]


def test_setting_the_clock_back_is_a_409_not_a_bug(emulator: Emulator, api: httpx.Client) -> None:
    now = emulator.clock.now()
    refused = api.post("/_ghbench/clock", json={"set": now - 60})
    assert refused.status_code == 409 and "cannot go back" in refused.json()["message"]
    assert emulator.clock.now() == now


def test_a_body_that_is_not_json(api: httpx.Client) -> None:
    refused = api.post(
        "/_ghbench/users", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400 and "not JSON" in refused.json()["message"]


def test_a_bug_in_a_handler_is_not_a_400(
    emulator: Emulator, api: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list[str]:
        return {}["missing"]  # type: ignore[no-any-return]

    monkeypatch.setattr(emulator, "create_user", broken)
    with pytest.raises(KeyError):
        api.post("/_ghbench/users", json={"login": "x"})
