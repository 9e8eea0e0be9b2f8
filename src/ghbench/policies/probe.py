"""ETag probes before GraphQL: a status read asks GitHub first whether anything changed.

Before a status read (``PROBED``: ``gh pr checks``, ``gh pr view``), the wrapper sends
two conditional REST requests, the PR and its head's check runs, each with the ETag of
its last answer. Both 304 (free: GitHub charges no conditional request that hits) and
the command's last answer is reused; otherwise the probes cost a core request each and
the command goes as it would have. Stands for AO's own guards (``feat/gh-rate-limiting``:
conditional REST before the GraphQL batch), moved in front of the agents' status reads.

What the probe sees change: the model sends the probes to the emulator, whose ETags move
with the PR and its checks. Offline, from a trace, the lab sees a change when the
repository was written since the command's last answer, or when the answer is older than
``STALE_S`` (CI's runs change checks with no write in the trace): docs/policies.md says
what that misses.
"""

from __future__ import annotations

from ghbench.policies.calls import Call

__all__ = ["PROBED", "PROBES", "STALE_S", "Probe"]

PROBED = frozenset({"gh.pr.checks", "gh.pr.view"})
PROBES = 2  # the PR, its head's check runs
STALE_S = float("inf")


class Probe:
    """The ETags a fleet's wrapper keeps: when each status read was last answered, and
    when each repository was last written."""

    def __init__(self) -> None:
        self._answered: dict[str, float] = {}
        self._written: dict[str, float] = {}
        self._probed: dict[str, float] = {}  # session -> when its probes last came back 200

    @staticmethod
    def applies(call: Call) -> bool:
        return call.command in PROBED and not call.write

    def unchanged(self, call: Call) -> bool:
        """Offline: the probes would both come back 304."""
        last = self._answered.get(call.key)
        if last is None or call.at - last >= STALE_S:
            return False
        return self._written.get(call.repo, float("-inf")) <= last

    def charged(self, call: Call) -> int:
        """Offline: the core requests the probes cost, a status read's last answer not
        reusable: 200s when the session's PR changed since its probes last came back
        (or it never probed), else 304s, free (another command of the session kept
        their ETags fresh)."""
        last = self._probed.get(call.session)
        if last is not None and self._written.get(call.repo, float("-inf")) <= last:
            return 0
        self._probed[call.session] = call.at
        return PROBES

    def answered(self, call: Call, at: float) -> None:
        self._answered[call.key] = at

    def wrote(self, repo: str, at: float) -> None:
        self._written[repo] = at
