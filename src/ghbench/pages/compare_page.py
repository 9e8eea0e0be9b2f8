"""``ghbench compare`` as one HTML page: the thresholds' verdicts first, then every figure
before and after, section by section, each row with a pair of bars.

Rendered from the comparison's JSON object (``ghbench compare --json``, ``kind:
"compare"``), so the page and the file say the same numbers: each is tagged with its
path in that object. Pure: the object in, the page out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.analysis.compare_metrics import SCALAR_METRICS, SECTIONS
from ghbench.pages.html import Markup, at_path, esc, num, page, section, table, verdict

__all__ = ["compare_page"]

# compare's own decimals per metric (per-operation figures are counts)
_DIGITS = {m.name: m.digits for m in SCALAR_METRICS}


def _digits(name: str) -> int:
    return _DIGITS.get(name, 0)


def _spread(doc: Mapping[str, Any], path: str, digits: int) -> Markup:
    text = num(doc, f"{path}.median", digits=digits)
    low, high = at_path(doc, f"{path}.min"), at_path(doc, f"{path}.max")
    if low is not None and high is not None and low != high:
        text = Markup(
            f"{text} <span class=note>[{num(doc, f'{path}.min', digits=digits)}–"
            f"{num(doc, f'{path}.max', digits=digits)}]</span>"
        )
    return text


def _pair(base: float | None, cand: float | None) -> Markup:
    """Two bars, before and after, as long as each side's share of the larger."""
    values = [v for v in (base, cand) if isinstance(v, int | float)]
    top = max((abs(v) for v in values), default=0.0)
    if not top:
        return Markup("")
    bars = []
    for value, cls in ((base, ""), (cand, "c1")):
        width = 0.0 if value is None else abs(value) / top * 6
        bars.append(f'<span class="bar {cls}" style="width:{width:.2f}em"></span>')
    return Markup("<br>".join(bars))


def _change_pct(doc: Mapping[str, Any], i: int) -> Markup:
    if at_path(doc, f"metrics.{i}.fromZero"):
        return Markup("from 0")
    return num(doc, f"metrics.{i}.changePct", digits=1, signed=True, unit="%")


def _metric_rows(doc: Mapping[str, Any], section_id: str, with_verdict: bool) -> list[list[str]]:
    rows = []
    for i, m in enumerate(doc.get("metrics") or []):
        if m.get("section") != section_id:
            continue
        base, cand = m["baseline"], m["candidate"]
        # an operation's calls always; its opaque calls and points when a run has some
        hidden = section_id == "operations" and not m["name"].endswith("].calls")
        if hidden and not (any(base["values"]) or any(cand["values"])):
            continue
        d = _digits(m["name"])
        row: list[str] = [
            Markup(f"<code>{esc(m['name'])}</code>"),
            _spread(doc, f"metrics.{i}.baseline", d),
            _spread(doc, f"metrics.{i}.candidate", d),
            num(doc, f"metrics.{i}.change", digits=d, signed=True),
            _change_pct(doc, i),
            _pair(base.get("median"), cand.get("median")),
        ]
        if with_verdict:
            row.append(esc(m.get("verdict")))
        rows.append(row)
    return rows


def _thresholds(doc: Mapping[str, Any]) -> str:
    results = doc.get("thresholds") or []
    if not results:
        return verdict(
            "ok", "No thresholds given: the change only", ["Add --fail EXPR to gate on a change."]
        )
    failed = doc.get("thresholdsFailed", 0)
    items = []
    for i, r in enumerate(results):
        mark = "FAIL" if r.get("failed") else "pass"
        if r.get("missing"):
            seen = esc(r["missing"])
        elif r.get("fromZero"):
            seen = Markup("observed: from 0 (no baseline figure to take a change from)")
        else:
            unit = "%" if r.get("relative") else ""
            seen = Markup(f"observed {num(doc, f'thresholds.{i}.observed', digits=2, unit=unit)}")
        items.append(Markup(f"<b>{mark}</b> <code>{esc(r['expression'])}</code>: {seen}"))
    title = (
        f"{failed} of {len(results)} threshold(s) failed"
        if failed
        else f"All {len(results)} threshold(s) held"
    )
    return verdict("bad" if failed else "ok", title, items)


def _side(doc: Mapping[str, Any], role: str) -> list[str]:
    side = doc[role]
    cell = side["cell"]
    sources = Markup("<br>".join(f"<code>{esc(s)}</code>" for s in side.get("sources") or []))
    git = ", ".join(side.get("git") or []) or "-"
    return [
        role,
        esc(cell.get("scenarioId")),
        num(doc, f"{role}.cell.sessions"),
        num(doc, f"{role}.cell.windowSeconds", unit="s"),
        num(doc, f"{role}.runs"),
        esc(git),
        sources,
    ]


def compare_page(doc: Mapping[str, Any]) -> str:
    """The page for one comparison's JSON object."""
    single = all((at_path(doc, f"{role}.runs") or 0) <= 1 for role in ("baseline", "candidate"))
    headers = ["metric", "baseline", "candidate", "change", "change %", "before / after"]
    if not single:
        headers.append("runs say")
    sections = [
        section(
            "Thresholds",
            _thresholds(doc),
            anchor="thresholds",
            lead="Relative thresholds (+10%) follow the baseline; absolute ones hold the"
            " candidate to a number (docs/compare.md).",
        ),
        section(
            "What was compared",
            table(
                ["side", "cell", "sessions", "window", "runs", "git", "scorecards"],
                [_side(doc, "baseline"), _side(doc, "candidate")],
                numeric_from=2,
            ),
            anchor="sides",
        ),
    ]
    for section_id, heading in SECTIONS.items():
        rows = _metric_rows(doc, section_id, not single)
        if rows:
            sections.append(section(heading, table(headers, rows), anchor=f"section-{section_id}"))
    notes = "".join(f"<li>{esc(n)}</li>" for n in doc.get("notes") or [])
    sections.append(section("Notes", f"<ul>{notes}</ul>", anchor="notes"))
    base_cell = at_path(doc, "baseline.cell.scenarioId") or "?"
    cand_cell = at_path(doc, "candidate.cell.scenarioId") or "?"
    title = base_cell if base_cell == cand_cell else f"{base_cell} vs {cand_cell}"
    meta = [
        "bars: baseline (blue) and candidate (red), each against the larger",
        "same cell" if doc.get("sameCell") else "different cells (--allow-different-cells)",
    ]
    return page(f"ghbench compare: {title}", f"Compare: {title}", meta, sections, kind="compare")
