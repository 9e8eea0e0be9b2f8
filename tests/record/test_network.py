"""ghbench.record.network: ``ghbench record --github emulator|github -- COMMAND`` as a
user runs it: a command
that calls GitHub with gh (default host), git and curl, behind the front; bad input;
a run no client reached; what it started stops on SIGTERM and on SIGKILL."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ghbench.errors import GhbenchError
from ghbench.front import FrontCounts
from ghbench.record.network import NetworkRecordResult, emulator_token_env
from tools import GH_BUILDS, gh_child_env, require_gh

DEADLINE_S = 60


def rows(trace: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []


TOKEN = "ghp_test0000000000000000000000000000000001"  # the conftest emulator's
# what a user's script does: gh with its default host, git over https, curl; the token
# it was given is saved so the test can look for it in the trace
_SCRIPT = """
set -e
printf %s "$GH_TOKEN" > token
gh api repos/acme/todo --jq .full_name
git clone -q https://github.com/acme/todo work
curl -sS -o /dev/null -H "Authorization: token $GH_TOKEN" https://api.github.com/rate_limit
"""


def _record(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "record", *args]
    return subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=DEADLINE_S
    )


@pytest.mark.gh
@pytest.mark.needs("git", "curl")
@pytest.mark.slow
def test_record_against_the_emulator(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    args = ("--github", "emulator", "--repo", "acme/todo", "--trace", str(trace))
    proc = _record(*args, "--", "sh", "-c", _SCRIPT, env=gh_child_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "acme/todo\n"
    got = rows(trace)
    assert [r["component"] for r in got] == ["gh", "git", "git", "git", "curl"]
    assert [r["httpStatus"] for r in got] == [200] * 5
    assert proc.stderr.splitlines()[-1] == (
        "ghbench record: 5 rows appended to trace.jsonl (5 exchanges, 0 refused, 0 tunnelled,"
        " 0 failed handshakes, 0 rows lost)"
    )
    token = (tmp_path / "token").read_text()
    assert token.startswith("ghp_") and token not in trace.read_text()


# waits until no `gh send-telemetry` process is left (30 s at most)
_WAIT_SENDERS = """
import pathlib, time
def sending():
    for p in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if p.read_bytes().split(bytes(1))[1:2] == [b"send-telemetry"]:
                return True
        except OSError:
            pass
    return False
deadline = time.monotonic() + 30
while sending() and time.monotonic() < deadline:
    time.sleep(0.05)
"""


@pytest.mark.slow
def test_todays_gh_telemetry_is_a_refused_row_that_costs_no_budget(tmp_path: Path) -> None:
    """gh 2.102 sends a telemetry event (sampled; every time at rate 100) to
    cafe.github.com, which is not GitHub's API: the front in emulate mode refuses the
    CONNECT, records it, and gh's own call is unaffected."""
    gh = require_gh(GH_BUILDS[-1])
    assert GH_BUILDS[-1].version == "2.102.0"
    trace = tmp_path / "trace.jsonl"
    env = {**gh_child_env(tmp_path), "GH_TELEMETRY": "true", "GH_TELEMETRY_SAMPLE_RATE": "100"}
    args = ("--github", "emulator", "--repo", "acme/todo", "--trace", str(trace))
    # gh leaves a detached `gh send-telemetry` to send the event after it exits: the
    # recorded script waits for it, as a user's shell that goes on would not need to
    wait = shlex.join([sys.executable, "-c", _WAIT_SENDERS])
    script = f"{gh} api repos/acme/todo --jq .full_name && {wait}"
    proc = _record(*args, "--", "sh", "-c", script, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "acme/todo\n"
    got = rows(trace)
    refused = [r for r in got if r["operation"] == "front.refused"]
    assert [(r["endpoint"], r["httpStatus"]) for r in refused] == [("cafe.github.com:443", 403)]
    assert not any(k.startswith("rateLimit") for k in refused[0])  # no budget of GitHub's
    assert [r["operation"] for r in got if r not in refused] == ["rest.repos"]


@pytest.mark.gh
@pytest.mark.needs("git", "curl")
@pytest.mark.slow
def test_record_forward_against_a_second_emulator(emulator_server: Any, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    env = gh_child_env(tmp_path) | {"GH_TOKEN": TOKEN}
    git_credentials = {  # forward mode leaves credentials to the user: a helper for github.com
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "credential.https://github.com/.helper",
        "GIT_CONFIG_VALUE_0": '!f() { echo username=x; echo "password=$GH_TOKEN"; }; f',
    }
    args = ("--github", "github", "--upstream", emulator_server.url, "--trace", str(trace))
    proc = _record(*args, "--", "sh", "-c", _SCRIPT, env=env | git_credentials, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [r["operation"] for r in rows(trace)] == [
        "rest.repos",
        "git.info-refs",
        "git.upload-pack",
        "git.upload-pack",
        "rest.rate_limit",
    ]
    assert TOKEN not in trace.read_text()
    assert emulator_server.emulator.ledger_count() == 1  # /rate_limit is free


@pytest.mark.slow
def test_a_run_no_client_reached_fails_and_says_so(tmp_path: Path) -> None:
    proc = _record("--github", "emulator", "--", "true", env=gh_child_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1].startswith(
        "error: no client reached the GitHub front: COMMAND made no GitHub call, or its"
        " clients went around the proxy"
    )


@pytest.mark.slow
@pytest.mark.needs("curl")
def test_rows_lost_fail_a_run_whose_command_succeeded(tmp_path: Path) -> None:
    args = ("--github", "emulator", "--repo", "acme/todo", "--trace", "/dev/full")
    curl = ["curl", "-sS", "-o", "/dev/null", "https://api.github.com/repos/acme/todo"]
    proc = _record(*args, "--", *curl, env=gh_child_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 1
    *_, summary, error = proc.stderr.splitlines()
    assert summary.endswith(
        "(1 exchanges, 0 refused, 0 tunnelled, 0 failed handshakes, 1 rows lost)"
    )
    assert error == (
        "error: 1 trace row(s) could not be written to /dev/full: the trace is incomplete;"
        " free space (or choose another --trace) and record again"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--upstream", "http://127.0.0.1:1"), "--upstream goes with --github emulator|github"),
        (("--repo", "a/b"), "--repo goes with --github emulator|github"),
        (
            ("--github", "emulator", "--upstream", "http://127.0.0.1:1"),
            "--upstream goes with --github github (the emulator is the upstream)",
        ),
        (
            ("--github", "github", "--upstream", "ftp://x"),
            "--upstream 'ftp://x' is not a server's address; give http://HOST:PORT or https://HOST",
        ),
        (
            ("--github", "github", "--upstream", "http://h:1/api/v3"),
            "--upstream http://h:1/api/v3: give the server's address only (scheme, host, port),"
            " no path",
        ),
        (("--github", "emulator", "--repo", "todo"), "--repo 'todo': give OWNER/NAME"),
        (("--github", "gitlab"), "Invalid value for '--github'"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    proc = _record(*args, "--", "true", env=gh_child_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"error: {message}") or message in line
    assert not (tmp_path / "ghbench-out").exists()


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextmanager
def _recording(args: list[str], tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``ghbench record ARGS`` in a session of its own, once its command said ready;
    whatever is left of it is killed at the end."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "record", *args],
        env=gh_child_env(tmp_path),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(DEADLINE_S)
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_what_record_started_stops_with_it(sig: signal.Signals, tmp_path: Path) -> None:
    command = "import time\nprint('ready', flush=True)\ntime.sleep(600)\n"
    args = ["--github", "emulator", "--", sys.executable, "-c", command]
    with _recording(args, tmp_path) as proc:
        started = {p: _cmdline(p) for p in _children(proc.pid)}
        kinds = {
            "front": [p for p, c in started.items() if "ghbench.front.serve" in c],
            "emulator": [p for p, c in started.items() if "emulator serve" in c],
            "command": [p for p, c in started.items() if "time.sleep(600)" in c],
        }
        assert all(len(pids) == 1 for pids in kinds.values()), started
        workers = _children(kinds["front"][0])  # the front's other processes, one a core
        started |= {p: _cmdline(p) for p in workers}
        os.kill(proc.pid, sig)  # ghbench alone, not its group
        proc.wait(DEADLINE_S)
        deadline = time.monotonic() + DEADLINE_S
        left = [p for pids in kinds.values() for p in pids] + workers
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = [p for p in left if _alive(p)]
        assert left == [], {p: started[p] for p in left}


# a grandchild under ``sh -c`` that ignores SIGTERM: only the group's SIGKILL stops it
_FAMILY = """
(trap '' TERM; exec sleep 600) &
echo $! > grandchild
echo ready
wait
"""


@pytest.mark.slow
@pytest.mark.parametrize("front", [True, False], ids=["front", "gh-shim"])
def test_a_signal_to_record_stops_its_commands_whole_group(front: bool, tmp_path: Path) -> None:
    args = [*(["--github", "emulator"] if front else []), "--", "sh", "-c", _FAMILY]
    with _recording(args, tmp_path) as proc:
        grandchild = int((tmp_path / "grandchild").read_text())
        assert _alive(grandchild)
        os.kill(proc.pid, signal.SIGTERM)  # ghbench alone, not its group
        assert proc.wait(DEADLINE_S) == -signal.SIGTERM  # it ends as its command did
        assert not _alive(grandchild)  # gone by the time record has ended


@pytest.mark.slow
@pytest.mark.needs("curl")
@pytest.mark.parametrize("keep", [False, True])
def test_no_ca_key_outlives_the_run_unless_kept(keep: bool, tmp_path: Path) -> None:
    state = tmp_path / "state"
    # while the run goes on: no key on disk, unless kept
    script = "ls state/front; curl -sS -o /dev/null https://api.github.com/rate_limit"
    args = ("--github", "emulator", "--state", str(state), *(("--keep-ca",) if keep else ()))
    proc = _record(*args, "--", "sh", "-c", script, env=gh_child_env(tmp_path), cwd=state.parent)
    assert proc.returncode == 0, proc.stderr
    during = set(proc.stdout.split())
    assert {"front-ca.pem", "front-bundle.pem"} <= during
    assert "front-leaf.key" not in during
    assert ("front-ca.key" in during) is keep
    assert (state / "front" / "front-ca.key").exists() is keep


def test_keep_ca_goes_with_state(tmp_path: Path) -> None:
    proc = _record(
        "--github", "emulator", "--keep-ca", "--", "true", env=gh_child_env(tmp_path), cwd=tmp_path
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --keep-ca goes with --state DIR (where the CA is kept)"


def test_the_emulators_token_replaces_every_token_variable_the_command_has() -> None:
    env = {"GH_ENTERPRISE_TOKEN": "ghp_users_own", "GIT_CONFIG_COUNT": "1"}
    given = emulator_token_env("ghp_emu", env)
    assert given["GH_TOKEN"] == given["GITHUB_TOKEN"] == given["GH_ENTERPRISE_TOKEN"] == "ghp_emu"
    assert "AO_GITHUB_TOKEN" not in given  # not one the command had
    assert "ghp_emu" not in json.dumps({k: v for k, v in given.items() if "TOKEN" not in k})
    helpers = [v for k, v in given.items() if k.startswith("GIT_CONFIG_VALUE_")]
    assert any("GH_TOKEN" in v for v in helpers)  # git asks the helper, which reads $GH_TOKEN


def _result(returncode: int, no_exchange: str | None = None, **counts: int) -> NetworkRecordResult:
    return NetworkRecordResult(
        returncode,
        Path("/t/trace.jsonl"),
        counts.get("rows_written", 0),
        FrontCounts(**counts),
        no_exchange,
    )


def test_a_success_no_client_reached_is_a_failure_that_says_why() -> None:
    result = _result(0, "gh ignored HTTPS_PROXY")
    with pytest.raises(GhbenchError, match=r"^gh ignored HTTPS_PROXY$"):
        result.raise_for_trace()
    assert not any("no GitHub exchange" in line for line in result.lines())  # said once
    failed = _result(1, "gh ignored HTTPS_PROXY")  # its own error may not say: record does
    failed.raise_for_trace()
    assert failed.lines()[-1] == "ghbench record: no GitHub exchange: gh ignored HTTPS_PROXY"


def test_rows_lost_fail_a_success_and_the_summary_counts_them() -> None:
    result = _result(0, None, exchanges=3, rows_written=1, rows_lost=2, unauthorized=1)
    with pytest.raises(GhbenchError, match="2 trace row"):
        result.raise_for_trace()
    summary = result.lines()[-1]
    assert "3 exchanges" in summary and "2 rows lost" in summary and "1 unauthorized" in summary
    _result(0, None, exchanges=3, rows_written=3).raise_for_trace()  # whole: no error
