"""``ghbench capacity``'s flow: the workload model in virtual time as the capacity search's probe.

Each count tried is one ``simulate`` run of the cell (same spec, same seed), reduced to
its budgets (``ghbench.analysis.capacity``): the scorecard in memory plus the longest
poll cycle of the window. So ``ghbench simulate`` with the command ``reproduce`` gives
prints the same scorecard figures and poll cycle for any count tried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ghbench.analysis.capacity import (
    POLL_CEILING_S,
    CapacityResult,
    Probe,
    budget_uses,
    find_capacity,
)
from ghbench.matrix.cells import SCENARIOS, TOPOLOGIES
from ghbench.simulation.cell import run_cell
from ghbench.simulation.simulate import cell_scorecard
from ghbench.timefmt import format_duration
from ghbench.workload.profiles import ProfileName
from ghbench.workload.scenarios import CellSpec

__all__ = ["CapacityCell", "model_probe", "run_capacity"]


@dataclass(frozen=True)
class CapacityCell:
    """A scenario and topology at every session count, as the model runs it."""

    scenario: str  # S1..S6
    topology: str  # T1 | T2
    profile: ProfileName = "head"
    seed: int = 0
    warmup_s: float | None = None  # None: the runbook's for the scenario
    duration_s: float | None = None
    ceiling_s: float = POLL_CEILING_S

    @property
    def warmup(self) -> float:
        return SCENARIOS[self.scenario].warmup_s if self.warmup_s is None else self.warmup_s

    @property
    def duration(self) -> float:
        return SCENARIOS[self.scenario].duration_s if self.duration_s is None else self.duration_s

    @property
    def smallest(self) -> int:
        return 2 if self.topology == "T2" else 1  # a spread needs two sessions

    def spec(self, sessions: int) -> CellSpec:
        return CellSpec(
            scenario=self.scenario,
            topology=self.topology,
            sessions=sessions,
            warmup_s=self.warmup,
            duration_s=self.duration,
            profile=self.profile,
        )

    @property
    def title(self) -> str:
        info = SCENARIOS[self.scenario]
        return (
            f"capacity: {self.scenario}-{self.topology} ({info.title.lower()},"
            f" {TOPOLOGIES[self.topology][0]}), profile {self.profile}, seed {self.seed};"
            f" warmup {format_duration(self.warmup)}, window {format_duration(self.duration)}"
        )

    def simulate_command(self, sessions: int) -> str:
        """The ``ghbench simulate`` run that is this cell's probe at ``sessions``."""
        return (
            f"ghbench simulate --scenario {self.scenario} --topology {self.topology}"
            f" --sessions {sessions} --warmup {self.warmup:g}s --duration {self.duration:g}s"
            f" --profile {self.profile} --seed {self.seed}"
        )


def model_probe(cell: CapacityCell) -> Callable[[int], Probe]:
    """``probe(n)``: the cell at n sessions in virtual time, reduced to its budgets."""

    def probe(sessions: int) -> Probe:
        run = run_cell(cell.spec(sessions), seed=cell.seed)
        uses = budget_uses(cell_scorecard(run), run.longest_poll_cycle, cell.ceiling_s)
        return Probe(sessions, uses)

    return probe


def run_capacity(cell: CapacityCell, *, fraction: float, maximum: int) -> CapacityResult:
    return find_capacity(model_probe(cell), fraction=fraction, start=cell.smallest, maximum=maximum)
