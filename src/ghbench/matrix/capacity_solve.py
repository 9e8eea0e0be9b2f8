"""``ghbench capacity --sessions N --solve tick``'s flow: the fastest poll interval at
which N sessions fit, with the workload model in virtual time as its probe.

Each interval tried is one ``simulate`` run of the cell at N sessions with ``--tick``
(same spec, same seed), reduced to its budgets exactly as the session search reduces
a count (``capacity.model_probe``), and judged by the same ``Probe.fits``. The answer
names the budget that binds one second faster and the two ``ghbench simulate`` lines
that reproduce the run at the interval found and at the one that does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from ghbench.analysis.capacity import Probe
from ghbench.analysis.capacity_render import tick_json, tick_text
from ghbench.analysis.capacity_solve import TickResult, solve_tick
from ghbench.collector import batch_collection
from ghbench.errors import UsageError
from ghbench.matrix.capacity import (
    CapacityQuery,
    capacity_cell,
    capacity_title,
    model_probe,
    simulate_command,
)
from ghbench.matrix.capacity_verify import at_sessions
from ghbench.runspec.spec import Duration, RunSpec

__all__ = ["SOLVES", "TickAnswer", "answer_tick", "tick_spec"]

FASTEST_S = 1  # --tick's own floor: at least 1 s
# what --solve may ask for: the flows that answer it
SOLVES = ("tick",)


def tick_spec(spec: RunSpec, sessions: int, tick_s: int) -> RunSpec:
    """``spec``'s cell at ``sessions``, polling every ``tick_s`` seconds."""
    return msgspec.structs.replace(at_sessions(spec, sessions), tick=Duration.of(float(tick_s)))


@dataclass(frozen=True)
class TickAnswer:
    """The solved interval and what describes it (text and JSON made from it alone)."""

    result: TickResult
    title: str
    extra: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return tick_json(self.result, self.extra)

    def text(self) -> str:
        return tick_text(self.result, title=self.title, notes=self.notes)


def answer_tick(spec: RunSpec, query: CapacityQuery, sessions: int) -> TickAnswer:
    """The fastest whole-second interval in [1 s, the poll ceiling] at which
    ``sessions`` sessions of ``spec``'s cell fit within ``query.fraction``."""
    if query.verify or query.from_trace is not None:
        flag = "--verify" if query.verify else "--from-trace"
        raise UsageError(f"--solve tick: {flag} does not apply (the model answers)")
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
        simulate_command(tick_spec(spec, sessions, t.tick_s), sessions) + f" --tick {t.tick_s}s"
        for t in (result.at, result.faster)
        if t is not None
    ]
    extra = {
        "cell": capacity_cell(spec),
        "pollCeilingSeconds": query.ceiling_s,
        "reproduce": reproduce,
    }
    title = capacity_title(at_sessions(spec, sessions)).replace("capacity:", "poll interval:", 1)
    notes = [f"reproduce: {line}" for line in reproduce]
    return TickAnswer(result, title, extra, notes)
