"""ghbench.github.backend: the GitHub a run talks to, by name; real GitHub's settings as
gh resolves them (its host, token and REST root), handed to the orchestrator, and
errors explained by the backend that raised them. Nothing here reaches a network: the
end-to-end runs against a GitHub-compatible server are tests/harness/test_github_backend.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import GhbenchError, UsageError
from ghbench.github.backend import (
    EMULATOR_CONFIG_ENV,
    RealGitHubBackend,
    explained,
    make_backend,
)
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.front_route import FrontRoute

TOKEN = "ghp_" + "a" * 36


def _github(tmp_path: Path, **env: str) -> RealGitHubBackend:
    backend = make_backend("github", env=env, clock=VirtualClock(), state_dir=tmp_path)
    assert isinstance(backend, RealGitHubBackend)
    return backend


def test_the_orchestrator_spends_the_token_the_harness_reads(tmp_path: Path) -> None:
    backend = _github(tmp_path, GH_TOKEN=TOKEN, HOME=str(tmp_path))
    assert backend.orchestrator_env() == {"GH_HOST": "github.com", "GH_TOKEN": TOKEN}
    assert backend.agent_env() == backend.orchestrator_env() and backend.agent_token == TOKEN
    assert backend.describe() == "GitHub at https://api.github.com (gh host github.com)"
    assert backend.front_route() == FrontRoute("forward", None)
    assert backend.gh_socket is None


def test_an_enterprise_host_gets_its_own_token_variable_too(tmp_path: Path) -> None:
    backend = _github(
        tmp_path, GH_HOST="ghe.example", GH_ENTERPRISE_TOKEN=TOKEN, HOME=str(tmp_path)
    )
    assert backend.orchestrator_env() == {
        "GH_HOST": "ghe.example",
        "GH_TOKEN": TOKEN,
        "GH_ENTERPRISE_TOKEN": TOKEN,
    }
    with pytest.raises(UsageError, match="/api/v3"):  # AO 0.10's daemon cannot reach it
        backend.front_route()


def test_faults_need_the_emulator(tmp_path: Path) -> None:
    with pytest.raises(GhbenchError, match="injected faults need the emulator backend"):
        _github(tmp_path, GH_TOKEN=TOKEN).set_faults({"latency_ms": 5})


def test_the_emulator_backend_takes_its_config_from_the_environment(tmp_path: Path) -> None:
    config = tmp_path / "emulator.yaml"
    backend = make_backend(
        "emulator",
        env={EMULATOR_CONFIG_ENV: str(config)},
        clock=VirtualClock(),
        state_dir=tmp_path / "state",
    )
    assert isinstance(backend, EmulatorBackend)
    assert (backend.config, backend.state_dir) == (config, tmp_path / "state")
    plain = make_backend("emulator", env={}, clock=VirtualClock(), state_dir=tmp_path)
    assert isinstance(plain, EmulatorBackend) and plain.config is None


def test_an_error_the_backend_cannot_explain_goes_out_as_it_is(tmp_path: Path) -> None:
    error = GhbenchError("HTTP 502 from GitHub")
    with pytest.raises(GhbenchError) as raised, explained(_github(tmp_path, GH_TOKEN=TOKEN)):
        raise error
    assert raised.value is error and raised.value.__cause__ is None
