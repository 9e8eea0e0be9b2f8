"""Runbook scenarios S1–S6 and topologies T1/T2 as timed events on the emulator.

A cell runs the model from ``t0``; the measurement window is
``[t0 + warmup, t0 + warmup + duration]``. Each scenario sets up the emulator
before ``t0`` and schedules its triggers, all through the emulator's control
API (never through the traced path):

====  ===================  ==================================================
S1    cold-start           every session has an open PR; at the window start
                           the model restarts with empty caches and ETags
S2    quiet-steady         every session has an open PR; nothing happens
S3    spawn-storm          no session before the window; at its start all N
                           appear (one ``issue view`` each) and their PRs are
                           opened over ``spawn_spread`` seconds
S4    review-burst         at the window start 5–10 review comments land on
                           each of M PRs at once (M = ``burst_prs``)
S5    restart              mid-window the model is killed and restarted after
                           ``restart_gap`` seconds: caches and ETags are lost
S6    dashboard            S2 plus dashboard-like readers in their own
                           component ``dashboard``: titles every refresh,
                           one session's PR view per click
====  ===================  ==================================================

Topologies: T1 puts every session on one repo; T2 spreads them round-robin over
max(2, N/5) repos.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ghbench.errors import UsageError
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = [
    "SCENARIOS",
    "TOPOLOGIES",
    "CellSpec",
    "Scenario",
    "parse_scenario",
    "parse_topology",
    "repos_for",
]


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    prs_at_start: bool = True  # sessions exist with open PRs before t0
    restart_at_window_start: bool = False
    restart_mid_window: bool = False
    spawn_at_window_start: bool = False
    review_burst: bool = False
    dashboard: bool = False


SCENARIOS: dict[str, Scenario] = {
    s.id: s
    for s in (
        Scenario("S1", "cold-start", restart_at_window_start=True),
        Scenario("S2", "quiet-steady"),
        Scenario("S3", "spawn-storm", prs_at_start=False, spawn_at_window_start=True),
        Scenario("S4", "review-burst", review_burst=True),
        Scenario("S5", "restart", restart_mid_window=True),
        Scenario("S6", "dashboard", dashboard=True),
    )
}
TOPOLOGIES: dict[str, str] = {"T1": "single-repo", "T2": "multi-repo"}


def parse_scenario(text: str) -> Scenario:
    """``S2``, ``s2`` or ``quiet-steady``."""
    key = text.strip()
    if key.upper() in SCENARIOS:
        return SCENARIOS[key.upper()]
    for s in SCENARIOS.values():
        if s.name == key.lower():
            return s
    names = ", ".join(f"{s.id}|{s.name}" for s in SCENARIOS.values())
    raise UsageError(f"--scenario: unknown scenario {text!r}; use one of {names}")


def parse_topology(text: str) -> str:
    key = text.strip()
    if key.upper() in TOPOLOGIES:
        return key.upper()
    for tid, name in TOPOLOGIES.items():
        if name == key.lower():
            return tid
    raise UsageError(f"--topology: unknown topology {text!r}; use T1|single-repo or T2|multi-repo")


def repos_for(topology: str, sessions: int, owner: str = "acme") -> list[str]:
    """T1: one repo; T2: max(2, N/5) repos."""
    if topology == "T1":
        return [f"{owner}/todo"]
    count = max(2, math.ceil(sessions / 5))
    return [f"{owner}/todo-{i + 1}" for i in range(count)]


@dataclass(frozen=True)
class CellSpec:
    """One matrix cell for ``simulate_cell``."""

    scenario: str = "S2"
    topology: str = "T1"
    sessions: int = 50
    warmup_s: float = 120.0
    duration_s: float = 900.0
    profile: ProfileName = DEFAULT_PROFILE
    policy: dict[str, Any] = field(default_factory=dict)
    session_ids: bool = False  # per-session attribution in rows
    burst_prs: int | None = None  # S4: PRs that get comments (default min(N, 10))
    spawn_spread: float = 300.0  # S3: PRs open over this many seconds
    restart_gap: float = 5.0  # S5: seconds the model is down
    dashboard_refresh: float = 30.0  # S6
    dashboard_click: float = 10.0  # S6
    # (median ms, sigma) of the calls' lognormal latency; None: the simulation's default
    # (ghbench.simulation.world.SIM_LATENCY, AO's against github.com)
    latency: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.sessions < 1:
            raise UsageError(f"--sessions must be at least 1, got {self.sessions}")
        if self.topology == "T2" and self.sessions < 2:
            raise UsageError("--topology T2 needs at least 2 sessions (it spreads them)")
        if self.duration_s <= 0 or self.warmup_s < 0:
            raise UsageError("--duration must be positive and --warmup not negative")

    @property
    def scenario_def(self) -> Scenario:
        return parse_scenario(self.scenario)

    @property
    def cell_id(self) -> str:
        return f"{self.scenario_def.id}-{self.topology}-{self.sessions}"

    @property
    def scenario_id(self) -> str:
        """The spec's ``{scenario}.{topology}.{sessionCount}``."""
        return f"{self.scenario_def.name}.{TOPOLOGIES[self.topology]}.{self.sessions}"

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.cell_id)
