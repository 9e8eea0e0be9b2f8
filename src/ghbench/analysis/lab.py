"""The budget lab: a recorded fleet's calls under each policy and useful combination.

Pure: rows in, a ``LabTable`` out. A recording becomes calls (``calls_of``: one per gh
invocation, else one per row, each priced as the scorecard prices it); each choice of
policies (``LAB_CHOICES``: none, each alone, ``spec.COMBINATIONS``) runs them through
the one offline engine (``policies.offline``) twice over:

- **the sessions that fit**: the demand of one recorded session-hour under the policies
  (no limit in the way) gives the count that uses ``fraction`` of the budget that binds
  first; that count is then run with GitHub's limits and kept only when nothing is
  refused and no session falls more than ``ceiling_s`` behind its recorded pace (the
  waits at the gate, summed; capacity's poll ceiling), else the
  largest count below it that passes (bisection);
- **the fleet asked about** (``sessions``, the recorded count by default): spend per
  hour per budget, and the calls absorbed (cache, probes), delayed (the gate) and
  refused (reserve, cooldown, rate limits).

A recording scaled to N sessions runs each call as N/recorded identical copies, as
``replay``'s copies do. Budgets are the 5,000/h token's unless ``limits`` says else.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec

from ghbench.policies.calls import BUDGETS, Call, Verdict
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.offline import Tally, run_offline
from ghbench.policies.spec import COMBINATIONS, POLICY_NAMES, Policies, policies_of
from ghbench.scorecard.costs import GRAPHQL_MUTATION_OPERATIONS, WRITE_METHODS, row_costs
from ghbench.timefmt import parse_iso
from ghbench.trace.frame import TraceFrame, invocation_groups, repo_of
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.schema import TraceRow, from_agent

__all__ = [
    "DEFAULT_LIMITS",
    "LAB_CHOICES",
    "SCHEMA_VERSION",
    "LabRecording",
    "LabRow",
    "LabTable",
    "calls_of",
    "lab_table",
]

SCHEMA_VERSION = 1
DEFAULT_LIMITS: Mapping[str, float] = TOKEN_LIMITS
MAX_FIT = 100_000
_UNLIMITED = dict.fromkeys(BUDGETS, math.inf)


# none, each policy alone, the combinations a fleet would ship
LAB_CHOICES: tuple[Policies, ...] = (
    Policies(),
    *(policies_of([n]) for n in POLICY_NAMES),
    *(policies_of(c) for c in COMBINATIONS),
)


@dataclass(frozen=True)
class LabRecording:
    """A recording as the lab runs it: its calls in time order, its sessions, its span."""

    calls: tuple[Call, ...]
    sessions: int
    span_s: float
    rows: int


def _key(row: TraceRow, session: str) -> str:
    argv = row.args or []
    if argv:
        # gh's pr/issue commands resolve the PR from the session's checkout
        own = "" if argv[0] == "api" else session
        return "\x1f".join((own, *argv))
    return "\x1f".join((row.method or "GET", row.endpoint or "", row.requestBody or ""))


def _writes(row: TraceRow) -> bool:
    """A write: a mutating gh command, a REST write (a GraphQL POST is a read unless
    its operation mutates)."""
    if (row.operation or "") in GRAPHQL_MUTATION_OPERATIONS:
        return True
    graphql = (row.endpoint or "").lstrip("/").startswith("graphql")
    return not graphql and (row.method or "GET").upper() in WRITE_METHODS


def _would_cost(row: TraceRow) -> tuple[float, float]:
    """(GraphQL points, core requests) a row the recording's budget refused would have
    cost: a GraphQL request its query's points (GitHub's formula, else 1), a REST one 1."""
    if not (row.endpoint or "").lstrip("/").startswith("graphql"):
        return 0.0, 1.0
    try:
        body = json.loads(row.requestBody or "")
    except ValueError:
        body = None
    query = body.get("query") if isinstance(body, dict) else None
    variables = body.get("variables") if isinstance(body, dict) else None
    points = None
    if isinstance(query, str):
        points = estimate_graphql_cost(query, variables if isinstance(variables, dict) else None)
    return float(points or 1), 0.0


def calls_of(rows: Sequence[TraceRow]) -> LabRecording:
    """A recording's calls: one per gh invocation (``invocationId``), else one per row,
    priced as the scorecard prices them, except a row a rate limit refused: the lab runs
    the recording against budgets of its own, so it is priced at what it would have
    cost (``_would_cost``)."""
    rows = [r for r in rows if r.endpoint is None or "rate_limit" not in r.endpoint]
    if not rows:
        return LabRecording((), 0, 0.0, 0)
    costs = row_costs(TraceFrame.from_rows(rows))
    graphql = costs.graphql_points.tolist()
    core = costs.core_points.tolist()
    for i, row in enumerate(rows):
        if row.rateLimited:  # what it would have cost: the policies change who is refused
            graphql[i], core[i] = _would_cost(row)
    order = invocation_groups([row.invocationId for row in rows])
    repos: dict[str, str] = {}
    for row in rows:
        found = repo_of(row.endpoint, row.args)
        if found and (row.sessionId or "") not in repos:
            repos[row.sessionId or ""] = found
    calls: list[Call] = []
    first = math.inf
    last = -math.inf
    for group in order:
        head = rows[group[0]]
        ends = [parse_iso(rows[i].timestamp) for i in group]
        start = ends[0] - (head.durationMs or 0.0) / 1000.0
        first, last = min(first, start), max(last, *ends)
        session = head.sessionId or ""
        write = any(_writes(rows[i]) for i in group)
        calls.append(
            Call(
                at=start,
                session=session,
                key=_key(head, session),
                repo=repo_of(head.endpoint, head.args) or repos.get(session, ""),
                command=head.operation or "unknown",
                graphql=float(sum(graphql[i] for i in group)),
                core=float(sum(core[i] for i in group)),
                write=write,
                agent=from_agent(head),
                duration=max(0.0, max(ends) - start),
                argv=tuple(head.args or ()),
            )
        )
    calls.sort(key=lambda c: c.at)
    sessions = len({r.sessionId for r in rows if r.sessionId}) or 1
    return LabRecording(tuple(calls), sessions, max(0.0, last - first), len(rows))


class LabRow(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One choice of policies: the sessions that fit and what binds; at the fleet asked
    about, spend per hour per budget and what became of the calls."""

    policies: str
    sessions_fit: int
    binds: str | None  # the budget that binds first; None: nothing binds (no spend)
    per_session_hour: dict[str, float]
    spend_per_hour: dict[str, float]
    calls: float
    sent: float
    absorbed: float
    delayed: float
    refused: float
    refused_by: dict[str, float]
    longest_wait_s: float


class LabTable(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    schema_version: int
    kind: str
    trace: str
    rows: int
    recorded_sessions: int
    span_s: float
    sessions: int
    limits: dict[str, float]
    budget_fraction: float
    ceiling_s: float
    table: list[LabRow]

    def json(self) -> dict[str, object]:
        return msgspec.to_builtins(self)  # type: ignore[no-any-return]


def _fits(tally: Tally, limits: Mapping[str, float], fraction: float, ceiling_s: float) -> bool:
    return (
        tally.refused == 0
        and tally.longest_lag_s <= ceiling_s
        and all(tally.per_hour(b) <= fraction * limits[b] + 1e-9 for b in BUDGETS)
    )


def _row(
    recording: LabRecording,
    policies: Policies,
    *,
    sessions: int,
    limits: Mapping[str, float],
    fraction: float,
    ceiling_s: float,
) -> LabRow:
    calls, span, recorded = recording.calls, recording.span_s, recording.sessions

    def run(n: float, ledger: Mapping[str, float]) -> Tally:
        return run_offline(calls, policies, limits, weight=n / recorded, span_s=span, ledger=ledger)

    # one session-hour, nothing in the way (the gate delays calls, it removes none: the
    # count its spend allows is then held to the ceiling on how far a session falls behind)
    demand = run_offline(
        calls,
        msgspec.structs.replace(policies, gate=None),
        limits,
        weight=1.0 / recorded,
        span_s=span,
        ledger=_UNLIMITED,
    )
    per = {b: demand.per_hour(b) for b in BUDGETS}
    room = {b: fraction * limits[b] / per[b] if per[b] > 0 else math.inf for b in BUDGETS}
    binds = min(room, key=lambda b: room[b]) if any(per.values()) else None
    high = int(min(MAX_FIT, math.floor(min(room.values()) + 1e-9)))
    fit = 0
    if high >= 1 and _fits(run(high, limits), limits, fraction, ceiling_s):
        fit = high
    elif high > 1:
        low = 0  # the largest count known to fit
        while high - low > 1:
            mid = (low + high) // 2
            if _fits(run(mid, limits), limits, fraction, ceiling_s):
                low = mid
            else:
                high = mid
        fit = low
    at = run(sessions, limits)
    verdicts = at.verdicts
    return LabRow(
        policies=policies.label,
        sessions_fit=fit,
        binds=binds,
        per_session_hour={b: round(per[b], 3) for b in BUDGETS},
        spend_per_hour={b: round(at.per_hour(b), 3) for b in BUDGETS},
        calls=round(sum(verdicts.values()), 3),
        sent=round(verdicts[Verdict.SENT], 3),
        absorbed=round(at.absorbed, 3),
        delayed=round(at.delayed, 3),
        refused=round(at.refused, 3),
        refused_by={str(v): round(n, 3) for v, n in sorted(verdicts.items()) if v.refused},
        longest_wait_s=round(at.longest_wait_s, 3),
    )


def lab_table(
    recording: LabRecording,
    *,
    trace: str,
    sessions: int | None = None,
    choices: Sequence[Policies] = LAB_CHOICES,
    limits: Mapping[str, float] = DEFAULT_LIMITS,
    fraction: float = 0.8,
    ceiling_s: float = 60.0,
) -> LabTable:
    """The table for ``recording``: one row per choice of policies."""
    if not recording.calls or recording.span_s <= 0:
        raise ValueError("the recording has no calls over a span of time")
    n = sessions if sessions is not None else recording.sessions
    rows = [
        _row(recording, p, sessions=n, limits=limits, fraction=fraction,
             ceiling_s=ceiling_s)
        for p in choices
    ]  # fmt: skip
    return LabTable(
        schema_version=SCHEMA_VERSION,
        kind="lab",
        trace=trace,
        rows=recording.rows,
        recorded_sessions=recording.sessions,
        span_s=round(recording.span_s, 3),
        sessions=n,
        limits=dict(limits),
        budget_fraction=fraction,
        ceiling_s=ceiling_s,
        table=rows,
    )
