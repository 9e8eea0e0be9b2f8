"""ghbench.front.downstream: who a client is from its proxy credential."""

from __future__ import annotations

import base64

from ghbench.front.downstream import Caller, proxy_credential
from ghbench.front.http1 import Head


def _basic(user: str, password: str = "sec") -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def _caller(credential: str | None, secret: str | None = "sec") -> Caller:
    headers = [] if credential is None else [(b"proxy-authorization", credential.encode())]
    return Caller.of(Head(method=b"CONNECT", headers=headers), secret)


def test_the_proxy_credential_names_the_session_and_carries_the_secret() -> None:
    assert _caller(_basic("s-1")) == Caller(None, "s-1", authorized=True)
    assert _caller(_basic("-")) == Caller(None, None, authorized=True)  # no session
    assert _caller(_basic("s%201")).session is None  # a space: not a session name
    assert _caller(_basic("x" * 200)).session is None
    assert not _caller(_basic("s-1", "wrong")).authorized
    assert not _caller(_basic("s-1", "")).authorized
    assert not _caller(None).authorized
    assert not _caller("Bearer sec").authorized
    assert not _caller("Basic !!!").authorized
    assert _caller(None, secret=None).authorized  # a front without a secret
    assert proxy_credential(_basic("a:b", "c")) == ("a", "b:c")
