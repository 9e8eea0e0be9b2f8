"""numpy loaded with one OpenBLAS thread, for the commands whose figures use no BLAS.

OpenBLAS starts a thread per core when numpy is imported, and they spin a while: on 2
cores about 0.1 s of wall and 0.15 s of CPU of a one-second command (``ghbench
simulate``, docs/performance.md). Inside ``one_blas_thread()`` an import of numpy gets
one thread unless the user's environment names a count; the environment is as it was
after (nothing ghbench starts later inherits the setting).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["one_blas_thread"]

_VARIABLE = "OPENBLAS_NUM_THREADS"


@contextmanager
def one_blas_thread() -> Iterator[None]:
    if _VARIABLE in os.environ:
        yield
        return
    os.environ[_VARIABLE] = "1"
    try:
        yield
    finally:
        os.environ.pop(_VARIABLE, None)
