"""Relay pages over plain lists (pure)."""

from __future__ import annotations

import base64

import pytest

from ghbench.emulator.graphql.resolvers.connections import paginate

ITEMS = list(range(10))


def test_first_then_after_walks_the_list_with_opaque_cursors() -> None:
    page = paginate(ITEMS, first=4)
    assert page.nodes == [0, 1, 2, 3] and page.totalCount == 10
    info = page.pageInfo
    assert (info["hasNextPage"], info["hasPreviousPage"]) == (True, False)
    following = paginate(ITEMS, first=4, after=info["endCursor"])
    assert following.nodes == [4, 5, 6, 7] and following.pageInfo["hasPreviousPage"]
    assert [e.node for e in following.edges] == following.nodes
    assert following.edges[0].cursor == following.pageInfo["startCursor"]


def test_last_and_before_count_back_from_the_end() -> None:
    assert paginate(ITEMS, last=3).nodes == [7, 8, 9]
    before = paginate(ITEMS, first=2, after=None).edges[1].cursor  # item 1
    assert paginate(ITEMS, last=5, before=paginate(ITEMS, first=6).pageInfo["endCursor"]).nodes == [
        0, 1, 2, 3, 4
    ]  # fmt: skip
    assert paginate(ITEMS, before=before).nodes == [0]


@pytest.mark.parametrize("cursor", ["", "not base64!", base64.b64encode(b"nonsense").decode()])
def test_a_cursor_that_is_not_ours_is_ignored(cursor: str) -> None:
    assert paginate(ITEMS, first=2, after=cursor).nodes == [0, 1]


def test_an_empty_page_has_no_cursors_and_aggregates_see_the_whole_list() -> None:
    end = paginate(ITEMS, first=10).pageInfo["endCursor"]
    page = paginate(ITEMS, first=5, after=end)
    assert page.nodes == [] and page.pageInfo["startCursor"] is None
    assert page.pageInfo["endCursor"] is None and not page.pageInfo["hasNextPage"]
    assert list(page.all_items) == ITEMS and page.totalCount == 10
    assert paginate(ITEMS, first=0).nodes == [] and paginate([], first=5).totalCount == 0
