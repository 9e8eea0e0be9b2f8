"""The environment variables that carry a GitHub token, and an environment without them.

A process ghbench starts that makes no GitHub call with the user's token (the embedded
emulator, the lifeline's reaper, the GitHub front) gets the user's environment without
these: a token goes only to what spends it.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["TOKEN_VARIABLES", "without_tokens"]

# gh's (dotcom and enterprise), the Actions convention, and AO 0.10's daemon's
TOKEN_VARIABLES = frozenset(
    {
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GH_ENTERPRISE_TOKEN",
        "GITHUB_ENTERPRISE_TOKEN",
        "AO_GITHUB_TOKEN",
    }
)


def without_tokens(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` less every token variable."""
    return {k: v for k, v in env.items() if k not in TOKEN_VARIABLES}
