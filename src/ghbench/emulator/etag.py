"""Per-token weak ETags and ``If-None-Match`` matching (weak comparison, RFC 9110)."""

from __future__ import annotations

import hashlib

__all__ = ["etag_matches", "make_etag"]


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
