"""One agent in real time over a real socket: the http transport sends the captured
requests, and ``ghbench workload agent`` runs it as a process."""

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.clock import SystemClock
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.fleet import AgentSpec
from ghbench.workload.agents.process import CheckoutHooks, repo_of_url, run_agent_process
from ghbench.workload.agents.profiles import AGENT_PROFILES
from ghbench.workload.transport.http import HttpTransport

# a session compressed into seconds: no waits worth the name, one review round
FAST = msgspec.structs.replace(
    AGENT_PROFILES["claude-code-gh-2.102"],
    work=(0.0, 0.0),
    work_read_interval=0.0,
    status_poll=0.05,
    watch_interval=0.05,
    rewatch=0.0,
    fix=(0.0, 0.0),
    review=1.0,
    review_delay=(0.0, 0.0),
    review_comments=(2, 2),
)


def test_one_agent_in_real_time_over_http(emulator_server: Any) -> None:
    emulator = emulator_server.emulator
    repo = "acme/todo"
    issue = emulator.create_issue(repo, "Task", author="octo")
    branch = f"feat/issue-{issue}"
    emulator.push(repo, branch, "Work")  # the agent's checkout pushed its branch
    rows: list[TraceRow] = []
    reviewed: list[int] = []

    class Hooks(CheckoutHooks):
        def review(self, agent: AgentSpec, comments: int) -> int:
            pr = emulator.store.pulls(emulator.store.repo("acme", "todo"), head=branch)[0]
            emulator.add_review_comments(repo, count=comments, prs=[pr.number])
            reviewed.append(comments)
            return comments

    transport = HttpTransport(emulator_server.url, token=emulator_server.token)
    try:
        summary = run_agent_process(
            FAST,
            AgentSpec("ta-1", repo, branch, issue),
            transport,
            rows.append,
            clock=SystemClock(),
            stop=threading.Event(),
            token=emulator_server.token,
            hooks=Hooks(None, push=False),
            duration_s=60.0,
            seed=1,
        )
    finally:
        transport.close()
    assert reviewed == [2]
    assert summary.requests == len(rows) == emulator.request_count
    operations = [r.graphqlOperation for r in rows if r.graphqlOperation]
    # the task, then its comments: gh 2.102 reads the issue's projects after each
    assert operations[:4] == ["IssueByNumber", "IssueProjectItems"] * 2
    assert "PullRequestCreate" in operations
    replies = [r for r in rows if r.endpoint and r.endpoint.endswith("/replies")]
    assert len(replies) == 2 and {r.method for r in replies} == {"POST"}
    # what the rows say they cost is what the emulator charged
    graphql = sum(r.graphqlCost or 0 for r in rows if r.rateLimitResource == "graphql")
    core = sum(1 for r in rows if r.rateLimitResource == "core" and r.httpStatus != 304)
    charged = emulator.ledger_totals()
    assert (graphql, core) == (charged.get("graphql", 0), charged.get("core", 0))
    assert not any(emulator_server.token in msgspec.json.encode(r).decode() for r in rows)


@pytest.mark.slow
def test_workload_agent_command_writes_the_trace(emulator_server: Any, tmp_path: Path) -> None:
    emulator = emulator_server.emulator
    issue = emulator.create_issue("acme/todo", "Task", author="octo")
    trace = tmp_path / "agent.jsonl"
    env = {
        **os.environ,
        "AO_GH_TRACE_FILE": str(trace),
        "GH_TOKEN": emulator_server.token,
    }
    done = subprocess.run(
        [
            sys.executable, "-m", "ghbench", "workload", "agent",
            "--repo", "acme/todo", "--branch", f"feat/issue-{issue}", "--issue", str(issue),
            "--api-url", emulator_server.url, "--duration", "3s",
        ],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "gh commands" in done.stderr
    lines = trace.read_bytes().splitlines()
    assert lines and all(b'"origin":"agent"' in line for line in lines)
    assert emulator_server.token not in trace.read_text()


def test_workload_agent_refuses_an_unknown_profile(tmp_path: Path) -> None:
    env = {**os.environ, "AO_GH_TRACE_FILE": str(tmp_path / "t.jsonl")}
    done = subprocess.run(
        [sys.executable, "-m", "ghbench", "workload", "agent", "--profile", "codex",
         "--repo", "a/b", "--branch", "x", "--issue", "1"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: Invalid value for '--agents' / '--profile': 'codex'")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/acme/todo.git", "acme/todo"),
        ("http://github.localhost/acme/todo", "acme/todo"),
        ("git@github.com:acme/todo.git", "acme/todo"),
        ("/srv/git/acme/todo.git/", "acme/todo"),
        ("todo", None),
    ],
)
def test_the_repository_of_a_checkouts_origin(url: str, repo: str | None) -> None:
    assert repo_of_url(url) == repo


def test_workload_agent_needs_a_repo_and_branch_or_a_checkout(tmp_path: Path) -> None:
    env = {**os.environ, "AO_GH_TRACE_FILE": str(tmp_path / "t.jsonl")}
    done = subprocess.run(
        [sys.executable, "-m", "ghbench", "workload", "agent", "--issue", "1"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: --repo and --branch") and "Traceback" not in done.stderr
