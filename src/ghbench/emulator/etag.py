"""Conditional requests: per-token weak ETags and ``If-None-Match`` matching (weak
comparison, RFC 9110); ``Last-Modified`` dates and ``If-Modified-Since`` (RFC 9110's
HTTP-date, whole seconds)."""

from __future__ import annotations

import hashlib
from email.utils import formatdate, parsedate_to_datetime

__all__ = ["etag_matches", "http_date", "make_etag", "not_modified_since"]


def make_etag(token_id: str, body: bytes) -> str:
    """``W/"<64 hex>"`` from the caller's token id and the representation: another
    token gets a different tag, so its first conditional request is a 200, as on GitHub."""
    digest = hashlib.blake2b(body, digest_size=32, key=token_id.encode()[:64])
    return f'W/"{digest.hexdigest()}"'


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag[:2] in ("W/", "w/") else tag


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison against a header that may list several tags or be ``*``."""
    wanted = _opaque(etag)
    for raw in if_none_match.split(","):
        candidate = raw.strip()
        if candidate == "*" or _opaque(candidate) == wanted:
            return True
    return False


def http_date(epoch: float) -> str:
    """``Last-Modified``'s form: ``Tue, 15 Nov 1994 08:12:31 GMT``."""
    return formatdate(int(epoch), usegmt=True)


def not_modified_since(if_modified_since: str, last_modified: float) -> bool:
    """Whether a representation last modified at ``last_modified`` is unchanged since
    the header's date (an unreadable date never matches, as RFC 9110 says)."""
    try:
        since = parsedate_to_datetime(if_modified_since).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    return int(last_modified) <= since
