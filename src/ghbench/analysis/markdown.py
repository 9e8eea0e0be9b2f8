"""Markdown tables, written one way for every report that has one (``baseline.md``,
``compare``'s PR comment, the lab's job summary). Pure: lines in, lines out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["markdown_table", "md_escape"]

# a column's separator cell by its alignment letter: l(eft) or r(ight)
_RULES = {"l": "---", "r": "---:"}


def md_escape(text: str) -> str:
    """``|`` escaped, so a cell (or a code span in one) never splits its row."""
    return text.replace("|", "\\|")


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], align: str = ""
) -> list[str]:
    """A GitHub-flavoured Markdown table: the header row, the separator row, one line a
    row, every cell escaped (``md_escape``). ``align``: one letter a column, ``l`` left or
    ``r`` right (numbers); the columns it does not reach are left-aligned."""
    if len(align) > len(headers) or set(align) - set(_RULES):
        raise ValueError(f"align {align!r}: one letter, l or r, for each of {len(headers)} columns")
    rules = [_RULES[a] for a in align.ljust(len(headers), "l")]

    def line(cells: Iterable[str]) -> str:
        return "| " + " | ".join(md_escape(c) for c in cells) + " |"

    return [line(headers), "|" + "|".join(rules) + "|", *(line(r) for r in rows)]
