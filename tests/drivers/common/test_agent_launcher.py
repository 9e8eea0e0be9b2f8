"""The agent model as AO's ``claude``: the probes AO sends, then a real session in a real
checkout, with the real gh and git, against the emulator over a socket."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ghbench.drivers.common.agent_launcher import CLAUDE_VERSION, install_agent
from ghbench.emulator.client_env import GIT_TOKEN_VARIABLE, git_environment
from ghbench.proctable import group_alive
from tools import require_tool


def test_claude_answers_what_ao_probes(tmp_path: Path) -> None:
    claude = install_agent(tmp_path, "claude-code", sys.executable)
    assert claude.name == "claude" and os.access(claude, os.X_OK)
    version = subprocess.run([claude, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == CLAUDE_VERSION  # AO's TypeScript builds probe this
    auth = subprocess.run([claude, "auth", "status"], capture_output=True, check=False)
    assert auth.returncode == 0  # AO's daemon runs this before it launches the agent
    # AO 0.12 resumes a session after a restart: it waits for input, and runs no model
    resumed = subprocess.run(
        [claude, "--append-system-prompt-file", "/dev/null", "--resume", "u-1"],
        input="a message AO typed\n",
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": "/usr/bin:/bin", "GHBENCH_AGENT_LOG": str(tmp_path / "log")},
    )
    assert resumed.returncode == 0 and not (tmp_path / "log").exists()


def _until(check: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
@pytest.mark.gh
def test_claude_runs_the_agent_model_in_its_worktree(
    gh_env: dict[str, str], emulator_server: Any, tmp_path: Path
) -> None:
    require_tool("git")
    emulator = emulator_server.emulator
    issue = emulator.create_issue("acme/todo", "Add due dates", author="octo")
    emulator.push("acme/todo", "main", "Initial commit")
    branch = f"feat/issue-{issue}"
    env = gh_env | git_environment(emulator_server.url, existing=gh_env)
    env |= {
        GIT_TOKEN_VARIABLE: emulator_server.token,
        "GIT_AUTHOR_NAME": "Agent",
        "GIT_AUTHOR_EMAIL": "agent@example.com",
        "GIT_COMMITTER_NAME": "Agent",
        "GIT_COMMITTER_EMAIL": "agent@example.com",
    }
    checkout = tmp_path / "worktree"
    git = ["git", "-C", str(checkout)]
    subprocess.run(["git", "clone", "-q", "https://github.com/acme/todo.git", str(checkout)],
                   env=env, check=True, capture_output=True)  # fmt: skip
    subprocess.run([*git, "checkout", "-q", "-b", branch], env=env, check=True)
    claude = install_agent(tmp_path / "bin", "claude-code", sys.executable, speed=100.0)
    log = tmp_path / "agent.log"
    agent_env = env | {
        "AO_SESSION": "ta-1",
        "AO_ISSUE_ID": str(issue),
        "GHBENCH_AGENT_LOG": str(log),
    }
    # as AO 0.10 launches it (the TypeScript builds type the prompt into the terminal)
    proc = subprocess.Popen(
        [claude, "--session-id", "5f0c", "--", "Fix the issue"],
        cwd=checkout,
        env=agent_env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        comm = Path(f"/proc/{proc.pid}/comm")
        _until(lambda: comm.read_text().strip() == "claude", 10.0, "a process named claude")
        repo = emulator.store.repo("acme", "todo")
        pulls = _until(lambda: emulator.store.pulls(repo, head=branch), 60.0, "the agent's PR")
        assert pulls[0].head_ref == branch  # pushed from the worktree, opened with gh pr create
        emulator.set_ci("acme/todo", "success", pr=pulls[0].number)
        _until(lambda: emulator.ledger_totals().get("graphql", 0) > 5, 60.0, "its CI polls")
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        os.killpg(proc.pid, signal.SIGTERM)  # tmux's kill-session: the pane's group
        proc.wait(timeout=30)
        # the model lets its gh call in flight (a --watch, say) finish, then goes: wait
        # for it, or its last requests would reach the next test's emulator
        _until(lambda: not group_alive(proc.pid), 60.0, "the agent model to stop")
    assert "Traceback" not in log.read_text()
    issue_reads = [e for e in emulator.ledger_entries() if e.endpoint == "IssueByNumber"]
    assert issue_reads, "the agent read its issue (AO_ISSUE_ID)"
