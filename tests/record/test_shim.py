"""ghbench.record.shim: ``python -m ghbench.record.shim ARGS`` in gh's place. The "real
gh" here replays what gh 2.102 wrote on stderr with GH_DEBUG=api for ``gh api`` of a
missing repository (tests/record/fixtures/api_404.*): the shim gives its caller what
gh printed without debug, gh's stdout and exit code untouched, and a row per exchange;
then a shim with no gh to run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ghbench.record.contract import DEBUG_SENTINEL, ENV_REAL_GH, ENV_SINKS, Sink, encode_sinks
from tools import coverage_env

FIXTURES = Path(__file__).parent / "fixtures"


def _shim(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[bytes]:
    argv = [sys.executable, "-m", "ghbench.record.shim", *args]
    return subprocess.run(argv, env={**coverage_env(), **env}, capture_output=True, timeout=60)


def test_the_caller_sees_gh_as_it_is_without_debug_and_a_row_is_written(tmp_path: Path) -> None:
    gh = tmp_path / "gh"
    debug = FIXTURES / "api_404.debug.stderr"
    gh.write_text(f'#!/bin/sh\ncat "{debug}" >&2\nprintf "%s|%s" "$GH_DEBUG" "$*"\nexit 1\n')
    gh.chmod(0o755)
    trace = tmp_path / "trace.jsonl"
    env = {
        "PATH": "/usr/bin:/bin",
        ENV_REAL_GH: str(gh),
        ENV_SINKS: encode_sinks([Sink(str(trace), "record", str(tmp_path))]),
        "DEBUG": "",  # the user's own setting: none
    }
    proc = _shim(env, "api", "repos/acme/missing")
    assert proc.returncode == 1
    assert proc.stdout == f"{DEBUG_SENTINEL}|api repos/acme/missing".encode()
    assert proc.stderr == (FIXTURES / "api_404.plain.stderr").read_bytes()
    [row] = [json.loads(line) for line in trace.read_text().splitlines()]
    assert (row["httpStatus"], row["exitCode"], row["args"]) == (
        404,
        1,
        ["api", "repos/acme/missing"],
    )


def test_without_a_real_gh_the_shim_says_how_to_run_it(tmp_path: Path) -> None:
    unset = _shim({"PATH": "/usr/bin:/bin"}, "pr", "list")
    assert unset.returncode == 127
    assert unset.stderr.decode().startswith(f"ghbench record: {ENV_REAL_GH} is not set")
    missing = _shim({"PATH": "/usr/bin:/bin", ENV_REAL_GH: str(tmp_path / "gh")}, "pr", "list")
    assert missing.returncode == 127
    assert f"cannot run gh at {tmp_path / 'gh'}: No such file" in missing.stderr.decode()
