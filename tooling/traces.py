"""Traces the tests and the bench scripts both feed to ghbench.

``SPAN_ROWS``: two rows 9,998 years apart (issue 12, case 4). Per-minute arrays sized by
the span they cover asked 7.94 GiB for it; bucketing by rows needs a few MiB. The memory
test runs it under an address-space limit, and ``bench/bench_memory.py`` measures it.
"""

from __future__ import annotations

__all__ = ["SPAN_ROWS"]

SPAN_ROWS = (
    b'{"timestamp":"0001-01-01T00:00:00.000Z","operation":"gh.pr.list","ok":true,'
    b'"rateLimitRemaining":4999,"rateLimitLimit":5000,"rateLimitReset":1,'
    b'"rateLimitResource":"core"}\n'
    b'{"timestamp":"9999-12-31T23:59:59.000Z","operation":"gh.pr.list","ok":true,'
    b'"rateLimitRemaining":4998,"rateLimitLimit":5000,"rateLimitReset":253402300799,'
    b'"rateLimitResource":"core"}\n'
)
