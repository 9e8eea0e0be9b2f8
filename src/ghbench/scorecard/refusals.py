"""Rate limits that answered in the window: a finding, one typed warning per budget.

A budget *ran out* when a row shows its bucket at ``remaining: 0`` or a call was refused
for it; a secondary limit *answered* when it refused a call. Each becomes one
``rate-limited`` warning (docs/scorecard.md, "Warnings"): the budget, the limit
(``primary``, ``secondary``), when it first happened (``at``), the calls refused
(``count``, the orchestrator's and the agents' in the message) and the time spent
refused (``seconds``). Pure: the window's rows (both traces' when the agents were traced)
and their costs in, warnings out.

Which budget a refusal belongs to (``trace.limits`` says which limit refused it):

- ``primary``: the row's bucket (``rateLimitResource``, else its budget by name);
- ``secondary-points``: ``graphqlPointsPerMinute`` for a GraphQL call, else
  ``restPointsPerMinute``; ``secondary-concurrency``: ``concurrency``;
  ``secondary-content``: ``contentCreation``; ``secondary`` (GitHub did not say which):
  ``secondary``.

Time spent refused: each run of refused calls of a budget (in completion order among
that budget's calls) lasts until the budget's next answered call; a last run with none
after it lasts until the bucket's reset or the window's end, whichever is first, for a
primary limit, and ends at its last refusal for a secondary one (how long it went on
after that, the trace cannot say).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ghbench.artifacts.models import RunWarning
from ghbench.scorecard.costs import Budget, RowCosts
from ghbench.scorecard.window import MeasureWindow
from ghbench.timefmt import format_duration, iso_ms, iso_s
from ghbench.trace.frame import NA, TraceFrame
from ghbench.trace.limits import KINDS

__all__ = ["BUDGET_NAMES", "RefusalBudget", "primary_refusals", "rate_limit_warnings", "refused_ms"]

KIND = "rate-limited"
# what each budget is, as a warning names it
BUDGET_NAMES: dict[str, str] = {
    "graphql": "GraphQL points",
    "core": "REST core requests",
    "graphqlPointsPerMinute": "the secondary limit on GraphQL points per minute",
    "restPointsPerMinute": "the secondary limit on REST points per minute",
    "concurrency": "the secondary limit on concurrent requests",
    "contentCreation": "the secondary limit on content creation",
    "secondary": "a secondary limit (GitHub did not say which)",
}
_SECONDARY_BUDGET = {
    "secondary-concurrency": "concurrency",
    "secondary-content": "contentCreation",
    "secondary": "secondary",
}
ACTIONS = {
    "primary": (
        "run fewer sessions or make fewer of this budget's calls (insights.operations and"
        " spendSplit say whose; `ghbench capacity` finds the count that fits); figures after"
        " it ran out count refused calls, which are not charged and are no successes"
    ),
    "secondary": (
        "spread the calls out (fewer at once, fewer per minute); a client should wait"
        " retry-after, or a minute, before it tries again"
    ),
}


@dataclass(frozen=True)
class RefusalBudget:
    name: str
    limit: str  # primary | secondary
    domain: npt.NDArray[np.bool_]  # the rows that draw on the budget
    refused: npt.NDArray[np.bool_]  # ... those it refused
    answered: npt.NDArray[np.bool_]  # ... and those no limit refused


def _resource_names(rows: TraceFrame, costs: RowCosts) -> list[str | None]:
    """Each row's bucket: its header, else its budget by name."""
    by_budget = {Budget.CORE: "core", Budget.GRAPHQL: "graphql"}
    labels = rows.resource.labels
    return [
        labels[c] if c >= 0 else by_budget.get(Budget(int(b)))
        for c, b in zip(rows.resource.codes.tolist(), costs.budget.tolist(), strict=True)
    ]


def primary_refusals(rows: TraceFrame, costs: RowCosts, name: str) -> RefusalBudget:
    """The primary budget ``name`` (a bucket: ``graphql``, ``core``…): the rows that draw
    on it, those it refused and those no limit refused."""
    kinds = costs.refused
    domain = np.array(_resource_names(rows, costs), dtype=object) == name
    primary = kinds == KINDS.index("primary")
    return RefusalBudget(name, "primary", domain, primary & domain, (kinds < 0) & domain)


def _budgets(rows: TraceFrame, costs: RowCosts) -> list[RefusalBudget]:
    """Every budget that ran out or refused a call in ``rows``, graphql and core first."""
    kinds = costs.refused
    answered = kinds < 0
    primary = kinds == KINDS.index("primary")
    spent = rows.rate_limit_remaining == 0
    names = np.array(_resource_names(rows, costs), dtype=object)
    out: list[RefusalBudget] = []
    touched = {str(n) for n in names[primary | spent] if n is not None}
    for name in sorted(touched, key=lambda n: (n not in ("graphql", "core"), n)):
        domain = names == name
        out.append(RefusalBudget(name, "primary", domain, primary & domain, answered & domain))
    graphql = costs.budget == Budget.GRAPHQL
    points = kinds == KINDS.index("secondary-points")
    everything = np.ones(len(rows), dtype=np.bool_)
    secondary = [
        ("graphqlPointsPerMinute", graphql, points & graphql),
        ("restPointsPerMinute", ~graphql, points & ~graphql),
        *(
            (name, everything, kinds == KINDS.index(kind))
            for kind, name in _SECONDARY_BUDGET.items()
        ),
    ]
    out += [
        RefusalBudget(n, "secondary", d, r, answered & d) for n, d, r in secondary if bool(r.any())
    ]
    return out


def refused_ms(rows: TraceFrame, b: RefusalBudget, window: MeasureWindow) -> int:
    """Milliseconds the budget spent refusing calls (module doc): runs of its refusals
    among its answered calls (a call another limit refused says nothing of this one)."""
    index = np.flatnonzero(b.refused | b.answered)
    order = index[np.argsort(rows.ts_ms[index], kind="stable")]
    refused = b.refused[order]
    if not refused.any():
        return 0
    ts = rows.ts_ms[order]
    before = np.concatenate(([False], refused[:-1]))
    after = np.concatenate((refused[1:], [False]))
    starts = np.flatnonzero(refused & ~before)
    lasts = np.flatnonzero(refused & ~after)
    ends = ts[np.minimum(lasts + 1, ts.size - 1)].copy()
    if lasts[-1] == ts.size - 1:  # the last run: nothing answered after it
        end = int(ts[-1])
        reset = int(rows.rate_limit_reset[order[-1]])
        if b.limit == "primary" and reset != NA:
            end = max(end, min(reset * 1000, window.end_ms))
        ends[-1] = end
    return int((ends - ts[starts]).sum())


def _warning(
    rows: TraceFrame, b: RefusalBudget, window: MeasureWindow, orchestrator_rows: int
) -> RunWarning:
    refused = int(b.refused.sum())
    hit = b.refused.copy()
    if b.limit == "primary":
        hit |= b.domain & (rows.rate_limit_remaining == 0)
    first = int(rows.ts_ms[hit].min())
    seconds = refused_ms(rows, b, window) / 1000.0
    what = BUDGET_NAMES.get(b.name, f"the {b.name} bucket")
    at = iso_ms(first / 1000)
    if b.limit == "primary":
        head = f"{what[:1].upper()}{what[1:]} ran out at {at}"
    else:
        head = f"{what[:1].upper()}{what[1:]} refused calls from {at}"
    if refused:
        agents = int(b.refused[orchestrator_rows:].sum())
        who = (
            f" ({refused - agents:,} the orchestrator's, {agents:,} its agents')" if agents else ""
        )
        head += f": {refused:,} call(s) refused{who}, {format_duration(seconds)} spent refused"
    else:
        head += ": remaining 0, no call refused in the window"
    if b.limit == "primary":
        resets = rows.rate_limit_reset[hit]
        resets = resets[resets != NA]
        if resets.size:
            head += f"; the bucket reset at {iso_s(int(resets.max()))}"
    return RunWarning(
        kind=KIND,
        message=head,
        action=ACTIONS[b.limit],
        count=refused,
        seconds=round(seconds, 3),
        at=at,
        budget=b.name,
        limit=b.limit,
    )


def rate_limit_warnings(
    rows: TraceFrame,
    costs: RowCosts,
    window: MeasureWindow,
    *,
    orchestrator_rows: int | None = None,
) -> list[RunWarning]:
    """One ``rate-limited`` warning per budget that ran out or refused calls in ``rows``
    (the window's rows; the orchestrator's first ``orchestrator_rows`` of them, the
    agents' after, when both traces are read as one)."""
    mine = len(rows) if orchestrator_rows is None else orchestrator_rows
    return [_warning(rows, b, window, mine) for b in _budgets(rows, costs)]
