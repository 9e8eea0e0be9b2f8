"""The GraphQL→REST shim: a gh command agents run, answered with REST calls instead.

Stands for phnx-labs/agi-cli #3317's PATH shim (docs/policies.md): ``gh pr checks``
(and each ``--watch`` poll) becomes the PR's head, its check runs, its combined status
and its check suites (``shim.pr.checks`` in the captured fixtures: 4 core requests, no
GraphQL). ``SHIMMED`` is the one table: operation → the REST requests it becomes.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.policies.calls import Call

__all__ = ["SHIMMED", "SHIM_FIXTURE", "shimmed"]

# operation -> core requests the shim sends instead of the command's GraphQL; the
# fixture the workload model sends for it (``workload.agents.fixtures``)
SHIMMED: Mapping[str, int] = {"gh.pr.checks": 4}
SHIM_FIXTURE: Mapping[str, str] = {"gh.pr.checks": "shim.pr.checks"}


def shimmed(call: Call) -> bool:
    """``call`` is a GraphQL command the shim answers over REST."""
    return call.command in SHIMMED and call.graphql > 0 and not call.write
