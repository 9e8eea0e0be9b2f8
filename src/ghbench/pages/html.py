"""The pieces every page is made of: escaping, numbers tied to their JSON field, tables,
and the page shell with its one inline stylesheet.

A number a page shows is a ``<span class="num" data-field="PATH" data-value="RAW">``:
``PATH`` is where the number sits in the JSON the page was rendered from (dotted keys,
list indices as numbers: ``scorecard.totalCalls``, ``metrics.3.candidate.median``) and
``RAW`` its exact value, so a reader (and the tests, in Chromium) can hold every figure
on the page to the artifact. ``data-format`` says how the text shows it (``pct``: a
ratio as a percentage). Pure: strings in, strings out.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from ghbench import __version__
from ghbench.jsondoc import dig

__all__ = [
    "Cell",
    "Markup",
    "at_path",
    "badge",
    "card",
    "cards",
    "esc",
    "fmt_number",
    "num",
    "page",
    "section",
    "share_bar",
    "table",
    "verdict",
]

# What a table cell holds: text (escaped) or markup made by these helpers.
Cell = str


class Markup(str):
    """Text that is already HTML (made by these helpers): never escaped again."""

    __slots__ = ()


def esc(value: object) -> Markup:
    """``value`` as HTML text; ``Markup`` passes through."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape("" if value is None else str(value), quote=True))


def at_path(doc: Any, path: str) -> Any:
    """The value at a dotted ``path`` of a JSON document (``tried.0.budgets``); None when
    any step is missing."""
    return dig(doc, path.split("."))


def fmt_number(value: float | None, digits: int = 0, *, signed: bool = False) -> str:
    """Thousands separators, ``digits`` decimals (one more for a count's half median);
    ``n/a`` for None."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    if digits == 0 and value != int(value):
        digits = 1
    text = f"{value:+,.{digits}f}" if signed and value else f"{value:,.{digits}f}"
    return text.replace("-", "\u2212")  # a true minus sign reads better and still parses


def num(
    doc: Any,
    path: str,
    *,
    digits: int = 0,
    pct: bool = False,
    signed: bool = False,
    unit: str = "",
) -> Markup:
    """The number at ``path`` of ``doc``, shown and tagged with its field and raw value."""
    value = at_path(doc, path)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Markup(f'<span class="num na" data-field="{esc(path)}" data-value="null">n/a</span>')
    shown = fmt_number(value * 100 if pct else value, digits, signed=signed)
    if pct:
        shown += "%"
    elif unit:
        shown += f"\u2009{unit}"
    raw = json.dumps(value)
    fmt = ' data-format="pct"' if pct else ""
    attrs = f'data-field="{esc(path)}" data-value="{esc(raw)}"{fmt}'
    return Markup(f'<span class="num" {attrs}>{esc(shown)}</span>')


def badge(text: str, level: str) -> Markup:
    """A small coloured label: ``level`` is ok | warn | bad | info."""
    return Markup(f'<span class="badge {esc(level)}">{esc(text)}</span>')


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    numeric_from: int = 1,
    optional: Collection[int] = (),
    caption: str | None = None,
    cls: str = "",
) -> Markup:
    """A table in a box that scrolls sideways on a narrow screen; columns from
    ``numeric_from`` on are right-aligned, the ``optional`` ones left out on a phone."""

    def attrs(i: int) -> str:
        classes = [name for name, on in (("r", i >= numeric_from), ("opt", i in optional)) if on]
        return f' class="{" ".join(classes)}"' if classes else ""

    head = "".join(f"<th{attrs(i)}>{esc(h)}</th>" for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = "".join(f"<td{attrs(i)}>{esc(c)}</td>" for i, c in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return Markup(
        f'<div class="scroll"><table class="{esc(cls)}">{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def verdict(level: str, title: str, items: Iterable[str] = ()) -> Markup:
    """The first thing a page says: ``level`` ok | warn | bad, a headline, its reasons."""
    lis = "".join(f"<li>{esc(i)}</li>" for i in items)
    return Markup(
        f'<div class="verdict {esc(level)}" data-verdict="{esc(level)}"><h2>{esc(title)}</h2>'
        + (f"<ul>{lis}</ul>" if lis else "")
        + "</div>"
    )


def card(label: str, value: str, sub: str = "") -> Markup:
    extra = f'<div class="sub">{esc(sub)}</div>' if sub else ""
    return Markup(
        f'<div class="card"><div class="label">{esc(label)}</div>'
        f'<div class="value">{esc(value)}</div>{extra}</div>'
    )


def cards(items: Iterable[str]) -> Markup:
    return Markup(f'<div class="cards">{"".join(items)}</div>')


def share_bar(share: float | None, *, cls: str = "") -> Markup:
    """A bar as wide as ``share`` (0-1) of a 6 em track; nothing for None."""
    if share is None or not math.isfinite(share):
        return Markup("")
    width = max(0.0, min(1.0, share)) * 6
    return Markup(f'<span class="bar {esc(cls)}" style="width:{width:.2f}em"></span>')


def section(title: str, *parts: str, anchor: str = "", lead: str = "") -> Markup:
    ident = f' id="{esc(anchor)}"' if anchor else ""
    intro = f'<p class="lead">{esc(lead)}</p>' if lead else ""
    return Markup(f"<section{ident}><h2>{esc(title)}</h2>{intro}{''.join(parts)}</section>")


# One stylesheet for every page: system fonts, no web fonts, no images; readable from
# a 360-pixel phone (tables scroll in their box, charts scale with their viewBox) to
# paper (print: no shadows, sections kept whole where they fit, colours kept).
_CSS = """
:root{--fg:#1d2430;--muted:#5b6576;--line:#d9dee7;--bg:#fff;--soft:#f4f6f9;
--ok:#1a7f37;--ok-bg:#e6f4ea;--warn:#9a6700;--warn-bg:#fff4d6;--bad:#c62828;--bad-bg:#fdecea;
--info:#0b5cad;--info-bg:#e8f1fb;--c0:#0b5cad;--c1:#d1495b;--c2:#2a9d8f;--c3:#8e6c8a;--c4:#e09f3e}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;color:var(--fg);background:var(--bg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:16px}
header.top h1{font-size:1.45rem;margin:.2rem 0 .3rem}
header.top .meta{color:var(--muted);font-size:.88rem;margin:0}
h2{font-size:1.15rem;margin:1.6rem 0 .6rem;padding-bottom:.25rem;
border-bottom:1px solid var(--line)}
h3{font-size:1rem;margin:1rem 0 .4rem}
p.lead,.note{color:var(--muted);font-size:.9rem}
.verdict{border-radius:8px;padding:12px 16px;margin:14px 0;border-left:6px solid}
.verdict h2{border:0;margin:.1rem 0 .35rem;padding:0;font-size:1.25rem}
.verdict.ok{background:var(--ok-bg);border-color:var(--ok)}
.verdict.warn{background:var(--warn-bg);border-color:var(--warn)}
.verdict.bad{background:var(--bad-bg);border-color:var(--bad)}
.verdict ul{margin:.3rem 0 0;padding-left:1.2rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px;margin:10px 0}
.card{background:var(--soft);border-radius:8px;padding:10px 12px}
.card .label{color:var(--muted);font-size:.8rem}
.card .value{font-size:1.3rem;font-weight:600}
.card .sub{color:var(--muted);font-size:.8rem}
.warning{border:1px solid var(--line);border-left:5px solid var(--warn);border-radius:6px;
padding:8px 12px;margin:8px 0;background:#fffdf6}
.warning.bad{border-left-color:var(--bad);background:#fff8f7}
.warning .kind{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:600}
.warning .action{margin:.2rem 0 0}
.warning .figs{color:var(--muted);font-size:.85rem}
.badge{display:inline-block;border-radius:999px;padding:1px 9px;font-size:.78rem;font-weight:600}
.badge.ok{background:var(--ok-bg);color:var(--ok)}.badge.warn{background:var(--warn-bg);color:var(--warn)}
.badge.bad{background:var(--bad-bg);color:var(--bad)}.badge.info{background:var(--info-bg);color:var(--info)}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:6px 0}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}
td.r,th.r{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;
overflow-wrap:anywhere}
.bar{display:inline-block;height:.7em;background:var(--c0);border-radius:2px;vertical-align:middle}
.bar.c1{background:var(--c1)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:14px}
figure.chart{margin:0;background:var(--soft);border-radius:8px;padding:8px 8px 4px}
figure.chart.binds{outline:2px solid var(--bad)}
figure.chart figcaption{font-size:.88rem;font-weight:600;margin:0 4px 4px}
figure.chart svg{width:100%;height:auto;display:block}
figure.chart .legend{font-size:.78rem;color:var(--muted);margin:2px 4px}
svg text{font:13px system-ui,sans-serif;fill:#3b4452}
svg .grid{stroke:#e3e7ee;stroke-width:1}
svg .axis{stroke:#9aa3b2;stroke-width:1}
svg .s0{stroke:var(--c0)}svg .s1{stroke:var(--c1)}svg .s2{stroke:var(--c2)}
svg .s3{stroke:var(--c3)}svg .s4{stroke:var(--c4)}
svg .f0{fill:var(--c0)}svg .f1{fill:var(--c1)}svg .f2{fill:var(--c2)}
svg .f3{fill:var(--c3)}svg .f4{fill:var(--c4)}
svg .line{fill:none;stroke-width:1.8}
svg .limit{stroke:var(--bad);stroke-width:1.4;stroke-dasharray:6 3}
svg .fraction{stroke:var(--warn);stroke-width:1.2;stroke-dasharray:3 3}
svg .answer{stroke:var(--ok);stroke-width:1.4;stroke-dasharray:2 2}
svg .band{fill:var(--ok);fill-opacity:.08}
svg .ref-label{font-size:12px}
ul.plain{list-style:none;padding:0;margin:.3rem 0}
footer{color:var(--muted);font-size:.8rem;margin:2rem 0 1rem;border-top:1px solid var(--line);
padding-top:.5rem}
td code{white-space:nowrap}
@media (max-width:600px){main{padding:10px}body{font-size:14px}.opt{display:none}
.charts{grid-template-columns:1fr}header.top h1{font-size:1.2rem}}
@media print{@page{margin:12mm}body{font-size:10pt}main{max-width:none;padding:0}
.charts{grid-template-columns:1fr 1fr}section,figure.chart,.verdict,.warning{break-inside:avoid}
h2{break-after:avoid}.scroll{overflow:visible}th{white-space:normal}
td code{white-space:normal;word-break:break-all}th,td{padding:3px 4px}table{font-size:8pt}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


def page(title: str, heading: str, meta: Sequence[str], body: Iterable[str], *, kind: str) -> str:
    """A whole self-contained document: ``kind`` names the page type (``scorecard``,
    ``compare``, ``capacity``, ``matrix``) on ``<html data-page=…>``."""
    meta_html = " · ".join(esc(m) for m in meta if m)
    return (
        "<!doctype html>\n"
        f'<html lang="en" data-page="{esc(kind)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        # nothing on this page may be fetched: the policy forbids it, not just our care
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';'
        " style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body><main>"
        f'<header class="top"><h1>{esc(heading)}</h1><p class="meta">{meta_html}</p></header>'
        + "".join(body)
        + f"<footer>ghbench {esc(__version__)} · one self-contained file: no script, no"
        " fonts, nothing fetched when opened.</footer></main></body></html>\n"
    )
