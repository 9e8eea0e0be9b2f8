"""Fault injection (seeded) and the control API under /_ghbench/."""

from __future__ import annotations

import json

import httpx
import pytest
from emu_helpers import API, new_emulator

from ghbench.clock import VirtualClock
from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import ConfigError

REPO = "/repos/acme/todo"


def _run(emulator: Emulator, n: int) -> list[int]:
    with httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": "token ghp_test0000000000000000000000000000000001"},
    ) as api:
        return [api.get(REPO).status_code for _ in range(n)]


def test_errors_are_seeded_and_not_charged() -> None:
    runs = []
    for _ in range(2):
        emulator = new_emulator()
        emulator.set_faults(error_rate=0.3, error_status=503)
        statuses = _run(emulator, 60)
        assert set(statuses) == {200, 503}
        assert len(emulator.ledger_entries()) == statuses.count(200)
        runs.append(statuses)
    assert runs[0] == runs[1]


def test_latency_advances_the_virtual_clock() -> None:
    clock = VirtualClock()
    emulator = new_emulator(clock=clock)
    emulator.set_faults(latency="fixed", latency_ms=250)
    before = clock.now()
    _run(emulator, 4)
    assert clock.now() - before == pytest.approx(1.0)
    emulator.set_faults(latency="lognormal", latency_ms=40)
    before = clock.now()
    _run(emulator, 20)
    assert clock.now() > before


def test_timeouts_hang_then_fail() -> None:
    clock = VirtualClock()
    emulator = new_emulator(clock=clock)
    emulator.set_faults(timeout_rate=1.0, timeout_s=10)
    before = clock.now()
    assert _run(emulator, 1) == [502]
    assert clock.now() - before == pytest.approx(10)


def test_bad_fault_settings(emulator: Emulator) -> None:
    kinds = "fixed, lognormal, none, uniform"
    with pytest.raises(ConfigError, match=f"latency: 'gaussian' is not one of {kinds}"):
        emulator.set_faults(latency="gaussian")
    with pytest.raises(ConfigError, match="error_rate: must be at most 1, got 2"):
        emulator.set_faults(error_rate=2)
    with pytest.raises(ConfigError, match="timeout_s: must be at most 3600, got inf"):
        emulator.set_faults(timeout_s=float("inf"))
    with pytest.raises(ConfigError, match="unknown key jitter; known keys: latency"):
        emulator.set_faults(jitter=1, error_rate=0.5)
    assert emulator.config.faults.error_rate == 0  # all or nothing


# -- control API ---------------------------------------------------------------------
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
