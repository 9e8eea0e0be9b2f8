"""The lab page from the lab's JSON object, as text: the same cells as the console and
the Markdown, every policy explained, and the trace's name shown as text."""

from __future__ import annotations

from analysis.test_lab_render import DOC as LAB
from ghbench.analysis.lab_render import LAB_HEADERS, lab_cells, lab_lead
from ghbench.pages.html import esc
from ghbench.pages.lab_page import lab_page
from ghbench.policies.spec import POLICY_TABLE

from .pagecheck import external_references

DOC = LAB | {"trace": "runs/<agents>.jsonl"}


def test_the_page_holds_the_tables_cells_and_every_policy() -> None:
    html = lab_page(DOC)
    for cells in lab_cells(DOC):
        assert all(f">{esc(c)}<" in html for c in cells), cells
    assert all(f">{esc(h)}<" in html for h in LAB_HEADERS)
    assert esc(lab_lead(DOC)) in html
    for name, info in POLICY_TABLE.items():
        assert f">{esc(name)}<" in html and esc(info.what) in html
    assert external_references(html) == [] and 'data-page="lab"' in html


def test_the_traces_name_is_text() -> None:
    html = lab_page(DOC)
    assert "<title>ghbench lab: runs/&lt;agents&gt;.jsonl</title>" in html
    assert "<agents>" not in html
