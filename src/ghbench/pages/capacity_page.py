"""``ghbench capacity`` as one HTML page: how many sessions fit and what binds first, the
margins at the count found and the next, and one spend-against-sessions curve per
budget with its limit, the allowed fraction of it and the answer.

Rendered from capacity's JSON object (``ghbench capacity --json``, ``kind:
"capacity"``); every figure is tagged with its path there. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.analysis.capacity import BUDGETS
from ghbench.pages.html import (
    Markup,
    at_path,
    card,
    cards,
    esc,
    num,
    page,
    section,
    table,
    verdict,
)
from ghbench.pages.svg import RefLine, Series, legend, line_chart
from ghbench.timefmt import format_duration

__all__ = ["capacity_page"]

_DIGITS = {"pollCycle": 1}  # seconds to a tenth; every other budget in whole units


def _headline(doc: Mapping[str, Any]) -> Markup:
    fraction = doc.get("budgetFraction") or 0.0
    sessions = doc.get("sessions") or 0
    limiting = doc.get("limitingResource")
    what = BUDGETS.get(limiting or "", ("", limiting or "?"))[1]
    share = f"{fraction:.0%}"
    if doc.get("at") is None:
        worst = at_path(doc, "next.worst") or "?"
        refused = at_path(doc, "next.rateLimited") or []
        over = "answered with refusals" if refused else "is over"
        return verdict(
            "bad",
            f"No count fits within {share} of every budget",
            [f"At {at_path(doc, 'next.sessions')} session(s), {worst} {over}."],
        )
    if doc.get("reachedMax"):
        return verdict(
            "ok",
            f"Every count up to {sessions} fits within {share} of every budget",
            ["The search stopped at --max-sessions."],
        )
    refused = at_path(doc, "next.rateLimited") or []
    over = "a rate limit answers" if refused else f"it is over {share}"
    return verdict(
        "ok",
        f"{sessions} session(s) fit within {share} of every budget",
        [f"{what} binds first ({limiting}): at {at_path(doc, 'next.sessions')} {over}."],
    )


def _refusals(doc: Mapping[str, Any]) -> str:
    """The rate limits that answered at the counts tried: such a count does not fit."""
    rows = []
    for i, p in enumerate(doc.get("tried") or []):
        for j, r in enumerate(p.get("rateLimited") or []):
            rows.append(
                [
                    num(doc, f"tried.{i}.sessions"),
                    Markup(f"<code>{esc(r.get('budget'))}</code>"),
                    num(doc, f"tried.{i}.rateLimited.{j}.calls"),
                    esc(r.get("message")),
                ]
            )
    if not rows:
        return ""
    return section(
        "Rate limits that answered",
        table(["sessions", "budget", "calls refused", "what happened"], rows, numeric_from=9),
        anchor="refusals",
        lead="A count at which a rate limit refused calls does not fit, whatever its shares.",
    )


def _extrapolated(doc: Mapping[str, Any]) -> str:
    """A note when the hourly budgets come from a window under 10 minutes."""
    short = [p for p in doc.get("tried") or [] if p.get("extrapolated")]
    if not short:
        return ""
    window = format_duration(short[0].get("windowSeconds") or 0)
    return (
        "<p class=note>The hourly budgets are extrapolated from a window under 10 minutes"
        f" ({esc(window)}).</p>"
    )


def _margins(doc: Mapping[str, Any]) -> str:
    probes = [key for key in ("at", "next") if doc.get(key)]
    if not probes:
        return ""
    headers = ["budget", "limit"]
    for key in probes:
        headers += [f"at {doc[key]['sessions']}", "share", "margin"]
    rows = []
    for i, name in enumerate(BUDGETS):
        d = _DIGITS.get(name, 0)
        first = probes[0]
        row: list[str] = [
            Markup(f"<code>{esc(name)}</code>"),
            num(doc, f"{first}.budgets.{i}.limit", digits=d, unit=BUDGETS[name][0]),
        ]
        for key in probes:
            base = f"{key}.budgets.{i}"
            row += [
                num(doc, f"{base}.used", digits=d),
                num(doc, f"{base}.share", digits=1, pct=True),
                num(doc, f"{base}.margin", digits=d, signed=True),
            ]
        rows.append(row)
    return table(headers, rows)


def _curves(doc: Mapping[str, Any]) -> str:
    tried = doc.get("tried") or []
    fraction = doc.get("budgetFraction") or 0.0
    answer = doc.get("sessions") or 0
    charts = []
    for i, (name, (unit, what)) in enumerate(BUDGETS.items()):
        points = sorted(
            (float(p["sessions"]), float(p["budgets"][i]["used"]))
            for p in tried
            if i < len(p.get("budgets", []))
        )
        limit = at_path(doc, f"tried.0.budgets.{i}.limit")
        hlines = []
        if isinstance(limit, int | float):
            hlines = [
                RefLine(float(limit), f"limit {limit:,.0f}"),
                RefLine(fraction * limit, f"{fraction:.0%} of it", "fraction"),
            ]
        vlines = [RefLine(float(answer), f"{answer} sessions", "answer")] if answer else []
        series = [Series("the model at each count tried", points, markers=True)]
        chart = line_chart(
            series, x_label="sessions", y_label=unit, hlines=hlines, vlines=vlines, title=what
        )
        binds = " binds" if name == doc.get("limitingResource") else ""
        note = " — binds first" if binds else ""
        charts.append(
            f'<figure class="chart{binds}" data-budget="{esc(name)}"><figcaption>'
            f"{esc(what)}{esc(note)}</figcaption>{chart}{legend(series)}</figure>"
        )
    return f'<div class="charts">{"".join(charts)}</div>'


def _spend(doc: Mapping[str, Any]) -> str:
    rows = []
    for key in ("at", "next"):
        if at_path(doc, f"{key}.spend") is None:
            continue
        for who in ("orchestrator", "agents"):
            base = f"{key}.spend.{who}"
            rows.append(
                [
                    f"{at_path(doc, key + '.sessions')} sessions: {who}",
                    num(doc, base + ".graphqlPointsPerHr"),
                    num(doc, base + ".coreRequestsPerHr"),
                ]
            )
    if not rows:
        return ""
    return section(
        "Who spent",
        table(["count and who", "GraphQL points/h", "core requests/h"], rows),
        anchor="spend",
    )


def _verify(doc: Mapping[str, Any]) -> str:
    checked = doc.get("verify")
    if not checked:
        return ""
    items = "".join(
        f"<li><code>{esc(k)}</code>: {esc(v)}</li>"
        for k, v in checked.items()
        if not isinstance(v, list | dict)
    )
    return section("Checked in real time (--verify)", f"<ul>{items}</ul>", anchor="verify")


def capacity_page(doc: Mapping[str, Any]) -> str:
    """The page for one capacity answer's JSON object."""
    cell = doc.get("cell") or {}
    from_trace = doc.get("fromTrace") or {}
    if cell:
        title = f"{cell.get('scenario')} {cell.get('topology')}, {cell.get('profile')}"
        if cell.get("agents"):
            title += f", agents {cell['agents']}"
    else:
        title = f"replaying {from_trace.get('trace', '?')}"
    tried = ", ".join(str(p.get("sessions")) for p in doc.get("tried") or [])
    reproduce = "".join(f"<li><code>{esc(line)}</code></li>" for line in doc.get("reproduce") or [])
    body = [
        _headline(doc),
        cards(
            [
                card("Sessions that fit", num(doc, "sessions")),
                card("Budget fraction", num(doc, "budgetFraction", digits=0, pct=True)),
                card("Poll ceiling", num(doc, "pollCeilingSeconds", unit="s")),
                card("Counts tried", str(len(doc.get("tried") or []))),
            ]
        ),
        _refusals(doc),
        section("Margins", _margins(doc), _extrapolated(doc), anchor="margins"),
        section(
            "Spend against sessions",
            _curves(doc),
            anchor="curves",
            lead="Each budget at every count the search tried, against its limit (red) and the"
            " share of it a count may use (amber); the answer is the green line. The"
            " outlined chart is the budget that binds first.",
        ),
        _spend(doc),
        _verify(doc),
        section(
            "Reproduce",
            f"<p class=note>Counts tried: {esc(tried)}.</p><ul>{reproduce}</ul>",
            anchor="reproduce",
        ),
    ]
    return page(f"ghbench capacity: {title}", f"Capacity: {title}", [], body, kind="capacity")
