"""The scenario triggers of real-time cells: what happens inside a measurement window.

Each scenario maps to zero or more ``WindowTrigger``s (run by ``ghbench.harness.measure``
at their offset into the window):

- S1 cold start: at t0 the orchestrator is stopped (SIGTERM) and started fresh, so the
  window opens on empty in-process caches and ETags;
- S3 spawn storm: at t0 every session is spawned (``CellHooks.spawn_all``);
- S4 review backlog: at t0, 5 to 10 review comments land on each of M PRs at once
  (the emulator's control API, or the REST API on real GitHub);
- S5 cache miss and restart: halfway through, ``kill -9`` of the orchestrator's process
  group and a fresh start on the same trace;
- S6 dashboard: a reader in its own component (``dashboard``) from t0 to the end.

The actions are closures over ``CellHooks``: the cell module supplies how to restart,
spawn and read, so this table stays a table.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx

from ghbench.clock import SystemClock
from ghbench.drivers.base import Driver
from ghbench.errors import GhbenchError
from ghbench.github.backend import Backend, EmulatorBackend
from ghbench.harness.window import WindowRecord, WindowTrigger
from ghbench.matrix.dashboard import ReaderThread
from ghbench.tls import tls_context
from ghbench.workload import calls as ao
from ghbench.workload.config import load_workload_config
from ghbench.workload.process import open_trace_sink, row_options
from ghbench.workload.runner import CallRunner
from ghbench.workload.setup_actions import send_within_limits
from ghbench.workload.transport import make_transport

__all__ = [
    "CellHooks",
    "CrashableDriver",
    "DashboardReader",
    "comment_burst_plan",
    "hard_kill",
    "post_review_comments",
    "scenario_triggers",
]

Action = Callable[[WindowRecord], None]


@dataclass
class CellHooks:
    """What the triggers need from the cell being run."""

    restart: Callable[[Path, bool], None]  # (trace path, hard: kill -9 first)
    spawn_all: Action
    comment_burst: Action
    start_dashboard: Action
    stop_dashboard: Action
    notes: list[str] = field(default_factory=list)


def scenario_triggers(
    scenario: str, duration_s: float, hooks: CellHooks
) -> tuple[WindowTrigger, ...]:
    """The triggers of ``scenario`` for a window of ``duration_s`` seconds."""

    def restart(hard: bool) -> Action:
        return lambda rec: hooks.restart(rec.trace_path, hard)

    table: dict[str, tuple[WindowTrigger, ...]] = {
        "S1": (WindowTrigger(0.0, "cold start: stop, clear caches, start", restart(False)),),
        "S2": (),
        "S3": (WindowTrigger(0.0, "spawn storm: every session at t0", hooks.spawn_all),),
        "S4": (WindowTrigger(0.0, "review backlog burst", hooks.comment_burst),),
        "S5": (
            WindowTrigger(duration_s / 2, "kill -9 and restart the orchestrator", restart(True)),
        ),
        "S6": (
            WindowTrigger(0.0, "dashboard reader opens", hooks.start_dashboard),
            WindowTrigger(duration_s, "dashboard reader closes", hooks.stop_dashboard),
        ),
    }
    return table[scenario]


def comment_burst_plan(
    prs: Sequence[tuple[str, int]], rng: random.Random
) -> list[tuple[str, int, int]]:
    """(repo, PR, comments) for the S4 burst: 5-10 comments on each of M = ceil(N/2) PRs."""
    if not prs:
        return []
    m = max(1, math.ceil(len(prs) / 2))
    chosen = rng.sample(list(prs), m)
    return [(repo, number, rng.randint(5, 10)) for repo, number in sorted(chosen)]


def post_review_comments(backend: Backend, plan: Sequence[tuple[str, int, int]]) -> int:
    """Post the burst; returns how many comments were added.

    The emulator takes them through its free control API; on GitHub each is a
    file-level review comment on the PR's first changed file (REST, counted against
    the token's budget but never in the trace). GitHub limits content creation to
    about 80 a minute, so a burst at 25-50 sessions waits out its 403s and takes
    minutes (``ghbench.workload.setup_actions.send_within_limits``).
    """
    added = 0
    if isinstance(backend, EmulatorBackend):
        with backend.control().client() as c:
            for repo, number, count in plan:
                resp = c.post(
                    f"_ghbench/repos/{repo}/review-comments", json={"count": count, "prs": [number]}
                )
                if resp.status_code >= 400:
                    raise GhbenchError(
                        f"S4: the emulator refused review comments on {repo}#{number}"
                    )
                added += int(resp.json().get("added", 0))
        return added

    headers = {
        "Authorization": f"Bearer {backend.token}",
        "Accept": "application/vnd.github+json",
    }
    base = backend.api_url.rstrip("/") + "/"
    with httpx.Client(base_url=base, timeout=30.0, headers=headers, verify=tls_context()) as c:

        def send(method: str, url: str, **kw: Any) -> httpx.Response:
            return send_within_limits(c, time.sleep, method, url, **kw)

        for repo, number, count in plan:
            pr = send("GET", f"repos/{repo}/pulls/{number}")
            files = send("GET", f"repos/{repo}/pulls/{number}/files", params={"per_page": 1})
            if pr.status_code >= 400 or files.status_code >= 400 or not files.json():
                raise GhbenchError(
                    f"S4: cannot read {repo}#{number} to comment on (HTTP {pr.status_code})"
                )
            sha, path = pr.json()["head"]["sha"], files.json()[0]["filename"]
            for i in range(count):
                body = {
                    "body": f"Review note {i + 1} (ghbench S4 burst)",
                    "commit_id": sha,
                    "path": path,
                    "subject_type": "file",
                }
                resp = send("POST", f"repos/{repo}/pulls/{number}/comments", json=body)
                if resp.status_code >= 400:
                    raise GhbenchError(
                        f"S4: GitHub refused a review comment on {repo}#{number}"
                        f" (HTTP {resp.status_code}); the token needs pull-request write access"
                    )
                added += 1
    return added


class CrashableDriver(Driver, Protocol):
    """A driver whose orchestrator can be crashed: its process group SIGKILLed (S5)."""

    def kill(self) -> None: ...


def hard_kill(driver: CrashableDriver) -> None:
    """``kill -9`` the orchestrator's process group (S5), then let the driver reap it.

    The drivers' own ``stop`` sends SIGTERM first, which lets an orchestrator flush and
    exit cleanly; S5 is about losing everything at once, so the group gets SIGKILL.
    """
    driver.kill()
    driver.stop(5.0)


class DashboardReader(ReaderThread):
    """S6 for the workload driver: a dashboard tab's reads, traced as ``dashboard``.

    Every ``refresh_s`` it loads the session titles (one ``gh issue view`` per session);
    every ``click_s`` it opens one session's PR (``gh pr view``), round-robin: the
    cadence of the reader of AO's dashboard (``ghbench.matrix.dashboard``). Its rows
    are appended to the window's trace (O_APPEND, one write per row) beside the
    orchestrator's.
    """

    def __init__(
        self,
        config_path: Path,
        trace_path: Path,
        env: dict[str, str],
        *,
        refresh_s: float = 30.0,
        click_s: float = 10.0,
    ) -> None:
        super().__init__(refresh_s, click_s)
        self.config_path, self.trace_path, self.env = config_path, trace_path, env
        self.calls = 0

    def _read(self) -> None:
        cfg = load_workload_config(self.config_path)
        token = self.env.get(cfg.token_env, "")
        secrets = (token,) if token else ()
        write, close = open_trace_sink(self.trace_path, secrets)
        transport = make_transport(cfg, self.env)
        clock = SystemClock()
        runner = CallRunner(transport, clock, write, row_options(cfg, secrets))
        sessions = [s for s in cfg.sessions if s.pr is not None]

        def refresh() -> None:
            for s in sessions:
                if s.issue is not None and not self._stop.is_set():
                    runner.call(
                        ao.issue_view(
                            s.repo, s.issue, component=ao.DASHBOARD_COMPONENT, session_id=s.id
                        )
                    )

        def click(i: int) -> None:
            s = sessions[i]
            runner.call(ao.dashboard_pr_view(s.repo, s.pr or 0, s.id))

        try:
            self._cadence(refresh, click, len(sessions), now=clock.now)
        finally:
            self.calls = runner.calls_made
            close()
            transport.close()
