"""``emulator serve --state`` with a relative path: git, which runs on the repositories
under it from directories of its own, still finds them (a PR's diff was an HTTP 500)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.emulator.process import start_emulator_process
from ghbench.github.seed import EmulatorControl, push_branch, seed_repo
from ghbench.workload.setup_actions import create_session_prs, open_api_client

TOKEN = "ghp_relativestate000000000000000000000001"


@pytest.mark.slow
def test_a_pr_opens_on_an_emulator_whose_state_path_is_relative(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    emulator = start_emulator_process(Path("state"), tokens=[TOKEN])
    try:
        control = EmulatorControl(emulator.url, emulator.control_key)
        seed_repo(control, "acme/todo", [1], lambda n: False)
        push_branch(control, "acme/todo", "feat/issue-1", "Work on #1")
        with open_api_client(emulator.url, TOKEN) as client:
            (spec,) = create_session_prs(client, "acme/todo", [("ta-1", 1)])
    finally:
        emulator.stop()
    assert spec.pr is not None and spec.branch == "feat/issue-1"
    assert (tmp_path / "state").is_dir()
