"""``ghbench capacity``'s outputs: console text, a JSON object and the cost plot (PNG bytes).

Pure: the caller passes the result and what describes the cell, and writes the bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghbench.analysis.capacity import (
    BUDGETS,
    BudgetUse,
    CapacityResult,
    Probe,
    Spend,
    VerifiedCount,
)
from ghbench.analysis.capacity_solve import Solve, SolveResult, Tried
from ghbench.analysis.plots import new_figure, png_bytes
from ghbench.analysis.text import table
from ghbench.scorecard.rates import span_note

__all__ = [
    "SCHEMA_VERSION",
    "TICK_SCHEMA_VERSION",
    "capacity_json",
    "capacity_png",
    "capacity_text",
    "solve_json",
    "solve_text",
    "verify_json",
    "verify_text",
]

# Format history of the JSON object (``kind: "capacity"``):
#   1: first version.
#   2: per count, ``spend`` (who spent: the orchestrator, the agents) when agents ran;
#      ``cell.agents``; ``fromTrace`` for an answer from a recorded trace.
#   3: per count, ``rateLimited`` (the rate limits that answered: a count with one does
#      not fit), ``windowSeconds`` and ``extrapolated`` (its hourly figures come from a
#      window under 10 minutes); ``worst`` is what binds (a rate limit first).
SCHEMA_VERSION = 3
# ``kind: "capacity-tick"`` (``--solve tick``), a format of its own:
#   1: ``tickSeconds``, ``limitingResource``; ``at``, ``faster`` and ``tried`` are the
#      session search's counts, each with its ``tickSeconds``.
TICK_SCHEMA_VERSION = 1
# ``kind: "capacity-agents"`` (``--solve agents``), a format of its own:
#   1: ``agents``, ``limitingResource``; ``at``, ``more`` and ``tried`` are the session
#      search's counts, each with its ``agents``.
AGENTS_SCHEMA_VERSION = 1
_DIGITS = {"pollCycle": 1}  # seconds to a tenth; every other budget in whole units


def _value(use: BudgetUse, value: float) -> str:
    return f"{value:,.{_DIGITS.get(use.name, 0)}f}"


def _use(use: BudgetUse) -> str:
    return f"{_value(use, use.used)} ({use.share:.1%})"


def _margin(use: BudgetUse, fraction: float) -> str:
    m = use.margin(fraction)
    text = f"{m:+,.{_DIGITS.get(use.name, 0)}f}"
    return text if use.fits(fraction) else f"{text} over"


def _headline(r: CapacityResult) -> str:
    f = f"{r.fraction:.0%}"
    if r.at is None:
        assert r.next is not None
        if r.next.refusals:
            return (
                f"No count fits within {f} of every budget: at {r.next.sessions} session(s)"
                f" {r.next.binding} answered with refusals."
            )
        worst = r.next.worst()
        return (
            f"No count fits within {f} of every budget: at {r.next.sessions} session(s)"
            f" {worst.name} is at {worst.share:.1%} of its limit."
        )
    if r.capped:
        worst = r.at.worst()
        return (
            f"Every count up to {r.sessions} fits within {f} of every budget (the maximum"
            f" tried); the closest is {worst.name} at {worst.share:.1%}."
        )
    return (
        f"{r.sessions} session(s) fit within {f} of every budget; at {r.sessions + 1}"
        f" {r.limiting} binds first."
        if r.next is not None and r.next.sessions == r.sessions + 1
        else f"{r.sessions} session(s) fit within {f} of every budget; {r.limiting} binds first."
    )


def capacity_text(
    r: CapacityResult,
    *,
    title: str,
    notes: Sequence[str] = (),
    paths: Mapping[str, str] | None = None,
    runs: str = "model run(s)",
) -> str:
    """The answer, the margins at the count found and at the next count tried, the counts
    tried, ``notes`` and the written files (``label -> path``)."""
    probes = [p for p in (r.at, r.next) if p is not None]
    headers = ["budget", "limit"]
    for p in probes:
        headers += [f"at {p.sessions}", "margin"]
    rows = []
    for i, name in enumerate(BUDGETS):
        first = probes[0].uses[i]
        row = [name, f"{_value(first, first.limit)} {BUDGETS[name][0]}"]
        for p in probes:
            row += [_use(p.uses[i]), _margin(p.uses[i], r.fraction)]
        rows.append(row)
    out = [title, f"  {_headline(r)}", "", *table(headers, rows, max_rows=None), ""]
    out += [_spend_line(p) for p in probes if p.spend is not None]
    out += [
        f"  rate limited at {p.sessions}: {refusal.message}"
        for p in probes
        for refusal in p.refusals
    ]
    short = next((p for p in probes if p.extrapolated), None)
    if short is not None and short.window_s is not None:
        out.append(f"  hourly budgets are {span_note(short.window_s)}")
    tried = ", ".join(str(p.sessions) for p in r.probes)
    out.append(f"  counts tried: {tried} ({len(r.probes)} {runs})")
    out += [f"  {note}" for note in notes]
    out += [f"  {label}: {path}" for label, path in (paths or {}).items()]
    return "\n".join(out) + "\n"


def _spend_line(p: Probe) -> str:
    """Who spent at ``p``'s count: each budget's orchestrator and agents' shares."""
    assert p.spend is not None
    orchestrator, agents = p.spend.orchestrator, p.spend.agents
    parts = []
    for i, name in enumerate(("GraphQL points", "core requests")):
        total = orchestrator[i] + agents[i]
        share = f" ({agents[i] / total:.0%} agents)" if total else ""
        parts.append(f"{name} {orchestrator[i]:,.0f} orchestrator + {agents[i]:,.0f} agents{share}")
    return f"  who spent at {p.sessions}, per hour: " + "; ".join(parts)


def _spend_json(spend: Spend) -> dict[str, Any]:
    def side(figures: tuple[float, float]) -> dict[str, float]:
        return {"graphqlPointsPerHr": figures[0], "coreRequestsPerHr": figures[1]}

    return {"orchestrator": side(spend.orchestrator), "agents": side(spend.agents)}


def _uses_json(p: Probe, fraction: float) -> dict[str, Any]:
    return {
        "sessions": p.sessions,
        "fits": p.fits(fraction),
        "worst": p.binding,
        "rateLimited": [
            {"budget": x.budget, "calls": x.calls, "at": x.at, "message": x.message}
            for x in p.refusals
        ],
        "windowSeconds": p.window_s,
        "extrapolated": p.extrapolated,
        "budgets": [
            {
                "name": u.name,
                "used": u.used,
                "limit": u.limit,
                "share": u.share,
                "margin": u.margin(fraction),
                "fits": u.fits(fraction),
            }
            for u in p.uses
        ],
        "spend": None if p.spend is None else _spend_json(p.spend),
    }


def capacity_json(r: CapacityResult, extra: Mapping[str, Any]) -> dict[str, Any]:
    """``sessions`` and ``limitingResource`` first, then everything else; ``extra`` (the
    cell, the plot path, how to reproduce) is merged in."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "kind": "capacity",
        "sessions": r.sessions,
        "limitingResource": r.limiting,
        "budgetFraction": r.fraction,
        "reachedMax": r.capped,
        "at": None if r.at is None else _uses_json(r.at, r.fraction),
        "next": None if r.next is None else _uses_json(r.next, r.fraction),
        "tried": [_uses_json(p, r.fraction) for p in r.probes],
        **extra,
    }


def capacity_png(r: CapacityResult, *, title: str) -> bytes:
    """One panel per budget: its figure against the session counts tried, the limit and
    ``fraction`` of it as lines, the answer as a vertical line."""
    fig = new_figure(12, 6.5)
    fig.suptitle(title, fontsize=10)
    xs = [p.sessions for p in r.probes]
    for i, (name, (unit, what)) in enumerate(BUDGETS.items()):
        ax = fig.add_subplot(2, 3, i + 1)
        ys = [p.uses[i].used for p in r.probes]
        limit = r.probes[0].uses[i].limit
        ax.plot(xs, ys, "-o", color="C0", markersize=3, label="model")
        ax.axhline(limit, color="red", linewidth=1.2, label=f"limit {limit:,.0f}")
        ax.axhline(
            r.fraction * limit, color="orange", linestyle="--", label=f"{r.fraction:.0%} of it"
        )
        if r.sessions > 0:
            ax.axvline(r.sessions, color="green", linestyle=":", label=f"{r.sessions} sessions")
        colour = "red" if name == r.limiting else "black"
        ax.set_title(f"{what}", fontsize=8, color=colour)
        ax.set_xlabel("sessions", fontsize=8)
        ax.set_ylabel(unit, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6, loc="upper left")
    fig.tight_layout()
    return png_bytes(fig)


def _verdict(p: Probe, fraction: float) -> str:
    return "fits" if p.fits(fraction) else f"over ({p.binding})"


def verify_text(counts: Sequence[VerifiedCount], fraction: float, *, how: str) -> str:
    """Model against real time, per budget and per count, and whether they agree."""
    headers = ["budget"]
    for c in counts:
        headers += [f"model at {c.sessions}", f"real at {c.sessions}"]
    rows = []
    for i, name in enumerate(BUDGETS):
        row = [name]
        for c in counts:
            row += [_use(c.model.uses[i]), _use(c.real.uses[i])]
        rows.append(row)
    out = ["", f"Verify: {how}", *table(headers, rows, max_rows=None), ""]
    for c in counts:
        word = "agree" if c.agrees(fraction) else "DISAGREE"
        out.append(
            f"  at {c.sessions}: model {_verdict(c.model, fraction)}, real"
            f" {_verdict(c.real, fraction)}: {word}"
        )
    every = all(c.agrees(fraction) for c in counts)
    out.append(
        "  the real runs agree with the model"
        if every
        else "  the real runs do NOT agree with the model at every count"
    )
    return "\n".join(out) + "\n"


def verify_json(counts: Sequence[VerifiedCount], fraction: float) -> dict[str, Any]:
    return {
        "agree": all(c.agrees(fraction) for c in counts),
        "counts": [
            {
                "sessions": c.sessions,
                "agree": c.agrees(fraction),
                "model": _uses_json(c.model, fraction),
                "real": _uses_json(c.real, fraction),
            }
            for c in counts
        ],
    }


def _solved(shown: Sequence[tuple[str, Probe]], fraction: float) -> list[str]:
    """The budgets of the runs a solve shows (each by its label), then their refusals."""
    headers = ["budget", "limit"]
    for label, _ in shown:
        headers += [label, "margin"]
    rows = []
    for i, name in enumerate(BUDGETS):
        first = shown[0][1].uses[i]
        row = [name, f"{_value(first, first.limit)} {BUDGETS[name][0]}"]
        for _, probe in shown:
            row += [_use(probe.uses[i]), _margin(probe.uses[i], fraction)]
        rows.append(row)
    out = [*table(headers, rows, max_rows=None), ""]
    return out + [
        f"  rate limited {label}: {refusal.message}"
        for label, probe in shown
        for refusal in probe.refusals
    ]


@dataclass(frozen=True)
class _SolveWords:
    """How a solve's console answer reads: a run shown (``value``), each value tried and
    their list (``item``, ``tried``), and the headline (``str.format`` fields: ``sessions``,
    ``f`` the fraction, the values ``at`` and ``beyond``, ``limiting``) when not even the
    safest value fits, when the boldest allowed fits, and otherwise."""

    value: str
    item: str
    tried: str
    none_fit: str
    all_fit: str
    found: str


_SOLVE_WORDS: dict[Solve, _SolveWords] = {
    "tick": _SolveWords(
        value="every {} s",
        item="{} s",
        tried="every {}",
        none_fit="No poll interval up to {beyond} s fits {sessions} session(s) within {f} of"
        " every budget: at {beyond} s {limiting} binds.",
        all_fit="{sessions} session(s) fit within {f} of every budget polling every {at} s,"
        " the fastest tried.",
        found="{sessions} session(s) fit within {f} of every budget polling every {at} s at"
        " the fastest; at {beyond} s {limiting} binds.",
    ),
    "agents": _SolveWords(
        value="{} agent(s)",
        item="{}",
        tried="with {} agent(s)",
        none_fit="{sessions} session(s) do not fit within {f} of every budget even with no"
        " agent: {limiting} binds (fewer sessions: `ghbench capacity`).",
        all_fit="Every one of {sessions} session(s) may run its agent within {f} of every budget.",
        found="{at} agent(s) fit beside {sessions} session(s) within {f} of every budget;"
        " with {beyond} {limiting} binds.",
    ),
}


def _solve_headline(r: SolveResult, words: _SolveWords) -> str:
    template = (
        words.none_fit if r.at is None else words.all_fit if r.beyond is None else words.found
    )
    return template.format(
        sessions=r.sessions,
        f=f"{r.fraction:.0%}",
        at=None if r.at is None else r.at.value,
        beyond=None if r.beyond is None else r.beyond.value,
        limiting=r.limiting,
    )


def solve_text(r: SolveResult, *, title: str, notes: Sequence[str] = ()) -> str:
    """``--solve``'s answer as the console shows it: the headline, the margins of the run
    at the answer and at the next bolder value (one second faster, one agent more), the
    values tried and ``notes``."""
    words = _SOLVE_WORDS[r.solved]
    shown = [(words.value.format(t.value), t.probe) for t in (r.at, r.beyond) if t is not None]
    tried = words.tried.format(", ".join(words.item.format(t.value) for t in r.tried))
    searched = f"{len(r.tried)} model run(s) of {r.sessions} session(s), {tried}"
    out = [title, f"  {_solve_headline(r, words)}", "", *_solved(shown, r.fraction)]
    out += [f"  {searched}", *(f"  {n}" for n in notes)]
    return "\n".join(out) + "\n"


# each solve's JSON object: its kind, its format, the key of the value solved for and
# the key of the run at the next bolder value
_SOLVE_JSON = {
    "tick": ("capacity-tick", TICK_SCHEMA_VERSION, "tickSeconds", "faster"),
    "agents": ("capacity-agents", AGENTS_SCHEMA_VERSION, "agents", "more"),
}


def solve_json(r: SolveResult, extra: Mapping[str, Any]) -> dict[str, Any]:
    """A solve's answer: its kind and format, the value solved for (``tickSeconds``,
    ``agents``), what binds, the run there, at the next bolder value (``faster``,
    ``more``) and every run tried, each with its value; ``extra`` merged in."""
    kind, version, key, beyond = _SOLVE_JSON[r.solved]

    def run(t: Tried | None) -> dict[str, Any] | None:
        return None if t is None else {key: t.value, **_uses_json(t.probe, r.fraction)}

    return {
        "schemaVersion": version,
        "kind": kind,
        "sessions": r.sessions,
        key: r.value,
        "limitingResource": r.limiting,
        "budgetFraction": r.fraction,
        "at": run(r.at),
        beyond: run(r.beyond),
        "tried": [run(t) for t in r.tried],
        **extra,
    }
