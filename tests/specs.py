"""A run spec for the model in virtual time, in a line (the simulation's tests)."""

from __future__ import annotations

from typing import Any

from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec


def model_spec(
    scenario: str = "S2",
    topology: str = "T1",
    sessions: int = 50,
    *,
    warmup_s: float = 120.0,
    duration_s: float = 900.0,
    **fields: Any,
) -> RunSpec:
    """The model's run of one cell in virtual time (any other ``RunSpec`` field too)."""
    return RunSpec(
        backend="simulated",
        cell=Cell(scenario, topology, sessions),
        warmup=Duration.of(warmup_s),
        duration=Duration.of(duration_s),
        **fields,
    )
