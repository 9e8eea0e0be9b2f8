"""AO T1 cells end to end: ``ghbench matrix run --backend emulator --driver ao``.

Everything is real except AO itself: the matrix CLI as a subprocess, the emulator
process it starts over a real socket, the stand-in ``ao`` (tests/drivers/fake_ao/ao)
polling through the real gh, real git worktrees and a private tmux server (``ao_env``,
tests/conftest.py: its own TMUX_TMPDIR, HOME and TMPDIR). Durations are scaled by 0.01.
The matrix writes each cell's checkout and AO config itself (``ghbench.matrix.ao_cell``).

The matrix is S1-T1-1 (cold restart at t0), S3-T1-1 (spawn storm: no sessions before
t0, ``batch-spawn`` into the running AO at t0, on fresh repos named with the run's
timestamp) and S5-T1-1 (kill -9 halfway). The first invocation runs S1; S3 must then
wait for rate-limit hygiene (the emulator's window began seconds ago, at S1's first
request), and the test stops it there with SIGINT, as a user would with Ctrl-C. Before
``--resume`` the test ages the emulator's stored windows by the hygiene margin, as if
the user had waited those five minutes; the resume runs S3 and S5.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ghbench.matrix.cells import Cell
from ghbench.matrix.hygiene import MARGIN_S
from ghbench.matrix.record import load_runs
from ghbench.matrix.runner import cell_seed
from ghbench.matrix.state import load_plan
from ghbench.timefmt import parse_iso

FAKE_AO = Path(__file__).parents[1] / "drivers" / "fake_ao" / "ao"
CELLS = "S1-T1-1,S3-T1-1,S5-T1-1"
SEED = 7

pytestmark = [
    pytest.mark.gh,
    pytest.mark.slow,
    pytest.mark.needs("tmux", "git"),
]


@pytest.fixture
def world(tmp_path: Path, ao_env: dict[str, str]) -> dict[str, Any]:
    # no ao on PATH and no GHBENCH_AO: a resume finds AO only through the plan
    env = {**ao_env, "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "NO_COLOR": "1"}
    return {"env": env, "out": tmp_path / "out", "root": tmp_path}


def _argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "ghbench", "matrix", "run", *args]


class _Matrix:
    """``matrix run`` in its own process group, its stderr read line by line."""

    def __init__(self, argv: list[str], world: dict[str, Any]) -> None:
        self.proc = subprocess.Popen(
            argv,
            cwd=world["root"],
            env=world["env"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        assert self.proc.stderr is not None
        self.reader = threading.Thread(target=self._read, args=(self.proc.stderr,), daemon=True)
        self.reader.start()

    def _read(self, stream: Any) -> None:
        with stream:
            for line in stream:
                self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, needle: str, timeout: float = 90.0) -> None:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"{needle!r} not seen in {timeout:g} s: {self.seen}") from None
            if line is None:
                raise AssertionError(f"{needle!r} not seen before exit: {self.seen}")
            self.seen.append(line)
            if needle in line:
                return

    def finish(self, timeout: float = 120.0) -> tuple[int, str, str]:
        assert self.proc.stdout is not None
        out = self.proc.stdout.read()
        code = self.proc.wait(timeout=timeout)
        while (line := self.lines.get(timeout=10)) is not None:
            self.seen.append(line)
        return code, out, "".join(self.seen)

    def close(self) -> None:
        """Stop the group if a failed assertion left it running (our own pgid only)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.reader.join(timeout=10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


def _age_emulator_windows(state_dir: Path, seconds: float) -> None:
    """Move the stored rate-limit windows back, as if ``seconds`` had passed since."""
    db = sqlite3.connect(state_dir / "emulator.sqlite3")
    try:
        with db:
            changed = db.execute(
                "UPDATE buckets SET window_start = window_start - ? WHERE used > 0", (seconds,)
            ).rowcount
    finally:
        db.close()
    assert changed >= 1


def _section(md: str, cell: str) -> str:
    after = md.split(f"### {cell}:", maxsplit=1)[1]
    return after.split("\n### ", maxsplit=1)[0].split("\n## ", maxsplit=1)[0]


def _assert_measured(out: Path, cell: str, md: str) -> None:
    runs = [r for r in load_runs(out) if r.cell == cell]
    assert [r.run for r in runs] == [1], f"{cell} ran more than once"
    (run,) = runs
    assert run.status == "ok", run.reason
    assert (run.backend, run.driver) == ("emulator", "ao")
    assert run.seed == cell_seed(SEED, Cell(*cell.split("-")[:2], 1))
    info = Cell(*cell.split("-")[:2], 1).info
    assert run.warmup_s == pytest.approx(info.warmup_s * 0.01)
    assert run.duration_s == pytest.approx(info.duration_s * 0.01)
    card = run.scorecard or {}
    assert card["totalCalls"] > 0
    delta = card["bracketDelta"]
    assert delta["core"] > 0  # the stand-in's polls go through gh to the emulator
    snapshots = run.rate_limit_snapshots or {}
    assert snapshots["before"]["core"]["remaining"] > snapshots["after"]["core"]["remaining"]
    assert run.trace is not None
    rows = [json.loads(x) for x in (out / run.trace).read_text().splitlines() if x.strip()]
    assert {"gh.api.guard-pr-list", "gh.pr.view"} <= {r["operation"] for r in rows}
    section = _section(md, cell)
    assert "| Backend / driver | emulator / ao |" in section
    assert f"| Total GH calls | {card['totalCalls']:,} |" in section
    assert f"- Coarse delta: core {delta['core']:,}" in section
    assert "**ghbench summarize output:**" in section


def test_ao_t1_cells_run_and_resume_with_the_stored_flags(world: dict[str, Any]) -> None:
    out: Path = world["out"]
    first = _Matrix(
        _argv(
            "--cells", CELLS, "--scales", "1", "--backend", "emulator", "--driver", "ao",
            "--ao", str(FAKE_AO), "--duration-scale", "0.01", "--seed", str(SEED),
            "--out", str(out),
        ),
        world,
    )  # fmt: skip
    try:
        first.wait_for("S3-T1-1: waiting")  # S1 is done, S3 waits for hygiene
        os.killpg(first.proc.pid, signal.SIGINT)
        code, _, err = first.finish()
    finally:
        first.close()
    assert code == 130, err
    assert "S1-T1-1: trigger: cold start" in err
    assert [r.cell for r in load_runs(out)] == ["S1-T1-1"]
    md = (out / "baseline.md").read_text()
    _assert_measured(out, "S1-T1-1", md)
    pending = md.split("## Pending cells")[1]
    assert "- S3-T1-1:" in pending and "- S5-T1-1:" in pending
    plan = load_plan(out)
    assert (plan.backend, plan.driver, plan.duration_scale, plan.seed) == (
        "emulator",
        "ao",
        0.01,
        SEED,
    )
    assert plan.ao_command == str(FAKE_AO.resolve())

    # a flag that changes what the remaining cell measures must match the stored one
    conflict = subprocess.run(
        _argv("--resume", "--duration-scale", "0.02", "--out", str(out)),
        cwd=world["root"],
        env=world["env"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert conflict.returncode == 2
    assert conflict.stderr.splitlines() == [
        f"error: --resume: --duration-scale 0.02 conflicts with the stored 0.01 of this matrix"
        f" ({out / 'matrix-state.json'}); drop --duration-scale to resume with the stored"
        " settings, or start a new matrix in another --out"
    ]

    _age_emulator_windows(out / "state" / "emulator", MARGIN_S)
    second = _Matrix(_argv("--resume", "--operator", "resumer", "--out", str(out)), world)
    try:
        code, stdout, err = second.finish()
    finally:
        second.close()
    assert code == 0, err
    assert "resuming " in err and "1 of 3 cell(s) done" in err
    assert "[2/3] S3-T1-1" in err and "[3/3] S5-T1-1" in err and "[1/3]" not in err
    assert "S3-T1-1: trigger: spawn storm" in err
    assert "S5-T1-1: trigger: kill -9" in err
    assert "2 cell(s) ok, 0 failed or refused, 1 already done" in stdout
    md = (out / "baseline.md").read_text()
    for cell in ("S1-T1-1", "S3-T1-1", "S5-T1-1"):
        _assert_measured(out, cell, md)
    assert "#### Run 1 — resumer" in _section(md, "S5-T1-1")
    assert "None: every planned cell has a successful run." in md
    (s5,) = [r for r in load_runs(out) if r.cell == "S5-T1-1"]
    assert any("durations scaled by 0.01" in n for n in s5.notes)
    _assert_spawned_at_t0(out, Path(world["env"]["HOME"]))


def _assert_spawned_at_t0(out: Path, home: Path) -> None:
    """S3: its project had no session before t0; the window's AO got ``batch-spawn`` at
    t0, and its poller found the new session's PR (detectPR) and polled it."""
    (s3,) = [r for r in load_runs(out) if r.cell == "S3-T1-1"]
    (repo,) = s3.repos
    assert re.fullmatch(r"ghbench-matrix/s3-\d+-t1-1-r1", repo), repo
    project = repo.replace("/", "-")
    log = home / ".agent-orchestrator" / "fake-ao-calls.log"
    calls = [json.loads(x) for x in log.read_text().splitlines()]
    mine = calls[calls.index(["start", project, "--no-dashboard"]) :]
    # S3 has no setup: the window's `ao start` is the project's first, and batch-spawn
    # runs into it before anything else starts
    assert [c for c in calls if c[1:2] == [project]] == [["start", project, "--no-dashboard"]]
    spawns = [c for c in mine if c[:1] in (["start"], ["batch-spawn"])]
    assert spawns[:2] == [["start", project, "--no-dashboard"], ["batch-spawn", "1"]]
    assert "S3: 1 sessions spawned at t0 by 'ao batch-spawn' (r1-1)" in s3.notes
    assert s3.trace is not None and s3.scorecard_path is not None
    window = json.loads((out / s3.scorecard_path).read_text())["window"]
    start, end = parse_iso(window["start"]), parse_iso(window["end"])
    rows = [json.loads(x) for x in (out / s3.trace).read_text().splitlines() if x.strip()]
    in_window = [r for r in rows if start <= parse_iso(r["timestamp"]) <= end]
    detected = [
        r
        for r in in_window
        if r["operation"] == "gh.pr.list" and r["args"][2:4] == ["--head", "feat/issue-1"]
    ]
    assert detected and all(repo in r["args"] for r in detected)
    views = [r for r in in_window if r["operation"] == "gh.pr.view" and repo in r["args"]]
    viewed = {r["args"][2] for r in views}
    assert len(viewed) == 1  # the session's one PR, found by detectPR and then polled
