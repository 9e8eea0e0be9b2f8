"""The emulator as a child process (``ghbench emulator serve`` in its own process group):
killed with SIGKILL, it loses no acknowledged write and resumes from its state; SIGTERM
is a clean exit."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.process import start_emulator_process


@pytest.mark.slow
def test_process_survives_kill_9_and_resumes(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with start_emulator_process(state, tokens=[TOKEN], repos=["acme/todo"]) as proc:
        headers = {"Authorization": f"token {TOKEN}"}
        with httpx.Client(base_url=proc.url, headers=headers) as client:
            made = client.post(
                "/_ghbench/repos/acme/todo/pulls",
                json={"head": "feat/a"},
                headers={CONTROL_KEY_HEADER: proc.control_key},
            )
            assert made.json() == {"number": 1}
            used = client.get("/repos/acme/todo/pulls/1").headers["x-ratelimit-used"]
        proc.kill()  # no clean shutdown: every acknowledged write must already be on disk
    with start_emulator_process(state, tokens=[TOKEN]) as again:
        with httpx.Client(base_url=again.url, headers=headers) as client:
            pull = client.get("/repos/acme/todo/pulls/1")
            assert pull.json()["head"]["ref"] == "feat/a"
            assert int(pull.headers["x-ratelimit-used"]) == int(used) + 1
        assert again.stop() == 0  # SIGTERM: clean exit
