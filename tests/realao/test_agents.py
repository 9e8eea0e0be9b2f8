"""Who spent the budget: the agents' gh calls, split from the orchestrator's, per session.

A spawn-storm window (S3: ``ao batch-spawn`` at t0 into the running AO main) on an
emulator this test owns, so it knows the agents' token: the stand-in agents read their
issue, push and open their PRs while AO polls. The scorecard's ``insights.spendSplit``
must then equal the emulator's ledger: the agents' points, per budget, are exactly what
the ledger charged the agents' token, and every spawned session has its own share. With
``--agents``, AO launches ghbench's agent model as its ``claude`` instead.
"""

from __future__ import annotations

import json
import secrets
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import UserWorld
from ghbench.clock import SystemClock
from ghbench.emulator.process import start_emulator_process
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.seed import EmulatorControl
from ghbench.matrix.cell_setup import CellPlace
from ghbench.matrix.hygiene import run_timing
from ghbench.matrix.realtime_cell import run_realtime_cell
from ghbench.matrix.runner import cell_spec
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import AgentsName
from ghbench.runspec.spec import Duration, RunSpec

SESSIONS = 2


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """An emulator process with two tokens of one user: the orchestrator's and the agents'."""
    orchestrator, agents = (f"ghp_{secrets.token_hex(18)}" for _ in range(2))
    key = secrets.token_hex(16)
    sock_dir = Path(tempfile.mkdtemp(prefix="gbag", dir="/tmp"))
    state = tmp_path / "emulator"
    handle = start_emulator_process(
        state, tokens=[orchestrator, agents], uds=sock_dir / "gh.sock", control_key=key
    )
    control = EmulatorControl(handle.url, key)
    with control.client() as client:
        resp = client.post("_ghbench/users", json={"login": "octo", "tokens": [agents]})
        resp.raise_for_status()
        (agents_id,) = resp.json()["tokens"]
    backend = EmulatorBackend.attach(
        handle.url,
        orchestrator,
        SystemClock(),
        state,
        control_key=key,
        gh_socket=sock_dir / "gh.sock",
        agent_token=agents,
    )
    try:
        yield {"backend": backend, "control": control, "agents_id": agents_id}
    finally:
        handle.stop()
        shutil.rmtree(sock_dir, ignore_errors=True)


def _ledger(control: EmulatorControl, token_id: str) -> dict[str, int]:
    with control.client() as client:
        resp = client.get("_ghbench/ledger", params={"token": token_id})
        resp.raise_for_status()
    spent: dict[str, int] = defaultdict(int)
    for entry in resp.json()["entries"]:
        spent[entry["resource"]] += entry["cost"]
    return dict(spent)


def _s3_card(
    user_world: UserWorld,
    ao_main: Path,
    emulator: dict[str, Any],
    tmp_path: Path,
    agents: AgentsName = "none",
) -> tuple[dict[str, Any], list[str]]:
    spec = RunSpec(
        driver="ao",
        backend="emulator",
        ao_command=str(ao_main),
        duration_scale=0.05,
        poll_interval=Duration(2.0, "2s"),
        setup_timeout=Duration(240.0, "4m"),
        agents=agents,
    )
    cell = Cell("S3", "T1", 1)
    notes: list[str] = []
    place = CellPlace(
        emulator["backend"], SystemClock(), user_world.env, tmp_path / "realtime", notes.append
    )
    artifacts = run_realtime_cell(
        cell_spec(spec, cell, run_timing(spec, cell), tmp_path / "cell"), place
    )
    return json.loads(artifacts.scorecard_path.read_text()), notes


def test_agents_spend_per_session_equals_the_emulators_ledger(
    user_world: UserWorld, ao_main: Path, emulator: dict[str, Any], tmp_path: Path
) -> None:
    card, notes = _s3_card(user_world, ao_main, emulator, tmp_path)
    split = card["insights"]["spendSplit"]
    assert split is not None, notes
    agent_rows = [
        json.loads(x) for x in Path(split["agentTrace"]).read_text().splitlines() if x.strip()
    ]
    window = (card["window"]["start"], card["window"]["end"])
    assert all(window[0] <= r["timestamp"] <= window[1] for r in agent_rows)  # ISO, one zone
    ledger = _ledger(emulator["control"], emulator["agents_id"])
    agents = split["agents"]
    assert agents["calls"] == len(agent_rows) > 0
    assert agents["graphqlPoints"] == ledger.get("graphql", 0) > 0
    assert agents["corePoints"] == ledger.get("core", 0)
    sessions = {s["key"]: s for s in split["agentSessions"]}
    assert len(sessions) == 1 and all(s["calls"] > 0 for s in sessions.values())
    assert sum(s["graphqlPoints"] for s in sessions.values()) == agents["graphqlPoints"]
    # the orchestrator's share is AO's own trace, none of it the agents'
    assert split["orchestrator"]["calls"] == card["scorecard"]["totalCalls"]


def test_ao_runs_the_agent_model_as_its_claude(
    user_world: UserWorld, ao_main: Path, emulator: dict[str, Any], tmp_path: Path
) -> None:
    """``--agents claude-code``: the session's agent is the model (its gh commands, not
    the stand-in's), traced by the shim as a real agent's and split as one."""
    card, notes = _s3_card(user_world, ao_main, emulator, tmp_path, agents="claude-code")
    split = card["insights"]["spendSplit"]
    assert split is not None, notes
    assert split["agentModel"] == "claude-code-gh-2.102"  # what the old name now names
    agent_rows = [
        json.loads(x) for x in Path(split["agentTrace"]).read_text().splitlines() if x.strip()
    ]
    commands = {" ".join((r.get("args") or [])[:2]) for r in agent_rows}
    assert {"issue view", "pr create"} <= commands, commands  # the model's session
    assert "pr checks" in commands or "pr view" in commands, commands  # waiting for CI
    ledger = _ledger(emulator["control"], emulator["agents_id"])
    assert split["agents"]["graphqlPoints"] == ledger.get("graphql", 0) > 0
    assert split["secondaryLimits"]["concurrency"]["peak"] >= 1
