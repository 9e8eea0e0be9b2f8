"""Real GitHub's host, REST root and token, resolved as gh resolves them, and handed to
the orchestrator so its gh calls the GitHub the brackets read (limits reference §5b).

The gh tests ask the real gh 2.23 which token it would send to a host, under exactly
the environment the backend gives the orchestrator.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver
from ghbench.errors import ConfigError, GitHubError
from ghbench.github.auth import check_gh_route, resolve_token
from ghbench.github.backend import RealGitHubBackend
from ghbench.runspec.spec import RunSpec

needs_gh = pytest.mark.needs("gh")


def _backend(**env: str) -> RealGitHubBackend:
    return RealGitHubBackend(env=env, clock=VirtualClock())


@pytest.mark.parametrize(
    ("env", "host", "api"),
    [
        ({}, "github.com", "https://api.github.com"),
        ({"GH_HOST": "ghe.corp"}, "ghe.corp", "https://ghe.corp/api/v3"),
        ({"GH_HOST": "github.localhost"}, "github.localhost", "http://api.github.localhost"),
        ({"GITHUB_API_URL": "https://ghe.corp/api/v3/"}, "ghe.corp", "https://ghe.corp/api/v3"),
        ({"GITHUB_API_URL": "https://api.github.com"}, "github.com", "https://api.github.com"),
        ({"GITHUB_API_URL": "http://127.0.0.1:8080"}, "github.com", "http://127.0.0.1:8080"),
        (
            {"GH_HOST": "github.localhost", "GITHUB_API_URL": "http://127.0.0.1:8080/"},
            "github.localhost",
            "http://127.0.0.1:8080",
        ),
    ],
)
def test_gh_host_and_rest_root_follow_each_other(env: dict[str, str], host: str, api: str) -> None:
    backend = _backend(**env)
    assert (backend.gh_host, backend.api_url) == (host, api)


def test_token_order_follows_gh_for_the_host() -> None:
    both = {"PATH": "/nonexistent", "GH_TOKEN": "tok-gh", "GITHUB_TOKEN": "tok-github"}
    assert resolve_token(both).value == "tok-gh"
    assert resolve_token({**both, "GH_TOKEN": " "}).source == "GITHUB_TOKEN"
    assert resolve_token(both, "github.localhost").source == "GH_TOKEN"
    # an enterprise host: gh ignores GH_TOKEN there
    ghe = {**both, "GITHUB_ENTERPRISE_TOKEN": "tok-e2", "GH_ENTERPRISE_TOKEN": "tok-e1"}
    assert resolve_token(ghe, "ghe.corp").value == "tok-e1"
    assert resolve_token({**ghe, "GH_ENTERPRISE_TOKEN": ""}, "ghe.corp").value == "tok-e2"
    with pytest.raises(GitHubError) as info:
        resolve_token(both, "ghe.corp:8443")
    message = str(info.value)
    assert message.startswith("no GitHub token for ghe.corp:8443: set GH_ENTERPRISE_TOKEN")
    assert "gh auth login --hostname ghe.corp:8443" in message
    assert "tok-" not in message


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"GITHUB_API_URL": "http://127.0.0.1:9"}, "gh would call github.com; set GH_HOST"),
        (
            {"GH_HOST": "github.com", "GITHUB_API_URL": "https://ghe.corp/api/v3"},
            "GH_HOST=github.com but GITHUB_API_URL=https://ghe.corp/api/v3 is ghe.corp's API",
        ),
    ],
)
def test_gh_and_the_control_calls_must_reach_one_github(
    env: dict[str, str], problem: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=problem.replace("(", r"\(")):
        check_gh_route(env)
    # refused when the orchestrator uses gh, before it is built; HTTP needs no gh host
    project = Project("p", tmp_path, "o/r", "main", "p", None)
    backend = _backend(**env)
    for transport in ("gh", "http"):
        spec = RunSpec(driver="workload", transport=transport)
        build = lambda spec=spec: build_driver(  # noqa: E731
            spec, [project], backend=backend, out_dir=tmp_path, env={}
        )
        if transport == "gh":
            with pytest.raises(ConfigError):
                build()
        else:
            build()
    check_gh_route({"GH_HOST": "ghe.corp", "GITHUB_API_URL": "https://GHE.corp/api/v3"})
    check_gh_route({"GH_HOST": "github.localhost", "GITHUB_API_URL": "http://127.0.0.1:9"})


def _gh_token_for(host: str, env: dict[str, str], config_dir: Path) -> str:
    proc = subprocess.run(
        ["gh", "auth", "token", "--hostname", host],
        # HOME too: without it gh 2.102 writes its device id under ./.local/state, in the
        # directory the tests run from
        env={
            "PATH": os.environ["PATH"],
            "HOME": str(config_dir),
            "GH_CONFIG_DIR": str(config_dir),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=30,
    )
    return proc.stdout.strip()


@needs_gh
@pytest.mark.gh
@pytest.mark.parametrize("host", ["ghe.corp", "github.localhost", "github.com"])
def test_the_orchestrators_gh_sends_the_resolved_token_to_the_host(
    host: str, tmp_path: Path
) -> None:
    # the user's token for the host, whichever variable gh wants for it
    token = "ghp_" + "R" * 36
    var = "GH_TOKEN" if host != "ghe.corp" else "GH_ENTERPRISE_TOKEN"
    backend = _backend(PATH=os.environ["PATH"], GH_HOST=host, **{var: token})  # gh's build first
    backend.start()
    given = backend.orchestrator_env()
    assert given["GH_HOST"] == host
    assert _gh_token_for(host, given, tmp_path) == token
    # GH_TOKEN alone would leave an enterprise host's gh without a token
    if host == "ghe.corp":
        assert _gh_token_for(host, {"GH_TOKEN": token}, tmp_path) == ""
