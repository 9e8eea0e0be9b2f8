"""One coding agent as a real-time process: ``ghbench workload agent``.

The session runs on the system clock against a real transport: ``http`` sends the
captured requests with httpx (no gh needed), ``gh`` runs the real gh with the agent's
argv in the agent's checkout (``cwd``), as a coding agent in an AO worktree does. A
push is a real ``git commit --allow-empty`` and ``git push`` in that checkout when
``push`` is on (an AO worktree), and nothing otherwise; reviews come from whoever
reviews. A stop request (SIGTERM) lets the request in flight finish and returns.
"""

from __future__ import annotations

import random
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from ghbench.clock import Clock
from ghbench.errors import UsageError
from ghbench.trace.schema import AGENT
from ghbench.workload.agents.fleet import AgentSpec, Fleet, FleetSummary
from ghbench.workload.agents.profiles import AgentParams, agent_profile, faster
from ghbench.workload.agents.session import agent_session
from ghbench.workload.config import default_api_url
from ghbench.workload.process import ProcessOutcome, trace_file, traced_process
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import RowSink, Transport
from ghbench.workload.transport.gh import GhTransport
from ghbench.workload.transport.http import HttpTransport

__all__ = [
    "AgentProcess",
    "CheckoutHooks",
    "agent_process",
    "checkout_target",
    "repo_of_url",
    "run_agent_process",
]

_GIT_TIMEOUT_S = 120.0


def repo_of_url(url: str) -> str | None:
    """``owner/name`` of a git remote URL (``https://host/o/n.git``, ``git@host:o/n``)."""
    path = url.strip().rstrip("/").removesuffix(".git")
    if "://" in path:
        path = path.split("://", 1)[1].partition("/")[2]
    elif ":" in path:
        path = path.split(":", 1)[1]
    parts = [p for p in path.split("/") if p]
    return "/".join(parts[-2:]) if len(parts) >= 2 else None


def checkout_target(cwd: str) -> tuple[str | None, str | None]:
    """The repository (``owner/name`` of ``origin``) and the branch checked out in
    ``cwd``; None for what git cannot say."""

    def git(*args: str) -> str | None:
        done = subprocess.run(
            ["git", "-C", cwd, *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=_GIT_TIMEOUT_S,
        )
        return done.stdout.strip() or None if done.returncode == 0 else None

    url = git("remote", "get-url", "origin")
    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    return (None if url is None else repo_of_url(url)), (None if branch == "HEAD" else branch)


class CheckoutHooks:
    """The agent's pushes in its checkout (``cwd``); no push when ``push`` is off."""

    def __init__(self, cwd: str | None, *, push: bool, env: dict[str, str] | None = None) -> None:
        self.cwd = cwd
        self.enabled = push
        self.env = env
        self.pushes = 0

    def push(self, agent: AgentSpec) -> None:
        if not self.enabled:
            return
        for args in (
            ["commit", "--allow-empty", "-q", "-m", f"Work on #{agent.issue}"],
            ["push", "-q", "-u", "origin", agent.branch],
        ):
            subprocess.run(
                ["git", *args],
                cwd=self.cwd,
                env=self.env,
                check=False,
                capture_output=True,
                timeout=_GIT_TIMEOUT_S,
            )
        self.pushes += 1

    def review(self, agent: AgentSpec, comments: int) -> int:
        return comments  # a real reviewer's comments are already there, or never come


def run_agent_process(
    params: AgentParams,
    agent: AgentSpec,
    transport: Transport,
    sink: RowSink,
    *,
    clock: Clock,
    stop: threading.Event,
    token: str | None,
    hooks: CheckoutHooks,
    duration_s: float,
    seed: int,
    secrets: tuple[str, ...] = (),
) -> FleetSummary:
    """Run one agent's session for at most ``duration_s`` seconds (or until ``stop``)."""
    rng = random.Random(seed)
    options = RowSettings(session_ids=True, origin=AGENT, secrets=secrets)
    fleet = Fleet(
        transport,
        clock,
        sink,
        token=token,
        hooks=hooks,
        rng=rng,
        options=options,
        stop=stop,
        gh=params.gh,
    )
    start = clock.now()
    fleet.add(agent, agent_session(params, random.Random(rng.randrange(2**31))), start)
    return fleet.run(start + duration_s)


@dataclass(frozen=True)
class AgentProcess:
    """One agent as ``ghbench workload agent`` runs it: its profile and session, how it
    calls GitHub, its checkout, how long and how fast."""

    profile: str
    issue: int
    session_id: str
    transport: str  # gh | http
    duration_s: float
    seed: int = 0
    speed: float = 1.0  # every wait of the profile divided by it
    repo: str | None = None  # default: the checkout's origin
    branch: str | None = None  # default: the checkout's branch
    cwd: str | None = None
    push: bool = False
    api_url: str | None = None  # http: REST base (default: GH_HOST's)


def agent_process(agent: AgentProcess, env: Mapping[str, str], *, clock: Clock) -> ProcessOutcome:
    """Run one coding agent's gh traffic in real time until its duration or a stop
    signal; its rows to ``$AO_GH_TRACE_FILE``."""
    path = trace_file(env)
    params = faster(agent_profile(agent.profile), agent.speed)
    repo, branch = agent.repo, agent.branch
    if (repo is None or branch is None) and agent.cwd is not None:
        found_repo, found_branch = checkout_target(agent.cwd)
        repo, branch = repo or found_repo, branch or found_branch
    if repo is None or branch is None:
        raise UsageError("--repo and --branch: give both, or --cwd a checkout on its branch")
    if "/" not in repo:
        raise UsageError(f"--repo: {repo!r} is not owner/name")
    token = env.get("GH_TOKEN") or env.get("GITHUB_TOKEN")
    runner: Transport
    if agent.transport == "gh":
        runner = GhTransport(cwd=agent.cwd)
    else:
        base = agent.api_url or default_api_url(env.get("GH_HOST", "github.com"))
        runner = HttpTransport(base, token=token)
    secrets = (token,) if token else ()
    with traced_process(path, env, secrets) as process:
        try:
            summary = run_agent_process(
                params,
                AgentSpec(agent.session_id, repo, branch, agent.issue),
                runner,
                process.write,
                clock=clock,
                stop=process.stop,
                token=token,
                hooks=CheckoutHooks(agent.cwd, push=agent.push),
                duration_s=agent.duration_s,
                seed=agent.seed,
                secrets=secrets,
            )
        finally:
            runner.close()
    line = f"agent: {summary.commands} gh commands, {summary.requests} requests"
    return ProcessOutcome.of(line, process.writer, summary.requests)
