"""Which cells a matrix command selects, and their run order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghbench.errors import UsageError
from ghbench.matrix.selection import all_cells, parse_scales, select_cells
from ghbench.runspec.cells import PRIORITY, cell_from_id


def test_full_matrix_is_54_cells_priority_first() -> None:
    cells = all_cells()
    assert len(cells) == 54
    assert [c.id for c in cells[: len(PRIORITY)]] == list(PRIORITY)
    assert "S2-T2-1" not in {c.id for c in cells}
    rest = cells[len(PRIORITY) :]
    assert rest == sorted(rest)


def test_unknown_cell_lists_the_valid_ones() -> None:
    with pytest.raises(UsageError) as err:
        select_cells(["S2-T1-7"])
    msg = str(err.value)
    assert "--cells" in msg and "'S2-T1-7'" in msg and "S2-T1-50" in msg and "S6-T2-50" in msg


def test_selection_combines_and_dedupes() -> None:
    cells = select_cells(["s4-t1-10,S2-T1-1", "S6-T2-5"], priority=True)
    assert [c.id for c in cells] == [*PRIORITY, "S6-T2-5"]
    assert len(select_cells()) == 54
    assert [c.id for c in select_cells(scales=(2,))][:2] == ["S1-T1-2", "S1-T2-2"]


def test_parse_scales() -> None:
    assert parse_scales("10, 1,5,1") == (1, 5, 10)
    assert parse_scales(None) == (1, 5, 10, 25, 50)
    for bad in ("", "0", "a,b"):
        with pytest.raises(UsageError, match="--scales"):
            parse_scales(bad)


@given(st.sets(st.integers(min_value=1, max_value=200), min_size=1, max_size=8))
def test_matrix_size_for_any_scales(scales: set[int]) -> None:
    cells = all_cells(sorted(scales))
    singles = 1 if 1 in scales else 0
    assert len(cells) == 6 * (2 * len(scales) - singles)
    for c in cells:
        assert cell_from_id(c.id) == c
