"""ghbench.front.settings: the upstream's address."""

import pytest

from ghbench.errors import UsageError
from ghbench.front.settings import Upstream, parse_upstream


def test_parse_upstream() -> None:
    assert parse_upstream("http://127.0.0.1:8080") == Upstream("http", "127.0.0.1", 8080)
    assert parse_upstream("https://ghe.example.com/") == Upstream("https", "ghe.example.com", 443)
    assert parse_upstream("unix:/tmp/gh.sock").socket == "/tmp/gh.sock"
    for bad in ("unix:gh.sock", "ftp://x", "http://h:99999", "http://h/api", "http://u@h"):
        with pytest.raises(UsageError, match="--upstream"):
            parse_upstream(bad)
