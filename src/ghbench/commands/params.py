"""Parameter types the commands share."""

from __future__ import annotations

import math
from typing import Any

import click

from ghbench.workload.agents.profiles import AGENT_PROFILE_CHOICES, canonical_agent_profile
from ghbench.workload.profiles import PROFILE_CHOICES, canonical_profile

__all__ = [
    "AGENTS_HELP",
    "AGENT_PROFILE_HELP",
    "MAX_ISSUE_NUMBER",
    "MAX_SESSIONS",
    "MAX_VIRTUAL_S",
    "AgentsChoice",
    "FiniteFloatRange",
    "ProfileChoice",
]

MAX_SESSIONS = 10_000  # sessions (and so issues) one run may have
MAX_ISSUE_NUMBER = 2**31 - 1  # GitHub's issue numbers are 32-bit
# Virtual time costs real time and memory in proportion (simulate: about 1.2 s and
# 13 MB per hour of 50 sessions), so the model's runs are bounded tighter than the
# real ones (timefmt.MAX_DURATION_S)
MAX_VIRTUAL_S = 24 * 3600.0


class FiniteFloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses ``nan`` and ``inf``: a NaN compares false
    with every bound, so the range alone lets it through."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class ProfileChoice(click.Choice[str]):
    """A profile of the model, by its name or an old alias (``head``, ``pre-b1``); the
    value is always the profile's name, so what a run records does not depend on which
    of the two the user typed."""

    def __init__(self) -> None:
        super().__init__(PROFILE_CHOICES)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return canonical_profile(super().convert(value, param, ctx))


AGENT_PROFILE_HELP = (
    "Agent profile: claude-code (default), claude-code-badge, claude-code-rest-checks, with"
    " today's gh 2.102 (also named NAME-gh-2.102); NAME-gh-2.23 with Debian's gh 2.23."
)
AGENTS_HELP = (
    "The sessions' coding agents, modelled: an agent profile (default: claude-code, with"
    " today's gh 2.102; claude-code-badge, claude-code-rest-checks; each also as"
    " NAME-gh-2.23, with Debian's gh 2.23) or none. They run in S3 and S4."
)


class AgentsChoice(click.Choice[str]):
    """``--agents``: an agent profile by its name or ``default``, or ``none``; the value is
    the profile's name (``RunSpec.agents``)."""

    def __init__(self) -> None:
        super().__init__(("none", *AGENT_PROFILE_CHOICES))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        chosen = super().convert(value, param, ctx)
        return "none" if chosen == "none" else canonical_agent_profile(chosen)
