"""``ghbench record`` as a wrapper: the command's exit, signals, missing tools.

No emulator here: the recorded commands make no HTTP request.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ghbench.record.contract import SHIM_MARKER, Sink
from ghbench.record.runner import find_real_gh, shim_script
from ghbench.record.shim import run_gh

DEADLINE_S = 60
needs_gh = pytest.mark.needs("gh")


def record_argv(trace: Path, *command: str) -> list[str]:
    return [sys.executable, "-m", "ghbench", "record", "--trace", str(trace), "--", *command]


def run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, timeout=DEADLINE_S)


@pytest.fixture
def env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if k not in ("GHBENCH_RECORD_SINKS", "GHBENCH_REAL_GH", "GH_DEBUG")
    }


@needs_gh
def test_exit_code_and_output_are_the_commands(env: dict[str, str], tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    proc = run(record_argv(trace, "sh", "-c", "echo out; echo err >&2; exit 3"), env, tmp_path)
    assert proc.returncode == 3
    assert proc.stdout == b"out\n"
    err, summary = proc.stderr.split(b"\n", 1)
    assert err == b"err"
    assert summary.startswith(b"ghbench record: no gh HTTP exchanges were recorded")
    assert not trace.exists()


@pytest.fixture
def started(
    env: dict[str, str], tmp_path: Path
) -> Iterator[Callable[[str], subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []

    def start(code: str) -> subprocess.Popen[bytes]:
        argv = record_argv(tmp_path / "t.jsonl", sys.executable, "-c", code)
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        procs.append(proc)
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(DEADLINE_S)
        if proc.stdout:
            proc.stdout.close()


@needs_gh
def test_sigterm_is_forwarded_to_the_command(
    started: Callable[[str], subprocess.Popen[bytes]],
) -> None:
    proc = started(
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: sys.exit(7))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc.send_signal(signal.SIGTERM)  # to ghbench record only, not its group
    assert proc.wait(DEADLINE_S) == 7


@needs_gh
def test_a_command_killed_by_a_signal_ends_record_the_same_way(
    started: Callable[[str], subprocess.Popen[bytes]],
) -> None:
    proc = started("import time\nprint('ready', flush=True)\ntime.sleep(60)\n")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(DEADLINE_S) == -signal.SIGTERM


def test_missing_gh_is_a_clear_error_with_an_install_hint(
    env: dict[str, str], tmp_path: Path
) -> None:
    env["PATH"] = str(tmp_path / "empty")
    proc = run(record_argv(tmp_path / "t.jsonl", "gh", "--version"), env, tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == b""
    [line] = proc.stderr.decode().splitlines()
    assert line.startswith("error: gh is not on PATH; install the GitHub CLI")
    assert "https://cli.github.com" in line


@needs_gh
def test_missing_command_is_a_clear_error(env: dict[str, str], tmp_path: Path) -> None:
    proc = run(record_argv(tmp_path / "t.jsonl", "no-such-command-xyz"), env, tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.decode().startswith("error: cannot run 'no-such-command-xyz'")


def test_no_command_is_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    proc = run([sys.executable, "-m", "ghbench", "record"], env, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("error: ")


def test_a_directory_trace_is_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    proc = run(record_argv(tmp_path, "true"), env, tmp_path)
    assert proc.returncode == 2
    assert "--trace" in proc.stderr.decode()


def test_real_gh_lookup_skips_shims(tmp_path: Path) -> None:
    shim_dir, real_dir = tmp_path / "shim", tmp_path / "real"
    shim_dir.mkdir()
    real_dir.mkdir()
    shim = shim_dir / "gh"
    shim.write_text(shim_script("/x/gh", [Sink("/t", "c", "/s")], sys.executable))
    real = real_dir / "gh"
    real.write_text("#!/bin/sh\n")
    for f in (shim, real):
        f.chmod(0o755)
    assert SHIM_MARKER in shim.read_text()
    assert find_real_gh(f"{shim_dir}{os.pathsep}{real_dir}") == str(real.resolve())
    assert find_real_gh(str(shim_dir)) is None


def test_the_shim_does_not_wait_for_what_gh_leaves_running(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # A background child inherits gh's stderr; plain gh would exit without waiting.
    pidfile = tmp_path / "bg.pid"
    fake_gh = tmp_path / "gh"
    fake_gh.write_text(f"#!/bin/sh\necho from-gh >&2\nsleep 60 & echo $! > {pidfile}\nexit 3\n")
    fake_gh.chmod(0o755)
    try:
        returncode, exchanges = run_gh(str(fake_gh), [], {"PATH": os.environ["PATH"]})
        os.kill(int(pidfile.read_text()), 0)  # still running: the shim did not wait for it
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pidfile.read_text()), signal.SIGKILL)
    assert (returncode, exchanges) == (3, [])
    assert capfd.readouterr().err == "from-gh\n"
