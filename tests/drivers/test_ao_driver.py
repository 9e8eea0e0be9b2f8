"""The AO driver against a stand-in ``ao`` (tests/drivers/fake_ao/ao) in both layouts.

Everything is real except AO itself: git worktrees in a real repo, a private tmux
server (its own TMUX_TMPDIR), the real gh reaching the emulator process through
GH_HOST and the proxies, and the stand-in's own HOME and TMPDIR.
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ghbench.clock import SystemClock
from ghbench.drivers.ao import AoCommand, AoDriver
from ghbench.drivers.placeholders import Tmux
from ghbench.drivers.project import load_project
from ghbench.github.backend import EmulatorBackend
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import LineProgress
from ghbench.harness.setup import SetupOptions, run_setup
from ghbench.harness.window import MeasureOptions
from ghbench.matrix.ao_cell import free_loopback_port

FAKE_AO = Path(__file__).parent / "fake_ao" / "ao"

pytestmark = [
    pytest.mark.gh,
    pytest.mark.slow,
    pytest.mark.needs("tmux", "git"),
]


IDENTITY = ("-c", "user.name=t", "-c", "user.email=t@e")


def _git(path: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


@pytest.fixture
def world(
    tmp_path: Path, ao_env: dict[str, str], request: pytest.FixtureRequest
) -> Iterator[dict[str, Any]]:
    layout = request.param
    repo = tmp_path / "todo-app"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, *IDENTITY, "commit", "-q", "--allow-empty", "-m", "init")
    config = tmp_path / "agent-orchestrator.yaml"
    config.write_text(
        json.dumps(
            {
                "projects": {
                    "todo-app": {"repo": "acme/todo", "path": str(repo), "defaultBranch": "main"}
                }
            }
        )
    )
    env = {**ao_env, "FAKE_AO_LAYOUT": layout}
    home = Path(env["HOME"])
    project = load_project("todo-app", env={}, cwd=tmp_path, home=home, explicit=config)
    backend = EmulatorBackend(
        state_dir=tmp_path / "out" / "state" / "emulator",
        clock=SystemClock(),
        control_key=env["GHBENCH_EMULATOR_CONTROL_KEY"],
    )
    backend.start()
    try:
        yield {
            "layout": layout,
            "env": env,
            "project": project,
            "backend": backend,
            "out": tmp_path / "out",
            "home": home,
            "tmux": Tmux(env),
        }
    finally:
        backend.stop()


def _driver(world: dict[str, Any]) -> AoDriver:
    return AoDriver(
        project=world["project"],
        command=AoCommand(str(FAKE_AO)),
        layout=world["layout"],
        base_env=world["env"],
        log_dir=world["out"] / "state" / "ao",
    )


def _measure(world: dict[str, Any]) -> dict[str, Any]:
    result = run_measure(
        world["project"],
        sessions=2,
        driver=_driver(world),
        backend=world["backend"],
        clock=SystemClock(),
        progress=LineProgress(io.StringIO()),
        options=MeasureOptions(
            out_dir=world["out"],
            warmup=1.5,
            duration=2.5,
            warmup_text="1.5s",
            duration_text="2.5s",
            plot=False,
        ),
    )
    card: dict[str, Any] = json.loads(result.scorecard_path.read_text())
    card["_rows"] = [json.loads(x) for x in result.trace_path.read_text().splitlines()]
    return card


def _calls(home: Path) -> list[list[str]]:
    log = home / ".agent-orchestrator" / "fake-ao-calls.log"
    return [json.loads(x) for x in log.read_text().splitlines()]


def _polls(home: Path) -> list[list[str]]:
    log = home / ".agent-orchestrator" / "fake-ao-polls.log"
    return [json.loads(x)["live"] for x in log.read_text().splitlines()]


@pytest.mark.parametrize("world", ["json", "kv"], indirect=True)
def test_setup_and_measure_with_placeholders(world: dict[str, Any]) -> None:
    driver = _driver(world)
    outcome = run_setup(
        world["project"],
        [3, 5],
        sessions=2,
        driver=driver,
        backend=world["backend"],
        clock=SystemClock(),
        progress=LineProgress(io.StringIO()),
        options=SetupOptions(out_dir=world["out"], poll_interval=1.0, timeout=60.0),
    )
    record = outcome.record
    assert record.ready
    # ids are sequential, issues are what was asked: mapped through AO's own list
    assert [(s.session_id, s.issue, s.branch) for s in record.sessions] == [
        ("ta-1", 3, "feat/issue-3"),
        ("ta-2", 5, "feat/issue-5"),
    ]
    layout_tmux = {s.session_id: s.session_id for s in record.sessions}
    if world["layout"] == "kv":
        key = next(
            p.name
            for p in (world["home"] / ".agent-orchestrator").iterdir()
            if (p / "sessions").is_dir()
        )
        layout_tmux = {sid: f"{key}-{sid}" for sid in layout_tmux}
    assert not any(world["tmux"].has_session(n) for n in layout_tmux.values())  # agents stopped

    for _ in range(2):  # the second run proves the restore after a stop
        polls_before = len(_polls(world["home"]))
        card = _measure(world)
        assert card["incomplete"] is False
        assert card["scorecard"]["benchmarkControlCalls"] == 2
        ops = {r["operation"] for r in card["_rows"]}
        assert {"gh.api.guard-pr-list", "gh.pr.view"} <= ops
        live = _polls(world["home"])[polls_before:]
        assert any(sorted(x) == ["ta-1", "ta-2"] for x in live), live
        # placeholders are gone, by exact name
        assert not any(world["tmux"].has_session(n) for n in layout_tmux.values())
        if world["layout"] == "json":  # a current AO's stop removed the worktrees
            assert not any(s.worktree_path.exists() for s in record.sessions)
    assert not any(call[:1] == ["status"] for call in _calls(world["home"]))


def _listeners(port: int) -> set[str]:
    """Addresses with a TCP socket listening on ``port`` (IPv4 dotted, IPv6 as kernel hex)."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, port_hex = local.rsplit(":", 1)
            if state != "0A" or int(port_hex, 16) != port:  # 0A: LISTEN
                continue
            if len(address) == 8:  # IPv4, little-endian
                found.add(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
            else:
                found.add(address)
    return found


@pytest.mark.parametrize("world", ["json"], indirect=True)
def test_dashboard_listens_on_loopback_only(world: dict[str, Any]) -> None:
    config = world["project"].config_path
    raw = json.loads(config.read_text())
    raw["port"] = free_loopback_port()
    config.write_text(json.dumps(raw))
    driver = _driver(world)
    driver.dashboard = True
    with socket.socket() as busy:  # AO moves past a busy port and records the one it took
        busy.bind(("127.0.0.1", raw["port"]))
        busy.listen()
        driver.start(None, world["backend"].orchestrator_env())
        try:
            url = driver.dashboard_url()
            port = int(url.rsplit(":", 1)[1])
            assert url.startswith("http://127.0.0.1:") and raw["port"] < port < raw["port"] + 10
            page = httpx.get(url + "/", trust_env=False, timeout=10)
            assert page.status_code == 200 and "<h1>Sessions</h1>" in page.text
            assert _listeners(port) == {"127.0.0.1"}
        finally:
            driver.stop(5.0)
    (start,) = [c for c in _calls(world["home"]) if c[:1] == ["start"]]
    assert start == ["start", "todo-app"]  # no --no-dashboard
