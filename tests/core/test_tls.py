"""``tls_context``: one context, made once, that verifies GitHub's certificates."""

from __future__ import annotations

import ssl

from ghbench.tls import tls_context


def test_one_verifying_context_is_shared() -> None:
    context = tls_context()
    assert tls_context() is context  # made once: httpx's 37 ms are not paid per client
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0  # a CA bundle is loaded
