"""ghbench.github.emulator_backend: the embedded emulator as a run's GitHub, attached to
the session's emulator over a real socket: what the orchestrator and its agents get,
seeding through the control API, a state directory that is gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import ArtifactError, EmulatorError
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.front_route import FrontRoute

TOKEN = "ghp_test0000000000000000000000000000000001"  # the conftest emulator's


@pytest.fixture
def backend(emulator_server: Any, tmp_path: Path) -> EmulatorBackend:
    return EmulatorBackend.attach(
        emulator_server.url,
        TOKEN,
        VirtualClock(),
        tmp_path / "state",
        control_key=emulator_server.emulator.control_key,
    )


def _api(backend: EmulatorBackend, path: str) -> httpx.Response:
    with httpx.Client(base_url=backend.url, headers={"Authorization": f"token {TOKEN}"}) as c:
        return c.get(path)


def test_the_orchestrator_and_agents_reach_the_emulator_with_one_users_tokens(
    backend: EmulatorBackend,
) -> None:
    env = backend.orchestrator_env()
    assert (env["GH_HOST"], env["GH_TOKEN"], env["GITHUB_API_URL"]) == (
        "github.localhost",
        TOKEN,
        backend.url,
    )
    assert env["HTTPS_PROXY"] == env["http_proxy"] == backend.url and env["NO_PROXY"] == ""
    assert backend.agent_env() == env  # attached with one token: the agents' is the same
    assert backend.front_route() == FrontRoute("emulate", backend.url)
    assert backend.describe().startswith(f"embedded emulator at {backend.url}")


def test_seeding_goes_through_the_control_api(backend: EmulatorBackend) -> None:
    """(What seeding does: tests/github/test_seed.py.)"""
    with backend.benchmark_client() as client:
        backend.ensure_repo("acme/through", [1], client)
        assert client.issue_exists("acme/through", 1)


def test_an_emulator_whose_state_is_gone_cannot_measure_a_setup(tmp_path: Path) -> None:
    backend = EmulatorBackend(state_dir=tmp_path / "state", clock=VirtualClock())
    with pytest.raises(ArtifactError, match="the emulator's state is gone"):
        backend.check_state(tmp_path / "setup.json")
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "github.db").write_bytes(b"")
    backend.check_state(tmp_path / "setup.json")  # there: nothing to say
    with pytest.raises(EmulatorError, match="not running"):
        backend.url  # noqa: B018 - the property raises
