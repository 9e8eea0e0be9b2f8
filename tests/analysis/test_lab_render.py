"""The lab's cells, one sentence and two tables from its JSON object, by hand: whole
numbers without decimals, a binding budget or a wait that is not there as ``-``, and
the console and Markdown tables holding the same cells."""

from __future__ import annotations

from typing import Any

from ghbench.analysis.lab_render import LAB_HEADERS, lab_cells, lab_lead, lab_markdown, lab_text


def _row(policies: str, **more: Any) -> dict[str, Any]:
    row = {
        "policies": policies,
        "sessionsFit": 12.0,
        "binds": "graphql",
        "spendPerHour": {"graphql": 4_321.96, "core": 120.04},
        "absorbed": 0,
        "delayed": 3.5,
        "refused": 0,
        "longestWaitS": 75.0,
    }
    return row | more


DOC: dict[str, Any] = {
    "trace": "runs/agents.jsonl",
    "rows": 12_345,
    "recordedSessions": 3,
    "spanS": 900.0,
    "limits": {"graphql": 5000.0, "core": 5000.0},
    "budgetFraction": 0.8,
    "ceilingS": 60.0,
    "sessions": 3,
    "table": [
        _row("none"),
        _row("probe+cache", binds=None, longestWaitS=0, sessionsFit=1_234.04),
    ],
}


def test_the_cells_of_each_choice() -> None:
    assert lab_cells(DOC) == [
        ["none", "12", "graphql", "4,322", "120", "0", "3.5", "0", "1m 15s"],
        ["probe+cache", "1,234", "-", "4,322", "120", "0", "3.5", "0", "-"],
    ]
    assert all(len(row) == len(LAB_HEADERS) for row in lab_cells(DOC))


def test_the_lead_says_what_the_table_is_of() -> None:
    assert lab_lead(DOC) == (
        "12,345 rows, 3 recorded session(s) over 15m 0s; budgets graphql 5,000/h, core"
        " 5,000/h. Sessions fit: within 80% of every budget, nothing refused, no wait over"
        " 1m 0s. Spend and calls: at 3 session(s)."
    )


def test_the_console_table_aligns_its_columns() -> None:
    lines = lab_text(DOC).splitlines()
    assert lines[:3] == ["lab: runs/agents.jsonl", lab_lead(DOC), ""]
    header, first, second = lines[3:]
    assert header.startswith("policies   ") and first.startswith("none       ")
    assert len({len(header), len(first), len(second)}) == 1  # each cell padded to its column
    assert first.endswith("1m 15s") and second.endswith(" -")


def test_the_markdown_table_holds_the_same_cells() -> None:
    lines = lab_markdown(DOC).splitlines()
    assert lines[0] == "### Budget lab: `runs/agents.jsonl`"
    assert lines[4] == "| " + " | ".join(LAB_HEADERS) + " |"
    assert lines[5] == "|---" + "|---:" * (len(LAB_HEADERS) - 1) + "|"
    assert lines[6:] == ["| " + " | ".join(cells) + " |" for cells in lab_cells(DOC)]
