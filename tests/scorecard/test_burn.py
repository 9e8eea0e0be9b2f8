"""Per-row burn: grouping by reset, first − last, clamping, ordering, first-call cost."""

from __future__ import annotations

import numpy as np

from ghbench.scorecard.burn import resource_burn
from ghbench.trace.schema import TraceRow

from .helpers import RESET_A, RESET_B, frame, gql, opaque, rest


def _burn(*rows: TraceRow, resource: str = "core") -> tuple[int, int, int, int | None]:
    b = resource_burn(frame(*rows), resource)
    return b.rows, b.groups, b.delta, b.latest_reset_s


def test_no_rows_no_burn() -> None:
    b = resource_burn(frame(), "core")
    assert (b.rows, b.groups, b.delta, b.latest_reset_s, b.straddled) == (0, 0, 0, None, False)


def test_rows_without_headers_or_of_another_resource_are_ignored() -> None:
    assert _burn(opaque(1.0), gql(2.0, 4000), gql(3.0, None)) == (0, 0, 0, None)


def test_one_row_has_a_group_but_no_delta() -> None:
    assert _burn(rest(1.0, 4990)) == (1, 1, 0, RESET_A)


def test_one_group_is_first_minus_last() -> None:
    assert _burn(rest(1.0, 4990), rest(2.0, 4985), rest(3.0, 4970)) == (3, 1, 20, RESET_A)


def test_a_reset_starts_a_new_group_and_deltas_add_up() -> None:
    rows = [
        rest(1.0, 120),
        rest(2.0, 100),  # group A: 20
        rest(3.0, 4999, reset=RESET_B),  # the bucket refilled: not a negative burn
        rest(4.0, 4990, reset=RESET_B),  # group B: 9
    ]
    rows_used, groups, delta, latest = _burn(*rows)
    assert (rows_used, groups, delta, latest) == (4, 2, 29, RESET_B)
    assert resource_burn(frame(*rows), "core").straddled


def test_remaining_rising_inside_a_group_counts_zero_not_negative() -> None:
    # calls that completed out of order: the later one reports more remaining
    assert _burn(rest(1.0, 4980), rest(2.0, 4990))[2] == 0


def test_groups_are_ordered_by_completion_time_not_file_order() -> None:
    rows = [rest(3.0, 4970), rest(1.0, 4990), rest(2.0, 4985)]
    assert _burn(*rows)[2] == 20


def test_file_order_breaks_ties_in_completion_time() -> None:
    assert _burn(rest(1.0, 4990), rest(1.0, 4980))[2] == 10
    assert _burn(rest(1.0, 4980), rest(1.0, 4990))[2] == 0


def test_groups_that_interleave_in_time_are_still_separate() -> None:
    rows = [
        rest(1.0, 50),
        rest(2.0, 4999, reset=RESET_B),
        rest(3.0, 40),
        rest(4.0, 4995, reset=RESET_B),
    ]
    assert _burn(*rows)[1:3] == (2, 14)


def test_first_call_cost_uses_known_cost_else_one() -> None:
    f = frame(
        gql(1.0, 4990, cost=7), gql(2.0, 4980, cost=10), gql(3.0, 4000, cost=None, reset=RESET_B)
    )
    known = f.graphql_cost != np.iinfo(np.int64).min
    b = resource_burn(f, "graphql", (np.where(known, f.graphql_cost, 0), known))
    assert b.delta == 10
    assert b.first_call_cost == 7 + 1
    assert b.consumed == 18
    assert resource_burn(f, "graphql").first_call_cost == 2  # no costs given: 1 each
