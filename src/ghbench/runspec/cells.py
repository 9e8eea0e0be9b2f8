"""The runbook's cells: scenarios S1–S6 x topologies T1/T2 x a session count, one table.

Pure data and pure functions, straight from the runbook (``a2-baseline-runbook``). A
scenario says how it is triggered, how long it is watched and what it shows (the
matrix's headings and hygiene), and how the workload model plays it in virtual time
(``ghbench.simulation``):

====  ===================  ==================================================
S1    cold-start           every session has an open PR; at the window start
                           the orchestrator restarts with empty caches and ETags
S2    quiet-steady         every session has an open PR; nothing happens
S3    spawn-storm          no session before the window; at its start all N
                           appear and open their PRs
S4    review-burst         at the window start 5–10 review comments land on
                           each of M PRs at once
S5    restart              mid-window the orchestrator is killed and restarted:
                           caches and ETags are lost
S6    dashboard            S2 plus a dashboard reader in its own component
====  ===================  ==================================================

The coding agents (``--agents``) run in S3, where each spawned session's agent works,
pushes and opens its PR, and in S4, where the burst's PRs' agents answer their reviews;
the other scenarios keep the spec's idle sessions, whose agents are gone ("no agents are
actively running", the spec's quiet-steady).

Topologies: T1 puts every session on one repo; T2 spreads them round-robin over
max(2, N/5) repos. A topology has two names: the spec's (``single-repo``, in scenario
ids) and the runbook's (``concentrated``, in the matrix's headings).

A cell id is ``{scenario}-{topology}-{sessions}``, e.g. ``S2-T1-50``; its scenario id,
the spec's ``{scenario}.{topology}.{sessions}``, e.g. ``quiet-steady.single-repo.50``,
is what every artifact of the cell carries (``Cell.scenario_id``, the one place it is
made).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import msgspec

from ghbench.errors import UsageError

__all__ = [
    "DEFAULT_SCALES",
    "PRIORITY",
    "SCENARIOS",
    "TOPOLOGIES",
    "Cell",
    "Scenario",
    "Topology",
    "cell_from_id",
    "parse_scenario",
    "parse_topology",
    "scenario_for",
    "valid_cell",
]

DEFAULT_SCALES: tuple[int, ...] = (1, 5, 10, 25, 50)


@dataclass(frozen=True)
class Scenario:
    """One runbook scenario: how it is triggered and watched, what it shows, and how the
    model plays it."""

    id: str  # S1..S6
    name: str  # the spec's scenario name, in scenario ids: quiet-steady
    title: str  # as in the runbook's section headings
    trigger: str
    warmup_s: float  # before the measurement window (sessions reach working/pr_open)
    duration_s: float  # the runbook's measurement duration
    key_signal: str
    tells: str  # "what this cell tells us", before the scale/topology clause
    # how the scenario is played (the model in virtual time follows these)
    prs_at_start: bool = True  # sessions exist with open PRs before t0
    restart_at_window_start: bool = False
    restart_mid_window: bool = False
    spawn_at_window_start: bool = False
    review_burst: bool = False
    dashboard: bool = False
    agents: bool = False  # the sessions' coding agents run (with --agents)


SCENARIOS: dict[str, Scenario] = {
    s.id: s
    for s in (
        Scenario(
            "S1",
            "cold-start",
            "Cold start",
            "ao stop, clear caches, ao start",
            120.0,
            300.0,
            "burst shape in the first 60 s, cache-miss count",
            "How hard the cache-miss storm of a cold start hits",
            restart_at_window_start=True,
        ),
        Scenario(
            "S2",
            "quiet-steady",
            "Quiet steady state",
            "sessions idle after reaching working",
            120.0,
            900.0,
            "polling floor per session (calls/cycle)",
            "The per-session polling floor",
        ),
        Scenario(
            "S3",
            "spawn-storm",
            "Spawn storm",
            "ao batch-spawn issue1 … issueN at t0",
            0.0,
            600.0,
            "peak concurrency, burst shape, spawning-phase cost",
            "The burst shape and cost of spawning every session at once",
            prs_at_start=False,
            spawn_at_window_start=True,
            agents=True,
        ),
        Scenario(
            "S4",
            "review-burst",
            "Review backlog burst",
            "5-10 review comments on M PRs at once",
            120.0,
            600.0,
            "reaction-path burst, review-comment API cost",
            "What the reaction path costs when review comments pile up",
            review_burst=True,
            agents=True,
        ),
        Scenario(
            "S5",
            "restart",
            "Cache miss and restart",
            "kill and restart the orchestrator mid-run",
            120.0,
            600.0,
            "recovery cost, re-fetch storm shape",
            "The recovery cost of losing every in-process cache and ETag",
            restart_mid_window=True,
        ),
        Scenario(
            "S6",
            "dashboard",
            "Dashboard enrichment",
            "dashboard open, sessions clicked through",
            120.0,
            600.0,
            "dashboard-attributed calls, separation from lifecycle traffic",
            "What a dashboard reader adds on top of lifecycle polling",
            dashboard=True,
        ),
    )
}


@dataclass(frozen=True)
class Topology:
    """How a cell's sessions sit on repos."""

    id: str  # T1 | T2
    name: str  # the spec's, in scenario ids: single-repo
    title: str  # the runbook's, in the matrix's headings: concentrated
    config: str  # the runbook's config line
    min_sessions: int  # a spread needs two sessions


TOPOLOGIES: dict[str, Topology] = {
    t.id: t
    for t in (
        Topology("T1", "single-repo", "concentrated", "all N sessions on 1 repo", 1),
        Topology("T2", "multi-repo", "spread", "N sessions across N/5 repos (min 2)", 2),
    )
}

# The runbook's "run first" cells, in its order.
PRIORITY: tuple[str, ...] = (
    "S2-T1-1",
    "S2-T1-5",
    "S2-T1-50",
    "S2-T2-50",
    "S1-T1-50",
    "S3-T1-25",
    "S4-T1-10",
)


def valid_cell(topology: str, sessions: int) -> bool:
    """At least one session; a spread needs two ("can't spread 1 session")."""
    return sessions >= 1 and not (topology == "T2" and sessions < 2)


class Cell(msgspec.Struct, frozen=True, order=True):
    """A scenario on a topology at a session count: what one run measures."""

    scenario: str  # S1..S6
    topology: str  # T1 | T2
    sessions: int

    @property
    def id(self) -> str:
        return f"{self.scenario}-{self.topology}-{self.sessions}"

    @property
    def info(self) -> Scenario:
        return SCENARIOS[self.scenario]

    @property
    def layout(self) -> Topology:
        return TOPOLOGIES[self.topology]

    @property
    def scenario_id(self) -> str:
        """The spec's ``{scenario}.{topology}.{sessionCount}``: every artifact of the cell
        carries it (S2 on T1 is ``quiet-steady.single-repo.N``), so ``compare`` pairs a
        ``measure``, a ``simulate`` and a matrix cell of the same cell."""
        return f"{self.info.name}.{self.layout.name}.{self.sessions}"

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.id)

    @property
    def repo_count(self) -> int:
        """T1: one repo; T2: N/5 repos, at least 2."""
        return 1 if self.topology == "T1" else max(2, math.ceil(self.sessions / 5))

    @property
    def needs_attribution(self) -> bool:
        """Per-session claims need ``sessionId`` in rows (the runbook's blocker 5);
        a single session is attributed by construction."""
        return self.sessions > 1

    @property
    def priority(self) -> int | None:
        """Position among the runbook's priority cells, or None."""
        return PRIORITY.index(self.id) if self.id in PRIORITY else None

    @property
    def title(self) -> str:
        noun = "session" if self.sessions == 1 else "sessions"
        return f"{self.info.title}, {self.layout.title}, {self.sessions} {noun}"

    @property
    def tells(self) -> str:
        """The one-line "what this cell tells us"."""
        where = (
            "on one repo"
            if self.topology == "T1"
            else f"spread over {self.repo_count} repos (detectPR and guard fan-out)"
        )
        noun = "session" if self.sessions == 1 else "sessions"
        return f"{self.info.tells}, at {self.sessions} {noun} {where}."

    @property
    def runtime_s(self) -> float:
        return self.info.warmup_s + self.info.duration_s

    def check(self) -> None:
        """UsageError naming the flag when the cell cannot run."""
        if self.sessions < 1:
            raise UsageError(f"--sessions must be at least 1, got {self.sessions}")
        if not valid_cell(self.topology, self.sessions):
            raise UsageError("--topology T2 needs at least 2 sessions (it spreads them)")


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


def scenario_for(text: str | None, *, agents: bool) -> Scenario:
    """The scenario ``--scenario`` names; without one, S2, or S3 when agents run (their
    active phase). A scenario whose sessions have no agents refuses ``--agents``."""
    if text is None:
        return SCENARIOS["S3" if agents else "S2"]
    scenario = parse_scenario(text)
    if agents and not scenario.agents:
        runs = ", ".join(f"{s.id} ({s.name})" for s in SCENARIOS.values() if s.agents)
        raise UsageError(
            f"--agents: {scenario.id} ({scenario.name}) has no running agents (the spec's"
            f" sessions are idle); agents run in {runs}, or drop --agents"
        )
    return scenario


def parse_topology(text: str) -> str:
    """``T1``, ``t1`` or ``single-repo``: the topology's id."""
    key = text.strip()
    if key.upper() in TOPOLOGIES:
        return key.upper()
    for t in TOPOLOGIES.values():
        if t.name == key.lower():
            return t.id
    raise UsageError(f"--topology: unknown topology {text!r}; use T1|single-repo or T2|multi-repo")


_CELL_ID = re.compile(r"^(S[1-6])-(T[12])-([1-9][0-9]*)$")


def cell_from_id(text: str) -> Cell | None:
    """The cell an id names, at any scale; None when it is not a valid cell id."""
    m = _CELL_ID.match(text.strip().upper())
    if m is None or not valid_cell(m.group(2), int(m.group(3))):
        return None
    return Cell(m.group(1), m.group(2), int(m.group(3)))
