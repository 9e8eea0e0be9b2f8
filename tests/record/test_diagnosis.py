"""ghbench.record.diagnosis: why a command behind the front made no exchange, said in
one line from the front's counts, and never with the front's secret in it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.front import FrontCounts
from ghbench.record.diagnosis import no_exchange_cause, shown_environment

PROXY = "http://ta-1:s3cr3t-front-key@127.0.0.1:8443"
GIVEN = {
    "HTTPS_PROXY": PROXY,
    "NO_PROXY": "localhost",
    "SSL_CERT_FILE": "/ca.pem",
    "NODE_EXTRA_CA_CERTS": "/ca.pem",
}


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.text("abcdefghijklmnop0123456789-_.~", min_size=8, max_size=40))
def test_the_proxy_secret_is_never_shown(tail: str) -> None:
    secret = "sEcReT" + tail  # nothing else in the line could spell it
    given_env = {**GIVEN, "HTTPS_PROXY": f"http://session:{secret}@127.0.0.1:1"}
    for counts in (FrontCounts(), FrontCounts(unauthorized=2)):
        cause = no_exchange_cause(counts, given_env)
        assert cause is not None and secret not in cause
        assert "session:***@127.0.0.1:1" in cause


def test_no_cause_once_an_exchange_was_made() -> None:
    assert no_exchange_cause(FrontCounts(exchanges=1, failed_handshakes=3), GIVEN) is None


def test_the_most_telling_count_names_the_cause() -> None:
    tls = no_exchange_cause(FrontCounts(failed_handshakes=2, unauthorized=1), GIVEN)
    assert tls is not None and tls.startswith("2 TLS handshake(s) with the front failed")
    assert "SSL_CERT_FILE, NODE_EXTRA_CA_CERTS=/ca.pem" in tls  # one file, named once
    unauthorized = no_exchange_cause(FrontCounts(unauthorized=1, refused=4), GIVEN)
    assert unauthorized is not None and "(answered 407)" in unauthorized
    refused = no_exchange_cause(FrontCounts(refused=4, tunnelled=1), GIVEN)
    assert refused is not None and "(4 refused, 1 tunnelled untraced)" in refused
    abandoned = no_exchange_cause(FrontCounts(abandoned=3), GIVEN)
    assert abandoned is not None and abandoned.startswith("3 tunnel(s) to the front were closed")
    nothing = no_exchange_cause(FrontCounts(), GIVEN)
    assert nothing is not None and "went around the proxy" in nothing


def test_shown_environment_names_the_proxy_and_what_goes_with_it() -> None:
    shown = shown_environment({**GIVEN, "NODE_USE_ENV_PROXY": "1"})
    assert shown.startswith("HTTPS_PROXY=http://ta-1:***@127.0.0.1:8443 (and https_proxy,")
    assert "NO_PROXY=localhost" in shown and "NODE_USE_ENV_PROXY=1" in shown
    assert shown_environment({"HTTPS_PROXY": "http://127.0.0.1:1"}).startswith(
        "HTTPS_PROXY=http://127.0.0.1:1 "
    )
