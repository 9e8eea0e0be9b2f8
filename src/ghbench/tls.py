"""One TLS context for every HTTP client ghbench makes.

httpx builds a new ``ssl.SSLContext`` for each client, loading certifi's CA bundle:
about 37 ms of CPU each time. ghbench makes a client per control call, per setup
action and per process, so they share this one (httpx's own defaults: certifi, or
``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set). A context is safe to share between
connections and threads.
"""

from __future__ import annotations

import functools
import ssl

import httpx

__all__ = ["tls_context"]


@functools.cache
def tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()
