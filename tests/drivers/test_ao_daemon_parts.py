"""AO 0.10's driver, part by part: how it is told apart, the project it finds, the
environments its daemon and agents get, where its front sends calls, its window notes.
The daemon itself runs in tests/realao/test_ao_daemon.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.drivers.ao_daemon import AoDaemonDriver, front_notes
from ghbench.drivers.ao_daemon_world import DaemonTokens, DaemonWorld
from ghbench.drivers.base import TracingReport
from ghbench.drivers.checkout_project import checkout_project, github_repo_of
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver, driver_kind, find_project
from ghbench.errors import ConfigError, UsageError
from ghbench.front import FrontCounts
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.front_route import FrontRoute, forward_route
from ghbench.runspec.spec import RunSpec
from ghbench.trace.writer import TraceLoss

TOKEN = "ghp_daemon000000000000000000000000000001"
AGENT_TOKEN = "ghp_agents000000000000000000000000000002"


def _git(path: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


def _checkout(root: Path, origin: str | None) -> Path:
    path = root / "todo-app"
    path.mkdir(parents=True)
    _git(path, "init", "-q", "-b", "trunk")
    _git(
        path,
        "-c",
        "user.name=A",
        "-c",
        "user.email=a@x",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        ".",
    )
    if origin is not None:
        _git(path, "remote", "add", "origin", origin)
    return path


def _daemon_build(root: Path) -> Path:
    """An executable that answers as AO 0.10 does when asked for ``ao daemon --help``."""
    path = root / "ao"
    path.write_text(
        '#!/bin/sh\n[ "$1" = daemon ] && echo "Run the AO backend daemon" && exit 0\nexit 1\n'
    )
    path.chmod(0o755)
    return path


@pytest.mark.needs("git")
def test_the_daemon_is_told_apart_by_what_it_runs_and_watches_every_project(
    tmp_path: Path,
) -> None:
    ao = _daemon_build(tmp_path)
    spec = RunSpec(driver="ao", ao_command=str(ao), out_dir=tmp_path / "out")
    env = {"PATH": "/usr/bin:/bin"}
    assert driver_kind(spec, env).name == "ao-daemon"
    assert driver_kind(RunSpec(driver="ao", ao_command="/bin/true"), env).name == "ao"
    backend = EmulatorBackend.attach(
        "http://127.0.0.1:9", TOKEN, VirtualClock(), tmp_path, control_key="unused"
    )
    projects = [
        Project(f"t2-4-r{i}", tmp_path / f"r{i}", f"o/t2-4-r{i}", "main", f"t2-4-r{i}", None)
        for i in (1, 2)
    ]
    driver = build_driver(spec, projects, backend=backend, out_dir=spec.out_dir, env=env)
    assert isinstance(driver, AoDaemonDriver)
    assert not driver.per_project_processes and driver.project_id == "t2-4-spread"
    assert driver.world.root == tmp_path / "out" / "state" / "ao-daemon" / "t2-4-r1"


@pytest.mark.needs("git")
def test_the_project_is_the_checkout_ghbench_runs_in(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path, "git@github.com:acme/todo-app.git")
    (checkout / "src").mkdir()
    spec = RunSpec(driver="ao", ao_command=str(_daemon_build(tmp_path)), project="todo-app")
    project = find_project(spec, {"PATH": "/usr/bin:/bin"}, checkout / "src", tmp_path)
    assert (project.id, project.path, project.repo) == ("todo-app", checkout, "acme/todo-app")
    assert (project.default_branch, project.session_prefix) == ("trunk", "todo-app")
    with pytest.raises(UsageError, match=r"--config .*no agent-orchestrator\.yaml"):
        find_project(
            RunSpec(driver="ao", ao_command=spec.ao_command, project="x", ao_config=tmp_path),
            {"PATH": "/usr/bin:/bin"},
            checkout,
            tmp_path,
        )


@pytest.mark.needs("git")
def test_a_checkout_that_is_not_on_github_is_refused_without_its_credential(
    tmp_path: Path,
) -> None:
    elsewhere = _checkout(tmp_path / "a", "https://bob:s3cr3tpass@gitlab.com/acme/todo.git")
    with pytest.raises(ConfigError) as refused:
        checkout_project("todo-app", elsewhere)
    assert "not a github.com repository" in str(refused.value)
    assert "s3cr3tpass" not in str(refused.value)
    with pytest.raises(ConfigError, match="no 'origin' remote"):
        checkout_project("todo-app", _checkout(tmp_path / "b", None))
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(ConfigError, match="not in a git checkout"):
        checkout_project("todo-app", plain)
    with pytest.raises(ConfigError, match="may only use"):
        checkout_project("todo app", tmp_path)


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/acme/todo.git", "acme/todo"),
        ("https://x-access-token:t@github.com/acme/todo", "acme/todo"),
        ("git@github.com:acme/todo.git", "acme/todo"),
        ("ssh://git@github.com/acme/todo.js.git", "acme/todo.js"),
        ("https://gitlab.com/acme/todo.git", None),
        ("https://github.com/acme", None),
    ],
)
def test_github_remotes(url: str, repo: str | None) -> None:
    assert github_repo_of(url) == repo


def test_the_front_forwards_to_github_or_a_server_at_its_root() -> None:
    assert forward_route("https://api.github.com/") == FrontRoute("forward", None)
    assert forward_route("http://127.0.0.1:4321") == FrontRoute("forward", "http://127.0.0.1:4321")
    with pytest.raises(UsageError, match=r"GITHUB_API_URL=https://ghe\.example/api/v3"):
        forward_route("https://ghe.example/api/v3")


def test_the_daemon_and_its_agents_get_their_own_token_and_nothing_of_an_ao_session(
    tmp_path: Path,
) -> None:
    world = DaemonWorld(tmp_path / "w", (), rewrite_remotes=True)
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "GH_TOKEN": "ghp_users0000000000000000000000000000003",
        "AO_SESSION_ID": "users-session-1",  # ghbench run from inside an AO session
        "HTTPS_PROXY": "http://corp:3128",
        "SSL_CERT_FILE": "/etc/corp.pem",
    }
    route = {"HTTPS_PROXY": "http://127.0.0.1:7000", "SSL_CERT_FILE": "/w/front/bundle.pem"}
    tokens = DaemonTokens(daemon=TOKEN, agents=AGENT_TOKEN)
    daemon = world.daemon_env(base, route, tokens, 4242)
    assert daemon["AO_GITHUB_TOKEN"] == TOKEN and "GH_TOKEN" not in daemon
    assert "AO_SESSION_ID" not in daemon and daemon["AO_TELEMETRY_REMOTE"] == "off"
    assert daemon["HTTPS_PROXY"] == route["HTTPS_PROXY"]
    assert daemon["SSL_CERT_FILE"] == route["SSL_CERT_FILE"]
    assert (daemon["HOME"], daemon["AO_PORT"]) == (str(world.home), "4242")
    agents = world.agents_env(base, route, tokens)
    assert agents["GH_TOKEN"] == AGENT_TOKEN and "AO_GITHUB_TOKEN" not in agents
    git_config = [agents[k] for k in agents if k.startswith("GIT_CONFIG_VALUE_")]
    assert "git@github.com:" in git_config  # ssh remotes go through the front (emulate)
    assert not any(AGENT_TOKEN in v for v in git_config)  # the helper reads $GH_TOKEN
    assert "AO_SESSION_ID" not in agents


def test_a_window_notes_only_what_went_wrong_at_the_front() -> None:
    assert front_notes(FrontCounts(exchanges=12, rows_written=12)) == TracingReport()
    lost = TraceLoss(trace="/out/gh-trace-bench-1.jsonl", rows=3, reason="No space left on device")
    report = front_notes(
        FrontCounts(
            exchanges=9,
            failed_handshakes=2,
            rows_lost=3,
            losses=[lost],
            warnings=["go did not trust the CA"],
        )
    )
    assert report.notes == ("go did not trust the CA",)
    assert report.losses == (lost,)  # typed: the window counts them
    assert front_notes(FrontCounts()).notes[0].startswith("no client reached the GitHub front")
