"""The garbage collector tuned for a batch of simulations (``simulate``, ``capacity``,
a matrix), and kept out of the process's exit.

A simulation allocates millions of short-lived objects (rows, answers, requests) and
keeps few cycles; with CPython's default threshold (700 allocations) the collector runs
thousands of times a second and walks the young objects each time: about a quarter of
a capacity search's CPU (docs/performance.md). Inside ``batch_collection()`` the
youngest generation is collected every ``YOUNG`` allocations, and what was loaded before
(modules, tables, compiled plans) is frozen out of the collector's reach, so a full
collection walks only what the batch made; both are as they were after.

When the program ends, the interpreter's shutdown runs full collections over whatever
is left (a matrix's parent holds millions of objects: 1 to 2 s; a ``simulate``, 0.1 s).
``frozen_for_exit`` freezes it all first, so the shutdown frees it without walking it.
ghbench closes what it writes before it returns (atomic writes, the traces' writers),
so no file waits on a collection to be flushed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG", "batch_collection", "frozen_for_exit"]

YOUNG = 20_000  # allocations between two collections of the youngest generation


@contextmanager
def batch_collection() -> Iterator[None]:
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def frozen_for_exit() -> None:
    """The process is about to end: nothing left for the collector to walk."""
    gc.freeze()
