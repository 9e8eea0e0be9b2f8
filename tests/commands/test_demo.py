"""``ghbench demo``, the README's first command, as a user runs it (a 10-second window).

A real process with a clean environment and no config or token: it writes its own
agent-orchestrator.yaml, starts the emulator, runs setup and measure of the workload
model (through the real gh when installed, HTTP otherwise) and prints the scorecard.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.harness.helpers import clean_env, ghbench

TOKEN = re.compile(rb"gh[pousr]_[A-Za-z0-9]{20,}")


@dataclass(frozen=True)
class Demo:
    root: Path  # the demo's working directory (its HOME under it)
    out: Path
    proc: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """One demo, as a user runs it with a 10 s window polled every 2 s (enough for the
    guards' 304s the replay must reissue); the tests only read what it wrote."""
    root = tmp_path_factory.mktemp("demo")
    (root / "home").mkdir()
    out = root / "out"
    proc = ghbench(
        "demo", "--warmup", "1s", "--duration", "10s", "--tick", "2s", "--out", str(out),
        cwd=root, env=clean_env(root),
    )  # fmt: skip
    return Demo(root, out, proc)


@pytest.mark.slow
def test_demo_runs_setup_and_measure_and_says_where_everything_went(demo: Demo) -> None:
    out, proc = demo.out, demo.proc
    assert proc.returncode == 0, proc.stderr
    assert "demo: 5 sessions of the workload model" in proc.stderr
    assert "GH Rate-Limit Benchmark" in proc.stdout
    setup_line = re.search(r"setup artifact:\s+(\S+)", proc.stdout)
    config_line = re.search(r"demo config:\s+(\S+)", proc.stdout)
    assert setup_line and config_line
    setup = json.loads(Path(setup_line.group(1)).read_text())
    assert setup["ready"] is True and len(setup["sessions"]) == 5
    assert Path(config_line.group(1)) == out / "agent-orchestrator.yaml"
    (card_path,) = out.glob("scorecard-*.json")
    card = json.loads(card_path.read_text())
    assert card["incomplete"] is False
    assert card["sessionCount"] == 5
    assert card["scorecard"]["benchmarkControlCalls"] == 2
    assert card["rateLimitSnapshots"]["before"] and card["rateLimitSnapshots"]["after"]
    assert str(card_path) in proc.stdout
    # how many rows a run gets depends on the machine's load; that it has its own fresh
    # trace does not
    assert Path(card["trace"]).parent == out and Path(card["trace"]).is_file()
    written = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in written if TOKEN.search(p.read_bytes())]


@pytest.mark.slow
def test_the_demos_trace_replays_what_it_spent(demo: Demo, tmp_path: Path) -> None:
    """``replay`` at 1x of the demo's own trace spends what the recording spent on every
    budget (within 10%), its 304s included: the rows carry their sessions, the ETag each
    guard sent back and each GraphQL query's body."""
    assert demo.proc.returncode == 0, demo.proc.stderr
    (tmp_path / "home").mkdir()
    (trace,) = demo.out.glob("gh-trace-bench-*.jsonl")
    recorded = [json.loads(line) for line in trace.read_text().splitlines()]
    assert {r.get("sessionId") for r in recorded} >= {f"todo-{n}" for n in range(1, 6)}
    assert any(r["httpStatus"] == 304 and r.get("ifNoneMatch") for r in recorded)
    assert all(r.get("requestBody") for r in recorded if r.get("endpoint") == "graphql")
    replay = ghbench(
        "replay", "--trace", str(trace), "--speed", "1", "--json", "--out", str(tmp_path / "r"),
        cwd=tmp_path, env=clean_env(tmp_path),
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    summary = json.loads(replay.stdout)
    assert summary["notReissuedRows"] == 0
    for budget, spent in summary["recordedPoints"].items():
        assert abs(summary["replayedPoints"].get(budget, 0) - spent) <= 0.1 * spent, summary
    replayed = [json.loads(line) for line in Path(summary["trace"]).read_text().splitlines()]
    not_modified = sum(1 for r in recorded if r["httpStatus"] == 304)
    assert abs(sum(1 for r in replayed if r.get("httpStatus") == 304) - not_modified) <= (
        0.1 * not_modified
    )
