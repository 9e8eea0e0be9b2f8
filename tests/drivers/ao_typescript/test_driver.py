"""ghbench.drivers.ao_typescript.driver, the parts that need no AO build: the tools it
checks before anything starts, and a setup's sessions it can no longer measure (its
private world and tmux server are real; git and tmux are). AO itself (built from its
TypeScript source) setting up and measuring: tests/realao/test_setup_measure.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ghbench.artifacts.models import Session
from ghbench.drivers.ao_typescript.driver import AoDriver
from ghbench.drivers.ao_typescript.runtime import AoRouting
from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.common.ao_cli import AoCommand
from ghbench.drivers.project import Project
from ghbench.errors import ToolMissingError


def _driver(
    tmp_path: Path, *, path: str = "/usr/bin:/bin", command: AoCommand | None = None
) -> AoDriver:
    project = Project("todo-app", tmp_path / "user" / "todo-app", "acme/todo", "main", "ta", None)
    return AoDriver(
        project=project,
        command=command or AoCommand("ao"),
        world=AoWorld(tmp_path / "out" / "state" / "ao" / "todo-app", project),
        routing=lambda: AoRouting(env={}),
        base_env={"HOME": str(tmp_path / "home"), "PATH": path},
    )


def test_a_missing_tool_is_named_with_how_to_install_it(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # an ao executable (never run here), and nothing else
    bin_dir.mkdir()
    ao = bin_dir / "ao"
    ao.write_text("#!/bin/sh\n")
    ao.chmod(0o755)
    driver = _driver(tmp_path, path=str(bin_dir), command=AoCommand(str(ao)))
    with pytest.raises(ToolMissingError, match=r"^tmux is not installed; install it \(apt-get"):
        driver.check_tools()


def test_an_ao_checkout_not_built_is_refused_before_anything(tmp_path: Path) -> None:
    checkout = tmp_path / "agent-orchestrator"
    checkout.mkdir()
    driver = _driver(tmp_path, command=AoCommand(str(checkout)))
    with pytest.raises(ToolMissingError, match="does not exist; build AO first"):
        driver.check_tools()
    assert driver.version() == (None, None)  # not a git checkout: no sha, no branch


@pytest.mark.needs("git", "tmux")
def test_a_session_whose_worktree_and_branch_are_gone_cannot_be_measured(tmp_path: Path) -> None:
    user = tmp_path / "user" / "todo-app"
    user.mkdir(parents=True)
    git = ["git", "-C", str(user)]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run(
        [
            *git,
            "-c",
            "user.name=u",
            "-c",
            "user.email=u@e",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "i",
        ],
        check=True,
    )
    subprocess.run(
        [*git, "remote", "add", "origin", "https://github.com/acme/todo.git"], check=True
    )
    driver = _driver(tmp_path, path="/usr/local/bin:/usr/bin:/bin")
    try:
        gone = Session(session_id="ta-1", branch="feat/1", worktree_path=str(tmp_path / "wt1"))
        kept = Session(session_id="ta-2", branch="main", worktree_path=str(tmp_path / "wt2"))
        assert driver.check_sessions([gone, kept]) == [
            f"ta-1: worktree {tmp_path / 'wt1'} and branch feat/1 are both gone"
        ]
        assert (driver.bench.path / ".git").exists()  # measured on ghbench's clone
    finally:
        driver.close()
