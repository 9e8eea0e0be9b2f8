"""The names a run is made of that no part owns: its driver, AO's storage layout, the
agents' model, and which of a run's settings each driver takes.

The GitHub a run talks to (``ghbench.github.names``), the model's transports
(``ghbench.workload.config``) and profiles (``ghbench.workload.profiles``) are named
where they are implemented.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from ghbench.workload.agents.profiles import AgentProfileName

__all__ = [
    "AGENTS_NAMES",
    "AO_LAYOUT_NAMES",
    "DRIVERS",
    "DRIVER_NAMES",
    "RUN_BACKEND_NAMES",
    "AgentsName",
    "AoLayoutName",
    "DriverName",
    "DriverTraits",
    "RunBackendName",
]

# the orchestrator a run drives: the real AO (its build chosen by what --ao names), or
# ghbench's model of it
DriverName = Literal["ao", "workload"]
DRIVER_NAMES: tuple[DriverName, ...] = get_args(DriverName)

# where a run's calls go: a real GitHub (``ghbench.github.names``) or the in-process
# emulator in virtual time (the model only)
RunBackendName = Literal["github", "emulator", "simulated"]
RUN_BACKEND_NAMES: tuple[RunBackendName, ...] = get_args(RunBackendName)

# AO's session storage: detected, current (JSON) or bench-era (key=value files)
AoLayoutName = Literal["auto", "json", "kv"]
AO_LAYOUT_NAMES: tuple[AoLayoutName, ...] = get_args(AoLayoutName)

# the coding agents' own gh calls, modelled: a profile of ghbench's agent model
# (``ghbench.workload.agents.profiles``), or "none": no model (the model's sessions have no
# agents; a real AO's are whatever it launches)
AgentsName = Literal["none", AgentProfileName]
AGENTS_NAMES: tuple[AgentsName, ...] = get_args(AgentsName)


@dataclass(frozen=True)
class DriverTraits:
    """Which of a run's settings a driver takes; a flag for a setting the driver does
    not take is refused (the user expects it to matter)."""

    tick: bool  # told its poll interval (--tick; scaled with a run's durations); else AO's 30 s
    profile: bool  # plays a --profile of the model
    transport: bool  # calls GitHub through --transport
    ao: bool  # runs the AO --ao names
    # in real time, runs --agents: the agent model as each session's coding agent (AO
    # launches it as its ``claude``); in virtual time the model's sessions always can
    agents: bool


DRIVERS: dict[DriverName, DriverTraits] = {
    # in real time the model opens its sessions' PRs itself: no agent runs
    "workload": DriverTraits(tick=True, profile=True, transport=True, ao=False, agents=False),
    "ao": DriverTraits(tick=False, profile=False, transport=False, ao=True, agents=True),
}
