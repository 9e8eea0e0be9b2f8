"""ghbench.pages.html: the pages' HTML helpers, pure functions of their arguments."""

from __future__ import annotations

import html
import json
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.pages.html import (
    Markup,
    at_path,
    esc,
    fmt_number,
    num,
    share_bar,
    table,
    verdict,
)

numbers = st.one_of(st.integers(-(10**12), 10**12), st.floats(-1e12, 1e12, allow_nan=False))


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.text())
def test_esc_is_text_read_back_whole_and_never_twice(text: str) -> None:
    once = esc(text)
    assert html.unescape(once) == text
    assert not re.search(r"[<>\"']", once)
    assert esc(once) == once  # Markup passes through: escaped once only


def test_esc_of_none_is_empty() -> None:
    assert esc(None) == "" and isinstance(esc(None), Markup)


def test_at_path_walks_mappings_and_list_indexes_and_misses_to_none() -> None:
    doc = {"a": {"b": [10, {"c": 3}]}}
    assert at_path(doc, "a.b.0") == 10
    assert at_path(doc, "a.b.1.c") == 3
    assert at_path(doc, "a.b.2") is None
    assert at_path(doc, "a.x.c") is None
    assert at_path(doc, "a.b.first") is None


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(numbers)
def test_fmt_number_reads_back_as_the_value_it_shows(value: float) -> None:
    shown = fmt_number(value, 2)
    back = float(shown.replace(",", "").replace("\u2212", "-"))
    assert math.isclose(back, value, abs_tol=0.005 + abs(value) * 1e-12)


def test_fmt_number_marks_what_it_cannot_show() -> None:
    assert fmt_number(None) == fmt_number(float("nan")) == fmt_number(float("inf")) == "n/a"
    assert fmt_number(1234) == "1,234"
    assert fmt_number(2.5) == "2.5"  # a half (a count's median) keeps its decimal
    assert fmt_number(-3, signed=True) == "\u22123" and fmt_number(3, signed=True) == "+3"


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(numbers)
def test_num_tags_the_field_and_its_raw_value(value: float) -> None:
    shown = num({"x": {"y": value}}, "x.y")
    field = re.search(r'data-field="([^"]*)" data-value="([^"]*)"', shown)
    assert field is not None
    assert field.group(1) == "x.y"
    assert json.loads(html.unescape(field.group(2))) == value


def test_num_of_a_missing_or_boolean_value_is_na() -> None:
    for doc in ({}, {"x": True}, {"x": "7"}):
        assert 'data-value="null">n/a<' in num(doc, "x")
    assert num({"x": 0.25}, "x", pct=True).endswith(">25%</span>")


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)))
def test_share_bar_is_never_wider_than_its_track(share: float | None) -> None:
    bar = share_bar(share)
    if share is None or not math.isfinite(share):
        assert bar == ""
        return
    width = re.search(r"width:([\d.]+)em", bar)
    assert width is not None and 0.0 <= float(width.group(1)) <= 6.0


def test_table_escapes_its_cells_and_aligns_numbers_from_the_column_given() -> None:
    out = table(["name", "calls"], [["<b>", "3"]], optional=(1,), caption="c&d")
    assert "<td>&lt;b&gt;</td>" in out
    assert '<td class="r opt">3</td>' in out and '<th class="r opt">calls</th>' in out
    assert "<caption>c&amp;d</caption>" in out


def test_verdict_lists_its_reasons_only_when_there_are_some() -> None:
    assert "<ul>" not in verdict("ok", "fine")
    assert "<li>a &lt;b&gt;</li>" in verdict("bad", "broken", ["a <b>"])
    assert 'data-verdict="warn"' in verdict("warn", "t")
