"""The names a run is made of that no part owns: its driver and the kinds of it, AO's
storage layout, the agents' model (which driver takes which setting is the flag table's,
``ghbench.runspec.flags``).

The GitHub a run talks to (``ghbench.github.names``), the model's transports
(``ghbench.workload.config``) and profiles (``ghbench.workload.profiles``) are named
where they are implemented.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from ghbench.workload.agents.profiles import AgentProfileName

__all__ = [
    "AGENTS_NAMES",
    "AO_LAYOUT_NAMES",
    "DRIVER_KIND_NAMES",
    "DRIVER_NAMES",
    "KINDS_OF",
    "RUN_BACKEND_NAMES",
    "AgentsName",
    "AoLayoutName",
    "DriverKindName",
    "DriverName",
    "RunBackendName",
]

# the orchestrator a run drives: the real AO (its build chosen by what --ao names), or
# ghbench's model of it
DriverName = Literal["ao", "workload"]
DRIVER_NAMES: tuple[DriverName, ...] = get_args(DriverName)

# the kinds of orchestrator ghbench drives: a row each of the drivers' table
# (``ghbench.drivers.registry``), one per family. ``--driver ao`` is AO's daemon (0.10 and
# 0.12) or a TypeScript build, told apart by what ``--ao`` names, not by a flag; a
# setting one kind of a driver acts on and the other does not is refused once the run
# knows which it is (``ghbench.runspec.build.check_kind``)
DriverKindName = Literal["workload", "ao-daemon", "ao-typescript"]
DRIVER_KIND_NAMES: tuple[DriverKindName, ...] = get_args(DriverKindName)
KINDS_OF: Mapping[DriverName, tuple[DriverKindName, ...]] = {
    "ao": ("ao-daemon", "ao-typescript"),
    "workload": ("workload",),
}

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
