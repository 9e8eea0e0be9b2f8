"""``batch_collection``: the youngest generation collected every ``YOUNG`` allocations
and what was loaded before frozen, both as they were after; ``frozen_for_exit``."""

from __future__ import annotations

import gc

import pytest

from ghbench.collector import YOUNG, batch_collection, frozen_for_exit


def test_inside_a_batch_the_threshold_is_raised_and_the_old_objects_frozen() -> None:
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with batch_collection():
        assert gc.get_threshold() == (YOUNG, *before[1:])  # the older generations' kept
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_failing_batch_puts_the_collector_back() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), batch_collection():
        raise RuntimeError("the simulation failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_at_exit_everything_is_out_of_the_collectors_reach() -> None:
    kept = [object() for _ in range(10)]
    try:
        frozen_for_exit()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()
