"""ghbench.front.env: the environment a client needs to go through the front."""

from __future__ import annotations

from pathlib import Path

from ghbench.front.env import client_environment, no_proxy, node_options, proxy_url
from ghbench.front.node import PRELOAD


def test_no_proxy_keeps_what_does_not_bypass_github() -> None:
    assert no_proxy("github.com,.github.com,*.github.com,*,corp.example,127.0.0.1") == (
        "corp.example,127.0.0.1,localhost,::1"
    )
    assert no_proxy(None) == "localhost,127.0.0.1,::1"


def test_client_environment(tmp_path: Path) -> None:
    bundle, ca = tmp_path / "bundle.pem", tmp_path / "ca.pem"
    env = client_environment(
        8080, secret="0a1b", bundle=bundle, ca_cert=ca, session="s 1", base={"no_proxy": "x"}
    )
    assert env["HTTPS_PROXY"] == env["http_proxy"] == "http://s%201:0a1b@127.0.0.1:8080"
    assert env["SSL_CERT_FILE"] == env["GIT_SSL_CAINFO"] == env["CURL_CA_BUNDLE"] == str(bundle)
    assert env["REQUESTS_CA_BUNDLE"] == str(bundle)
    assert env["NODE_EXTRA_CA_CERTS"] == str(ca)
    assert env["NO_PROXY"] == "x,localhost,127.0.0.1,::1"
    assert env["GIT_HTTP_PROXY_AUTHMETHOD"] == "basic"
    assert proxy_url(1, "0a1b") == "http://-:0a1b@127.0.0.1:1"  # no session: user "-"
    assert proxy_url(1, None) == "http://127.0.0.1:1"


SECRET = "0123456789abcdef0123456789abcdef"


def test_node_options_add_the_preload_once_quoted(tmp_path: Path) -> None:
    preload = Path('/a dir "x"') / PRELOAD
    option = '--require "/a dir \\"x\\"/node_preload.cjs"'
    assert node_options(None, preload) == option
    assert node_options("--max-old-space-size=256", preload) == f"--max-old-space-size=256 {option}"
    assert node_options(f"--inspect {option}", preload) == f"--inspect {option}"  # nested record


def test_clients_get_node_variables_beside_their_own(tmp_path: Path) -> None:
    where = {"bundle": tmp_path / "b.pem", "ca_cert": tmp_path / "ca.pem"}
    base = {"NODE_OPTIONS": "--inspect"}
    preload = tmp_path / PRELOAD
    env = client_environment(8080, secret=SECRET, base=base, node_preload=preload, **where)
    assert env["NODE_USE_ENV_PROXY"] == "1"
    assert env["NODE_OPTIONS"] == f'--inspect --require "{preload}"'
    assert SECRET in env["HTTPS_PROXY"] and SECRET not in env["NODE_OPTIONS"]
    plain = client_environment(8080, secret=SECRET, base=base, **where)
    assert not {"NODE_USE_ENV_PROXY", "NODE_OPTIONS"} & set(plain)
