"""A fleet's policies in front of a replay's calls: the one stack (``policies.stack``),
GitHub being the replay's emulator.

Each call of each copy is admitted by the stack as the lab admits a recorded call
(``analysis.lab.calls_of``): the same key (a gh command per session, ``gh api`` and a
bare request per copy), the copy's repository, a write when any of its requests writes.
What the stack reads of GitHub is what a wrapper reads: each budget's points left in
the last answer (the one token's limits, ``policies.ledger.TOKEN_LIMITS`` unless the
recording shows larger, less what the replay's token has spent: its limits grow with
the copies so that a replay measures what N sessions ask for), and what a call costs
as its requests price it (one point per GraphQL request, one per REST request; a
recorded 304 costs nothing).

The replay runs the cache, the reserve, the gate (a session whose call it holds
starts its later calls that much later, as in the lab; calls pushed past the
recording's end are not re-issued) and AO's cooldown (a rate-limited GraphQL answer to
the orchestrator). The probes and the shim are the lab's and the workload model's
(docs/policies.md): a replay's world does not change as the recording's did, so a
probe would meet ETags that never change.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.errors import UsageError
from ghbench.policies.calls import BUDGETS, Admission, Call
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.spec import Policies, PolicyName
from ghbench.policies.stack import PolicyStack
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.policed import request_writes
from ghbench.workload.ghmap import plan_call
from ghbench.workload.replay import ReplayCall, graphql_query

__all__ = ["NOT_REPLAYED", "ReplayStack", "check_replayable"]

NOT_MODIFIED = 304
# the policies a replay does not run, and why (the flag's error says it)
NOT_REPLAYED: Mapping[PolicyName, str] = {
    "probe": "a replay's world does not change as the recording's did, so its probes"
    " would always come back 304",
    "shim": "a recording holds the shimmed commands' GraphQL, not the REST requests"
    " the shim sends instead",
}


def check_replayable(policies: Policies, *, flag: str = "--policies") -> None:
    """UsageError naming a policy a replay cannot run, and where it is answered."""
    for name in policies.names:
        why = NOT_REPLAYED.get(name)
        if why is not None:
            raise UsageError(
                f"{flag} {name}: not run by a replay ({why}); ghbench lab predicts it"
                " and the workload model runs it (docs/policies.md)"
            )


def _costs(call: ReplayCall) -> tuple[float, float]:
    """(GraphQL points, core requests) as the call's requests price it."""
    if call.kind == "fixture":
        graphql = sum(1 for _, t in call.requests if t.path.startswith("/graphql"))
        return float(graphql), float(len(call.requests) - graphql)
    if call.kind == "graphql":
        return 1.0, 0.0
    if call.kind == "rest":
        return 0.0, 0.0 if call.recorded_status == NOT_MODIFIED else 1.0
    path = plan_call(call.argv, None).request.path
    return (1.0, 0.0) if path.startswith("/graphql") else (0.0, 1.0)


def _writes(call: ReplayCall) -> bool:
    if call.kind == "fixture":
        for _, template in call.requests:
            body = template.body
            query = body.get("query", "") if isinstance(body, dict) else ""
            if request_writes(template.method, template.path, str(query)):
                return True
        return False
    if call.kind == "api":
        request = plan_call(call.argv, None).request
        body = (request.body or b"").decode("utf-8", "replace")
        return request_writes(request.method, request.path, graphql_query(body))
    return call.kind == "graphql" and call.query.lstrip().startswith("mutation")


class ReplayStack:
    """The stack in front of one replay: its calls as the stack sees them, and what
    GitHub (the emulator) answered them."""

    def __init__(self, policies: Policies, limits: Mapping[str, int]) -> None:
        check_replayable(policies)
        self.limits = {b: float(max(limits.get(b, 0), TOKEN_LIMITS[b])) for b in BUDGETS}
        self.stack = PolicyStack(policies, self.limits)
        self.left = dict(self.limits)
        self.behind: dict[str, float] = {}  # session -> seconds the gate held it, summed
        self._priced: dict[int, tuple[tuple[float, float], bool]] = {}

    def call(
        self, replayed: ReplayCall, *, at: float, session: str, argv: tuple[str, ...], repo: str
    ) -> Call:
        """``replayed`` (one copy's: its ``session``, ``argv`` and ``repo``) at ``at``."""
        if argv:
            own = "" if argv[0] == "api" else session
            key = "\x1f".join((own, *argv))
        else:
            copy = session.partition("#")[2]
            key = "\x1f".join((copy, replayed.endpoint or "", replayed.body or ""))
        priced = self._priced.get(id(replayed))
        if priced is None:
            priced = self._priced[id(replayed)] = (_costs(replayed), _writes(replayed))
        (graphql, core), write = priced
        ends = max((t for t, _ in replayed.requests), default=replayed.at)
        return Call(
            at=at,
            session=session,
            key=key,
            repo=repo,
            command=replayed.operation,
            graphql=graphql,
            core=core,
            write=write,
            agent=replayed.agent,
            duration=max(0.0, ends - replayed.at),
            argv=argv,
        )

    def admit(self, call: Call) -> Admission:
        admission = self.stack.admit(call, self.left)
        if admission.waited > 0:
            self.behind[call.session] = self.behind.get(call.session, 0.0) + admission.waited
        return admission

    @property
    def longest_lag_s(self) -> float:
        """The furthest a session fell behind its recorded pace at the gate."""
        return max(self.behind.values(), default=0.0)

    def sent(self, call: Call, admission: Admission) -> None:
        self.stack.sent(call, admission)

    def answered(self, call: Call, row: TraceRow, at: float) -> None:
        """GitHub's answer to one of ``call``'s requests (sent at ``at``): the budget
        left as it says, and a rate limit told to the cooldown."""
        resource, limit, left = row.rateLimitResource, row.rateLimitLimit, row.rateLimitRemaining
        if resource in self.left and limit is not None and left is not None:
            self.left[resource] = self.limits[resource] - (limit - left)
        if row.rateLimited:
            # hints are read from an error answer, not from a 200's GraphQL error
            hinted = row.httpStatus is not None and row.httpStatus >= 400
            hint = row.rateLimitReset if hinted else None
            reset = float(hint) if hint is not None else None
            self.stack.limited(call, at, retry_after=None, reset=reset)
