"""Ids of the objects the store derives (pure)."""

from __future__ import annotations

import re

from ghbench.emulator.graphql.resolvers.views import synthetic_id


def test_a_synthetic_id_is_stable_prefixed_and_differs_by_key() -> None:
    one = synthetic_id("RR", "PR_1:7")
    assert one == synthetic_id("RR", "PR_1:7")
    assert re.fullmatch(r"RR_kwDO[0-9A-F]{8}", one)
    assert synthetic_id("RR", "PR_1:8") != one and synthetic_id("RG", "PR_1:7") != one
