"""The GraphQL→REST shim: a gh command agents run, answered with REST calls instead.

Stands for phnx-labs/agi-cli #3317's PATH shim (docs/policies.md): ``gh pr checks``
(and each ``--watch`` poll) becomes the PR's head, its check runs, its combined status
and its check suites (``shim.pr.checks`` in the captured fixtures: 4 core requests, no
GraphQL); the same shim answers ``gh pr view --json …`` with the PR, its head's check
runs and combined status and the PR's reviews (``shim.pr.view``: 4). ``SHIMMED`` is the
one table: operation → the REST requests it becomes; ``SHIM_NEEDS``: the argument a
command must carry for the shim to answer it (``pr view --comments`` it does not).
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.policies.calls import Call

__all__ = ["SHIMMED", "SHIM_FIXTURE", "SHIM_NEEDS", "shimmed"]

# operation -> core requests the shim sends instead of the command's GraphQL; the
# fixture the workload model sends for it (``workload.agents.fixtures``)
SHIMMED: Mapping[str, int] = {"gh.pr.checks": 4, "gh.pr.view": 4}
SHIM_FIXTURE: Mapping[str, str] = {"gh.pr.checks": "shim.pr.checks", "gh.pr.view": "shim.pr.view"}
SHIM_NEEDS: Mapping[str, str] = {"gh.pr.view": "--json"}


def shimmed(call: Call) -> bool:
    """``call`` is a GraphQL command the shim answers over REST."""
    if call.command not in SHIMMED or call.graphql <= 0 or call.write:
        return False
    needs = SHIM_NEEDS.get(call.command)
    return needs is None or needs in call.argv
