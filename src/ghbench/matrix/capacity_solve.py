"""``ghbench capacity --sessions N --solve tick|agents``' flows: the fastest poll interval
at which N sessions fit, or the most of them that may run their coding agent, with the
workload model in virtual time as the probe.

Each interval tried is one ``simulate`` run of the cell at N sessions with ``--tick``
(same spec, same seed), reduced to its budgets exactly as the session search reduces
a count (``capacity.model_probe``), and judged by the same ``Probe.fits``. The answer
names the budget that binds one second faster and the two ``ghbench simulate`` lines
that reproduce the run at the interval found and at the one that does not fit. The
agent count is solved the same way: each count tried is a ``simulate`` run of the cell
at N sessions with ``--agent-count M``; the answer names the budget that binds with one
agent more and reproduces both runs.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ghbench.analysis.capacity import Probe
from ghbench.analysis.capacity_render import solve_json, solve_text
from ghbench.analysis.capacity_solve import SolveResult, solve_agents, solve_tick
from ghbench.clock import Clock
from ghbench.collector import batch_collection
from ghbench.errors import UsageError
from ghbench.matrix.capacity import (
    CapacityAnswer,
    CapacityQuery,
    Log,
    answer_capacity,
    capacity_cell,
    capacity_title,
    model_probe,
    simulate_command,
)
from ghbench.matrix.capacity_verify import at_sessions
from ghbench.runspec.spec import Duration, RunSpec

__all__ = [
    "SOLVES",
    "Solved",
    "agents_spec",
    "answer_agents",
    "answer_query",
    "answer_solve",
    "answer_tick",
    "tick_spec",
]

FASTEST_S = 1  # --tick's own floor: at least 1 s
# what --solve may ask for: the flows that answer it
SOLVES = ("tick", "agents")


def tick_spec(spec: RunSpec, sessions: int, tick_s: int) -> RunSpec:
    """``spec``'s cell at ``sessions``, polling every ``tick_s`` seconds."""
    return msgspec.structs.replace(at_sessions(spec, sessions), tick=Duration.of(float(tick_s)))


def agents_spec(spec: RunSpec, sessions: int, agents: int) -> RunSpec:
    """``spec``'s cell at ``sessions``, ``agents`` of which run their agent."""
    return msgspec.structs.replace(at_sessions(spec, sessions), agent_count=agents)


@dataclass(frozen=True)
class Solved:
    """A solved interval or agent count and what describes it (text and JSON made from
    it alone)."""

    result: SolveResult
    title: str
    extra: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return solve_json(self.result, self.extra)

    def text(self) -> str:
        return solve_text(self.result, title=self.title, notes=self.notes)


def _model_only(solve: str, query: CapacityQuery) -> None:
    if query.verify or query.from_trace is not None:
        flag = "--verify" if query.verify else "--from-trace"
        raise UsageError(f"--solve {solve}: {flag} does not apply (the model answers)")


def _solved(  # noqa: PLR0917 - private, one per solve
    result: SolveResult,
    spec: RunSpec,
    query: CapacityQuery,
    sessions: int,
    reproduce: list[str],
    what: str,
) -> Solved:
    """The answer: ``result``, the cell, and the ``simulate`` lines of the runs it shows."""
    extra = {
        "cell": capacity_cell(spec),
        "pollCeilingSeconds": query.ceiling_s,
        "reproduce": reproduce,
    }
    title = capacity_title(at_sessions(spec, sessions)).replace("capacity:", f"{what}:", 1)
    return Solved(result, title, extra, [f"reproduce: {line}" for line in reproduce])


def answer_tick(spec: RunSpec, query: CapacityQuery, sessions: int) -> Solved:
    """The fastest whole-second interval in [1 s, the poll ceiling] at which
    ``sessions`` sessions of ``spec``'s cell fit within ``query.fraction``."""
    _model_only("tick", query)
    slowest = max(FASTEST_S, int(query.ceiling_s))

    def probe_at(tick_s: int) -> Probe:
        return model_probe(tick_spec(spec, sessions, tick_s), query.ceiling_s)(sessions)

    with batch_collection():
        result = solve_tick(
            probe_at,
            sessions=sessions,
            fraction=query.fraction,
            fastest=FASTEST_S,
            slowest=slowest,
        )
    reproduce = [
        simulate_command(tick_spec(spec, sessions, t.value), sessions) + f" --tick {t.value}s"
        for t in (result.at, result.beyond)
        if t is not None
    ]
    return _solved(result, spec, query, sessions, reproduce, "poll interval")


def answer_agents(spec: RunSpec, query: CapacityQuery, sessions: int) -> Solved:
    """The most of ``sessions`` sessions of ``spec``'s cell that may run their coding
    agent within ``query.fraction``."""
    _model_only("agents", query)
    if not spec.runs_agents:
        raise UsageError(
            "--solve agents: the sessions run no agents; give --agents PROFILE (S3 or S4)"
        )

    def probe_at(agents: int) -> Probe:
        return model_probe(agents_spec(spec, sessions, agents), query.ceiling_s)(sessions)

    with batch_collection():
        result = solve_agents(probe_at, sessions=sessions, fraction=query.fraction)
    reproduce = [
        simulate_command(agents_spec(spec, sessions, a.value), sessions)
        for a in (result.at, result.beyond)
        if a is not None
    ]
    return _solved(result, spec, query, sessions, reproduce, "agents")


# --solve's flows, by what it solves for
_ANSWERS = {"tick": answer_tick, "agents": answer_agents}


def answer_solve(solve: str, spec: RunSpec, query: CapacityQuery, sessions: int) -> Solved:
    """What ``--solve`` asks for, with ``sessions`` sessions."""
    return _ANSWERS[solve](spec, query, sessions)


def answer_query(
    spec: RunSpec,
    query: CapacityQuery,
    typed: Collection[str],
    *,
    solve: str | None,
    sessions: int | None,
    clock: Clock,
    env: Mapping[str, str],
    log: Log,
    hold: Callable[[Path], None],
) -> CapacityAnswer | Solved:
    """What ``ghbench capacity`` asks: with ``--sessions N --solve tick|agents`` what N
    sessions allow, else the most sessions that fit (``answer_capacity``)."""
    if (solve is None) != (sessions is None):
        raise UsageError("--solve and --sessions go together: --sessions N --solve tick|agents")
    if solve is not None and sessions is not None:
        return answer_solve(solve, spec, query, sessions)
    return answer_capacity(spec, query, typed, clock=clock, env=env, log=log, hold=hold)
