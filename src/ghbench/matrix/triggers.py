"""The scenario triggers of real-time cells: what happens inside a measurement window.

Each scenario maps to zero or more ``WindowTrigger``s (run by ``ghbench.harness.measure``
at their offset into the window):

- S1 cold start: at t0 the orchestrator is stopped (SIGTERM) and started fresh, so the
  window opens on empty in-process caches and ETags;
- S3 spawn storm: at t0 every session is spawned (``Driver.spawn_storm``);
- S4 review backlog: at t0, 5 to 10 review comments land on each of M PRs at once
  (``Backend.add_review_comments``: the emulator's control API, or GitHub's REST API);
- S5 cache miss and restart: halfway through, ``kill -9`` of the orchestrator's process
  group and a fresh start on the same trace;
- S6 dashboard: a reader of the orchestrator's dashboard (``Driver.open_dashboard``)
  from t0 to the end.

The actions are ``CellWindow``'s, written once against the ``Driver`` and ``Backend``
interfaces, so this table stays a table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ghbench.drivers.base import Dashboard, DashboardView, Driver
from ghbench.github.backend import Backend
from ghbench.harness.window import Measurement, WindowTrigger
from ghbench.matrix.cell_setup import CellSetup
from ghbench.runspec.spec import RunSpec

__all__ = [
    "CellHooks",
    "CellWindow",
    "comment_burst_plan",
    "hard_kill",
    "scenario_triggers",
]

Action = Callable[[Measurement], None]
HARD_KILL_REAP_S = 5.0  # after SIGKILL, how long the driver may take to reap


class CellHooks(Protocol):
    """What the triggers do to the cell being run."""

    def restart(self, measured: Measurement, hard: bool) -> None:
        """Stop the orchestrator (``hard``: kill -9 first) and start it on the same trace."""
        ...

    def spawn_all(self, measured: Measurement) -> None: ...

    def comment_burst(self, measured: Measurement) -> None: ...

    def start_dashboard(self, measured: Measurement) -> None: ...

    def stop_dashboard(self, measured: Measurement | None = None) -> None: ...


def scenario_triggers(
    scenario: str, duration_s: float, hooks: CellHooks
) -> tuple[WindowTrigger, ...]:
    """The triggers of ``scenario`` for a window of ``duration_s`` seconds."""

    def restart(hard: bool) -> Action:
        return lambda measured: hooks.restart(measured, hard)

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


def hard_kill(driver: Driver) -> None:
    """``kill -9`` the orchestrator's process group (S5), then let the driver reap it.

    The drivers' own ``stop`` sends SIGTERM first, which lets an orchestrator flush and
    exit cleanly; S5 is about losing everything at once, so the group gets SIGKILL.
    """
    driver.kill()
    driver.stop(HARD_KILL_REAP_S)


@dataclass
class CellWindow:
    """A real-time cell while its window runs: the measuring driver, the cell's sessions,
    what the triggers do to them (``CellHooks``), and what the cell notes."""

    spec: RunSpec  # the cell's run (its seed and duration scale)
    driver: Driver
    backend: Backend
    setup: CellSetup
    env: Mapping[str, str]
    work_dir: Path  # the dashboard reader's log goes under it
    stop_grace: float
    notes: list[str] = field(default_factory=list)
    dashboard: Dashboard | None = None

    def restart(self, measured: Measurement, hard: bool) -> None:
        driver = self.driver
        if hard:
            hard_kill(driver)
        else:
            driver.stop(self.stop_grace)
        measured.record_tracing(driver.finish_measure())
        driver.prepare_measure(tuple(self.setup.sessions))
        driver.start(measured.sink, self.backend.orchestrator_env())

    def spawn_all(self, measured: Measurement) -> None:
        """S3 at t0: every session's agent at once, each repo its share. AO's poller finds
        them itself; the model is restarted on a config that lists them."""
        storm = self.driver.spawn_storm(self.setup.counts)
        for repo, session in storm.sessions:
            self.setup.add(repo, session)
        self.notes.append(storm.note)
        if storm.restart:
            self.restart(measured, hard=False)

    def comment_burst(self, measured: Measurement) -> None:
        rng = random.Random(self.spec.seed)
        prs = [(self.setup.session_repos[s.session_id], s.pr) for s in self.setup.sessions]
        plan = comment_burst_plan(prs, rng)
        added = self.backend.add_review_comments(plan)
        self.notes.append(f"S4: {added} review comments on {len(plan)} PRs at window start")

    def start_dashboard(self, measured: Measurement) -> None:
        scale = self.spec.duration_scale
        view = DashboardView(
            sessions=tuple(self.setup.sessions),
            sink=measured.sink,
            env=self.env,
            refresh_s=max(1.0, 30.0 * scale),
            click_s=max(1.0, 10.0 * scale),
            log_path=self.work_dir / "dashboard" / f"chromium-{measured.stamp}.log",
        )
        self.dashboard = self.driver.open_dashboard(view)
        self.dashboard.start()

    def stop_dashboard(self, measured: Measurement | None = None) -> None:
        """At the window's end (``measured``), or after it was cut short (None)."""
        if self.dashboard is not None:
            self.notes.extend(self.dashboard.close(at_window_end=measured is not None))
