"""The flags a run is built from: which driver, which GitHub, how the model runs.

Light on purpose (no driver or HTTP code): the CLI builds these before it loads a flow.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghbench.github.names import BackendName
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["RunFlags"]


@dataclass(frozen=True)
class RunFlags:
    driver: str = "ao"
    github: BackendName = "github"
    ao_command: str | None = None
    ao_layout: str = "auto"
    transport: str = "gh"
    profile: ProfileName = DEFAULT_PROFILE
    tick: str | None = None
