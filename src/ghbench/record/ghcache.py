"""Tell gh's disk-cache hits from real requests.

gh's response cache sits inside its HTTP logger, so a response served from disk is
logged exactly like one from the server. Two facts separate them:

- only requests gh marks cacheable carry an ``X-Gh-Cache-Ttl`` header (gh 2.102 logs it
  for its own cached queries but not for ``gh api --cache``, so that command's argv
  says it instead);
- gh stores each response in a file (status line + headers + body) written when the
  response arrived. A hit replays a file written *before* the request started; a
  miss writes its file *after*.

So a cacheable exchange is a hit when a cache file holds the same response
(status and identifying headers: Date, ETag, request id, rate-limit counters) and
was last modified before the request started. File mtimes come from the kernel's
coarse clock, which can lag by a few milliseconds, hence ``MTIME_SLACK_S``.

``find_cache_hits`` is pure; ``scan_cache`` reads the cache directories.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.record.exchange import Exchange

__all__ = [
    "CACHE_TTL_HEADER",
    "MTIME_SLACK_S",
    "CacheEntry",
    "cache_dirs",
    "cache_requested",
    "find_cache_hits",
    "is_cacheable",
    "scan_cache",
]

CACHE_TTL_HEADER = "x-gh-cache-ttl"
MTIME_SLACK_S = 0.02
# Headers that tell one stored response from another; compared when both sides have them.
_IDENTIFYING = (
    "date",
    "etag",
    "last-modified",
    "x-github-request-id",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-ratelimit-used",
)
_HEAD_BYTES = 16384
_MAX_FILES = 5000


@dataclass(frozen=True)
class CacheEntry:
    """A stored response: when it was written, its status and lower-cased headers."""

    mtime: float
    status: int
    headers: Mapping[str, str]


def is_cacheable(exchange: Exchange) -> bool:
    return CACHE_TTL_HEADER in exchange.request_headers


def cache_requested(args: Sequence[str]) -> bool:
    """``gh api ... --cache TTL`` (argv after ``gh``): every request it makes may be
    answered from gh's cache."""
    return bool(args) and args[0] == "api" and any(a.partition("=")[0] == "--cache" for a in args)


def _same_response(exchange: Exchange, entry: CacheEntry) -> bool:
    if exchange.status != entry.status:
        return False
    shared = [h for h in _IDENTIFYING if h in exchange.response_headers and h in entry.headers]
    if not shared:
        return False
    return all(exchange.response_headers[h] == entry.headers[h] for h in shared)


def find_cache_hits(
    exchanges: Sequence[Exchange], entries: Sequence[CacheEntry], *, all_cacheable: bool = False
) -> set[int]:
    """Indexes of the exchanges gh answered from its cache (``all_cacheable``: the
    command asked for its cache, ``cache_requested``)."""
    hits: set[int] = set()
    for i, ex in enumerate(exchanges):
        cacheable = all_cacheable or is_cacheable(ex)
        if not cacheable or ex.status is None or ex.started_at is None:
            continue
        cutoff = ex.started_at - MTIME_SLACK_S
        if any(e.mtime < cutoff and _same_response(ex, e) for e in entries):
            hits.add(i)
    return hits


def cache_dirs(env: Mapping[str, str]) -> list[Path]:
    """Where gh keeps its cache: ``$TMPDIR/gh-cli-cache`` (go-gh v1, gh 2.23) and
    ``$XDG_CACHE_HOME/gh`` or ``~/.cache/gh`` (go-gh v2)."""
    dirs = [Path(env.get("TMPDIR") or "/tmp") / "gh-cli-cache"]
    xdg = env.get("XDG_CACHE_HOME")
    if xdg:
        dirs.append(Path(xdg) / "gh")
    elif env.get("HOME"):
        dirs.append(Path(env["HOME"]) / ".cache" / "gh")
    return dirs


def _parse_stored(head: bytes) -> tuple[int, dict[str, str]] | None:
    header_end = head.find(b"\r\n\r\n")
    if header_end < 0 or not head.startswith(b"HTTP/"):
        return None
    lines = head[:header_end].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        return None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


def _files(root: Path) -> Iterator[Path]:
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            yield Path(dirpath) / name


def scan_cache(dirs: Sequence[Path], *, before: float) -> list[CacheEntry]:
    """Stored responses last written before ``before`` (epoch s); unreadable files skipped."""
    entries: list[CacheEntry] = []
    seen = 0
    for root in dirs:
        if not root.is_dir():
            continue
        for path in _files(root):
            seen += 1
            if seen > _MAX_FILES:
                return entries
            try:
                mtime = path.stat().st_mtime
                if mtime >= before:
                    continue
                with path.open("rb") as fh:
                    head = fh.read(_HEAD_BYTES)
            except OSError:
                continue
            parsed = _parse_stored(head)
            if parsed is not None:
                entries.append(CacheEntry(mtime, parsed[0], parsed[1]))
    return entries
