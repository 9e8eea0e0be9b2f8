"""``ghbench lab`` as one HTML page: the recorded fleet under each policy and useful
combination, the same cells as the console and the Markdown (``analysis.lab_render``),
and what each policy stands for. Rendered from the lab's JSON object. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghbench.analysis.lab_render import LAB_HEADERS, lab_cells, lab_lead
from ghbench.pages.html import page, section, table
from ghbench.policies.spec import POLICY_TABLE

__all__ = ["lab_page"]


def lab_page(doc: Mapping[str, Any]) -> str:
    policies = table(
        ("policy", "where", "what it does", "stands for"),
        ((name, info.where, info.what, info.stands_for) for name, info in POLICY_TABLE.items()),
        numeric_from=99,
    )
    body = [
        section("Each policy, and what it buys", table(LAB_HEADERS, lab_cells(doc)),
                anchor="table", lead=lab_lead(doc)),
        section("The policies", policies, anchor="policies"),
    ]  # fmt: skip
    return page(
        f"ghbench lab: {doc['trace']}",
        "Budget lab",
        [str(doc["trace"]), f"{doc['sessions']} session(s)"],
        body,
        kind="lab",
    )
