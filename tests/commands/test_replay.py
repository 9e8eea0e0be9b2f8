"""``ghbench replay`` on the command line: artifacts, JSON, bad flags."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from ghbench.simulation.cell import run_cell
from specs import model_spec


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = model_spec("S2", sessions=4, duration_s=300.0, seed=2, profile="ao-main-60e8c881")
    rows = run_cell(spec).rows
    path = tmp_path_factory.mktemp("rec") / "recorded.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in rows))
    return path


def _ghbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ghbench", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_replay_json_and_artifacts(recorded: Path, tmp_path: Path) -> None:
    done = _ghbench(
        "replay", "--trace", str(recorded), "--sessions", "8", "--out", str(tmp_path), "--json",
        "--ttl", "gh.api.guard-pr-list=45s", "--drop", "gh.api.graphql",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["schemaVersion"] == 1
    assert doc["recordedSessions"] == 4 and doc["sessions"] == 8 and doc["copies"] == 2.0
    assert Path(doc["trace"]).exists() and Path(doc["scorecard"]).exists()
    assert doc["policy"]["cached"]["gh.api.guard-pr-list"] > 0
    card = json.loads(Path(doc["scorecard"]).read_text())
    assert card["sessionCount"] == 8


def test_replay_console_names_what_it_left_out(recorded: Path, tmp_path: Path) -> None:
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        recorded.read_text() + '{"timestamp":"2026-04-17T09:06:00.000Z","operation":"gh.pr.view"}\n'
    )
    done = _ghbench("replay", "--trace", str(odd), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "not re-issued: 1 rows" in done.stdout
    assert "no request recorded (no argv, no endpoint): gh.pr.view 1" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ttl", "gh.pr.view"], "error: --ttl: 'gh.pr.view' is not OPERATION=DURATION"),
        (["--interval", "gh.pr.view=soon"], "error: --interval:"),
        (["--speed", "0"], "Invalid value for '--speed'"),
        (
            ["--drop", "no.such.op"],
            "error: --drop no.such.op: the recording has no such operation; it has gh.api.",
        ),
        (["--ttl", "gh.pr.vew=30s"], "error: --ttl gh.pr.vew: the recording has no such"),
        (["--policies", "cach"], "error: --policies cach: no policy 'cach'"),
        (["--policies", "probe"], "error: --policies probe: not run by a replay"),
        (
            ["--policies", "cache", "--ttl", "gh.api.guard-pr-list=45s"],
            "error: --ttl: the cache policy is on (--policies cache); use one of them",
        ),
    ],
)
def test_bad_flags_are_one_line_errors(recorded: Path, args: list[str], message: str) -> None:
    done = _ghbench("replay", "--trace", str(recorded), *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_missing_trace_is_an_error(tmp_path: Path) -> None:
    done = _ghbench("replay", "--trace", str(tmp_path / "none.jsonl"))
    assert done.returncode != 0
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr


def _replays_of(trace: Path) -> list[int]:
    """Live processes replaying ``trace`` (a forked part has its parent's command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if state != "Z" and str(trace).encode() in argv:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_a_stopped_replay_stops_its_parts(recorded: Path, tmp_path: Path) -> None:
    """SIGTERM mid-replay: ghbench ends as a stopped command does and leaves no part."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "replay", "--trace", str(recorded),
         "--sessions", "400", "--out", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(_replays_of(recorded)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)  # the parent and its forked part
    assert len(_replays_of(recorded)) >= 2, "the replay forked its second part"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and "Traceback" not in err, err
    assert _replays_of(recorded) == []
