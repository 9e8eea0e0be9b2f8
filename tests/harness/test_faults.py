"""Faults injected for real into a run of the workload model on the emulator, as users
run it (real processes over loopback): a small filesystem that fills (a tmpfs the test
mounts) under the trace, and under the emulator's state; a setup whose state is gone;
the user's token in the environment. Each run ends by saying what was lost and by how
much, with a non-zero exit where data was lost, and nothing it says is false.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    WORKLOAD_FLAGS,
    Family,
    Output,
    children,
    clean_env,
    cmdline,
    environ_of,
    ghbench,
    make_project,
    popen_ghbench,
    small_filesystem,
    wait_until,
)

pytestmark = pytest.mark.slow

SESSIONS = ["--project", "todo-app", "--sessions", "2"]
SETUP = ["setup", *SESSIONS, "--issues", "1-2", "--poll-interval", "1s", *WORKLOAD_FLAGS]
MEASURE = ["measure", *SESSIONS, "--tick", "0.5s", "--warmup", "0s", *WORKLOAD_FLAGS]
USER_TOKEN = "ghp_" + "u5er" * 9  # the user's own token: nothing the emulator run starts needs it


def _setup(root: Path) -> Path:
    make_project(root)
    proc = ghbench(*SETUP, "--out", "out", cwd=root, env=clean_env(root))
    assert proc.returncode == 0, proc.stderr
    return root


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _setup(tmp_path_factory.mktemp("faults"))


def _lines(trace: Path) -> tuple[int, int]:
    """(whole rows, other lines) of a trace: what a row is, without ghbench's reader."""
    whole = other = 0
    for line in trace.read_bytes().splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            other += 1
            continue
        whole += isinstance(row, dict)
    return whole, other


def _rows_in(trace: Path) -> int:
    """Whole rows in the trace so far (0 before it exists)."""
    return _lines(trace)[0] if trace.exists() else 0


def _model_log(root: Path) -> str:
    return (root / "out" / "state" / "workload" / "todo-app" / "logs" / "workload.log").read_text()


def _model_calls(log: str) -> int:
    """The calls the model made in its last run, as its own log says on exit."""
    return int(re.findall(r"workload: \d+ ticks, (\d+) calls", log)[-1])


def _trace_of(output: Output) -> Path:
    """The trace a measure writes, as its console names it before the window."""
    return Path(output.wait_for_line("trace: ")[-1].split("trace: ", 1)[1].strip())


def _has_rows(trace: Path) -> bool:
    return _rows_in(trace) > 0


class _ModelWrites:
    """The write calls the model's process has made (``syscw`` in /proc/PID/io, counted
    whether or not they succeed): the model writes its trace rows, and nothing else
    until it exits, so more of them after the disk filled are rows it tried to write on
    a full disk (the emulator, whose state is on that disk too, cannot count them)."""

    def __init__(self, measure_pid: int) -> None:
        wait_until(lambda: bool(self._model(measure_pid)), "the model's process")
        (self.pid,) = self._model(measure_pid)

    @staticmethod
    def _model(measure_pid: int) -> list[int]:
        return [p for p in children(measure_pid) if "workload run" in cmdline(p)]

    def count(self) -> int:
        io = Path(f"/proc/{self.pid}/io").read_text()
        return int(re.findall(r"^syscw: (\d+)$", io, re.M)[0])

    def lost_three(self, trace: Path) -> Callable[[], bool]:
        """A condition: three writes since the trace last grew. A full tmpfs still takes
        writes into the slack of the trace's last page, so a write after the fill is not
        yet a lost row; one the file did not grow by is."""
        grown = {"size": -1, "writes": 0}

        def check() -> bool:
            size, writes = trace.stat().st_size, self.count()
            if size != grown["size"]:
                grown.update(size=size, writes=writes)
            return writes - grown["writes"] >= 3

        return check


def _card(root: Path) -> dict[str, Any]:
    (path,) = (root / "out").glob("scorecard-*.json")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _counted(card: dict[str, Any]) -> int:
    """Every row the scorecard read: the window's and those it left out."""
    excluded = card["insights"]["rowsExcluded"]
    return int(card["scorecard"]["totalCalls"]) + sum(int(n) for n in excluded.values())


def test_rows_lost_on_a_disk_that_fills_and_frees_are_counted_and_fail_the_run(
    tmp_path: Path,
) -> None:
    """The issue's run: OUT on a small filesystem that fills 1.5 s into the window and
    frees 2 s later. Every call the model made is a whole row or a counted lost row."""
    with small_filesystem(tmp_path / "small") as fs:
        root = _setup(fs.where)
        measure = [*MEASURE, "--duration", "5s", "--out", "out"]
        proc = popen_ghbench(*measure, cwd=root, env=clean_env(root))
        output = Output(proc)
        trace = _trace_of(output)
        model = _ModelWrites(proc.pid)
        wait_until(lambda: _has_rows(trace), "the model's first rows in the window")
        fs.fill()
        output.wait_for_line("is full: rows written now are lost")  # the run has seen it
        wait_until(model.lost_three(trace), "3 rows written that the full disk did not take")
        fs.free()
        out, err = output.communicate(timeout=120)
        card = _card(root)
        whole, broken = _lines(trace)
        log = _model_log(root)
    calls = _model_calls(log)
    assert proc.returncode == 1, err
    lost = calls - whole
    assert lost > 0, "the model made no call while the disk was full"
    # the model says so itself, and exits 1, when run on its own
    assert f"error: {lost} of {calls} trace rows could not be written to {trace}" in log
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: {lost:,} trace row(s) could not be written;"), last
    assert card["incomplete"] is True
    assert card["incompleteReason"].startswith(f"{lost:,} trace row(s) could not be written")
    (warning,) = [w for w in card["warnings"] if w["kind"] == "rows-lost"]
    assert warning["count"] == lost and str(trace) in warning["message"]
    assert "free space" in warning["action"]
    # a row cut short is never counted: the scorecard read exactly the whole rows
    assert _counted(card) == whole
    assert card["skippedLines"] == broken
    assert "disk-full" in {w["kind"] for w in card["warnings"]}
    assert "! rows-lost:" in out and "! incomplete run:" in out


def test_a_full_disk_under_the_state_still_ends_with_the_scorecard_and_how_to_recompute_it(
    tmp_path: Path,
) -> None:
    """``demo`` with OUT (and so the emulator's state) on a small filesystem that fills
    inside the window and stays full: the after-snapshot fails (the emulator cannot
    write its state), the scorecard cannot be written; the console has it, the error
    names the trace and the ``report`` that recomputes it, which then does."""
    with small_filesystem(tmp_path / "small") as fs:
        (fs.where / "home").mkdir()
        env = clean_env(fs.where)
        demo = ["demo", "--sessions", "1", "--warmup", "0s", "--duration", "4s", "--tick", "0.5s"]
        proc = popen_ghbench(*demo, "--transport", "http", "--out", "out", cwd=fs.where, env=env)
        output = Output(proc)
        trace = _trace_of(output)
        # a second or so of the window (rows come about five a second) for `report` to
        # recompute from, before the disk fills
        wait_until(lambda: _rows_in(trace) >= 6, "six rows in the demo's trace")
        fs.fill()
        output.wait_for_line("is full: rows written now are lost")  # inside the window
        out, err = output.communicate(timeout=180)
        assert not list((fs.where / "out").glob("scorecard-*.json"))
        fs.free()
        last = err.strip().splitlines()[-1]
        command = re.search(r"`(ghbench report [^`]+)`", last)
        assert command is not None, last
        argv = shlex.split(command.group(1))[1:]
        again = ghbench(*argv, cwd=fs.where, env=env)
        (trace,) = (fs.where / "out").glob("gh-trace-bench-*.jsonl")
        whole, _ = _lines(trace)
        (card_path,) = (fs.where / "out").glob("scorecard-*.json")
        card = json.loads(card_path.read_text())
    assert proc.returncode == 1, err
    assert "GH Rate-Limit Benchmark" in out
    console = " ".join(out.split())  # its warnings are wrapped
    # what the full disk broke first: the emulator's state at the after-snapshot, or
    # rows the trace could not take (which one depends on when each next wrote)
    assert re.search(
        r"incomplete run: (the after-snapshot failed \(the emulator could not write its"
        r"|[\d,]+ trace row\(s\) could not be written \(No space left on device)",
        console,
    ), out + err
    assert "check the network" not in console + err  # the API answered: the disk is the fault
    assert last.startswith("error: the scorecard was not written (cannot write ")
    assert f"the trace is kept at {trace}" in last
    assert again.returncode == 0, again.stderr
    # the recomputed scorecard is the console's: same window, same calls
    shown = re.search(r"Total GH calls:\s+([\d,]+)", out)
    assert shown is not None
    assert card["scorecard"]["totalCalls"] == int(shown.group(1).replace(",", ""))
    assert _counted(card) == whole  # a row the full disk cut short is not one


def test_no_process_of_an_emulator_run_holds_the_users_token(root: Path) -> None:
    """With --github emulator the user's GH_TOKEN reaches none of what ghbench starts:
    the emulator, the reaper and the model (which gets the emulator's own token)."""
    env = clean_env(root, GH_TOKEN=USER_TOKEN, GITHUB_TOKEN=USER_TOKEN)
    proc = popen_ghbench(*MEASURE, "--duration", "3s", "--out", "out", cwd=root, env=env)
    output = Output(proc)
    output.wait_for_line("window:")
    holding: dict[str, bool] = {}
    wanted = ("emulator serve", "ghbench.reaper", "workload run")

    def look() -> bool:
        # a process seen between fork and exec (or already gone) has no name yet: look
        # again until each of the run's processes has been seen
        for pid, name in Family(proc.pid).names.items():
            try:
                seen = environ_of(pid)
            except OSError:
                continue  # it has already exited
            if name:
                holding[name] = USER_TOKEN in seen.values()
        return all(any(w in n for n in holding) for w in wanted)

    wait_until(look, "the emulator, the reaper and the model in the run's family", timeout=30)
    _, err = output.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert any("emulator serve" in n for n in holding), holding
    assert any("ghbench.reaper" in n for n in holding), holding
    assert any("workload run" in n for n in holding), holding
    assert not any(holding.values()), holding


def test_measure_on_a_setup_whose_state_is_gone_names_it(root: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(root, moved, ignore=shutil.ignore_patterns("state"))
    state = moved / "out" / "state" / "emulator"
    proc = ghbench(*MEASURE, "--duration", "2s", "--out", "out", cwd=moved, env=clean_env(moved))
    assert proc.returncode == 1, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line == (
        f"error: {state}: the emulator's state is gone (the setup"
        f" {moved / 'out' / 'setup-todo-app-quiet-steady.single-repo.2.json'} was made in it,"
        " with its repos and PRs): run 'ghbench setup' again with the same --out, or restore"
        " that directory"
    )
    assert not state.exists()  # refused before the emulator started (it would make one)
