"""``ghbench emulator serve`` as a user runs it: one ready line that never shows a token,
a stop on SIGTERM with exit 0, and bad settings refused in one line before it listens."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.commands.conftest import one_line_error


def test_a_host_others_can_reach_needs_allow_remote(ghbench: Any) -> None:
    ran = ghbench("emulator", "serve", "--host", "0.0.0.0")
    one_line_error(ran, 2, "--host 0.0.0.0: not a loopback address", "--allow-remote")


def test_serve_rejects_a_bad_config(tmp_path: Path) -> None:
    bad = tmp_path / "emu.yaml"
    bad.write_text("limits: {core: five}\n")
    result = subprocess.run(
        [sys.executable, "-m", "ghbench", "emulator", "serve", "--config", str(bad)],
        capture_output=True,
        timeout=60,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr == (f"error: --config {bad}: limits.core: expected array, got 'five'\n")


@pytest.mark.slow
def test_serve_prints_one_ready_line_without_the_token(tmp_path: Path) -> None:
    secret = "ghp_secret_value_never_printed_0000000000"
    process = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "emulator", "serve", "--token", f"hubot:{secret}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        assert line.startswith("ghbench emulator listening on http://127.0.0.1:")
        assert "GH_HOST=github.localhost" in line and "HTTPS_PROXY=" in line
        assert secret not in line and secret[:12] not in line
        url = line.split()[4]
        user = httpx.get(f"{url}/user", headers={"Authorization": f"token {secret}"})
        assert user.json()["login"] == "hubot"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert secret.encode() not in out + err
