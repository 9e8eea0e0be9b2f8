"""What GitHub's front end answers before the API sees a request.

``CONNECT host:port``: the emulator is gh's plain-HTTP proxy and tunnels nothing. Both
the core (h11 passes CONNECT to the app) and the server's httptools protocol
(which would otherwise reject the request line as invalid) answer with this refusal,
whose message says how to point gh at the emulator instead. gh itself shows only the
status text; curl ``-v`` shows the body.

A body over ``max_body_bytes``: 413, as GitHub's front end (nginx) answers one before
the API does, so it is neither charged nor counted against a limit (reports show
nginx's HTML page; ours says the same in GitHub's JSON shape).
"""

from __future__ import annotations

from ghbench.emulator.errors import DOCS
from ghbench.emulator.http import JSON_TYPE, EmuResponse, encode_json

__all__ = ["connect_refusal", "payload_too_large"]


def connect_refusal(target: str) -> EmuResponse:
    """The 405 answer to ``CONNECT target``, with what to do instead."""
    message = (
        f"ghbench emulator: refusing CONNECT {target} — only plain HTTP is served; set "
        "GH_HOST=github.localhost (and HTTP_PROXY to this emulator) so gh talks plain HTTP "
        "to the emulator"
    )
    host = target.rpartition(":")[0] if target.count(":") == 1 else target
    if host.lower() not in ("api.github.com", "github.com", "uploads.github.com", "?"):
        # gh speaks HTTPS to every enterprise host; through a proxy that is this CONNECT
        message += (
            f", or, for an enterprise host such as {host}, serve the emulator on a unix "
            "socket and point gh's http_unix_socket setting at it (gh then sends plain "
            "HTTP over the socket)"
        )
    body = encode_json({"message": message, "documentation_url": "ghbench emulator"})
    headers = {"content-type": JSON_TYPE, "allow": "GET, HEAD, POST, PUT, PATCH, DELETE"}
    return EmuResponse(405, headers, body)


def payload_too_large() -> EmuResponse:
    """The 413 for a body over the limit (answered before routing, free)."""
    body = encode_json({"message": "Request Entity Too Large", "documentation_url": DOCS})
    return EmuResponse(413, {"content-type": JSON_TYPE}, body)
