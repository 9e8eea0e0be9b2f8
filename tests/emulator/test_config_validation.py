"""One way to validate the emulator's settings and control bodies (issue 14 case 3):
msgspec structs whose errors name the file or endpoint, the key and what is allowed;
validation is the control API's only 400, and a bug in a handler is never one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from ghbench.emulator.config import load_config
from ghbench.emulator.core import Emulator
from ghbench.errors import ConfigError


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("primary_status: 500\n", "primary_status: 500 is not one of 403, 429"),
        ("graphql_cost_rule: all\n", "graphql_cost_rule: 'all' is not one of every-connection"),
        ("limits: {core: [5000, 0]}\n", "limits.core[1]: must be more than 0, got 0"),
        ("faults: {latency_ms: -1}\n", "faults.latency_ms: must be at least 0, got -1"),
        ("secondary: {enabled: maybe}\n", "secondary.enabled: expected bool, got 'maybe'"),
        ("repos: [todo]\n", "repos[0]: 'todo' is not owner/name"),
        ("users: {octo: ghp_x}\n", "users.octo: expected array, got 'ghp_x'"),
        ("max_body_bytes: .inf\n", "max_body_bytes: expected int, got inf"),
        ("colour: red\n", "unknown key colour; known keys: limits, anonymous_limits"),
        ("- just a list\n", "expected a mapping of settings at the top level"),
    ],
)
def test_config_errors_name_the_file_the_key_and_what_is_allowed(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "emu.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"--config {path}: {message}")


def test_a_good_config(tmp_path: Path) -> None:
    path = tmp_path / "emu.yaml"
    path.write_text(
        "limits: {core: [10, 60]}\nfaults: {latency: fixed, latency_ms: 5}\n"
        "web_url: https://example.test/\nrepos: [acme/todo]\n"
    )
    cfg = load_config(path)
    assert cfg.limits == {"core": (10, 60)}
    assert (cfg.faults.latency, cfg.faults.latency_ms) == ("fixed", 5.0)
    assert cfg.web_url == "https://example.test" and cfg.repos == ["acme/todo"]


def test_serve_config_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    """Issue 12 case 10: a non-UTF-8 --config was a traceback."""
    path = tmp_path / "emu.yaml"
    path.write_bytes(b"limits:\n  core: [5000, 3600]\n\xff\xfe\x00\n")
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--config", str(path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        f"error: --config {path}: not UTF-8 text (byte 29); save it as UTF-8 YAML or JSON\n"
    )


# -- control bodies --------------------------------------------------------------------
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
