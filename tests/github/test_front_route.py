"""ghbench.github.front_route: where a forwarding front sends AO 0.10's daemon's calls."""

from __future__ import annotations

import pytest

from ghbench.errors import UsageError
from ghbench.github.front_route import FrontRoute, forward_route


@pytest.mark.parametrize(
    ("api_url", "route"),
    [
        ("https://api.github.com", FrontRoute("forward", None)),
        ("https://api.github.com/", FrontRoute("forward", None)),
        ("http://127.0.0.1:8080", FrontRoute("forward", "http://127.0.0.1:8080")),
        ("http://127.0.0.1:8080/", FrontRoute("forward", "http://127.0.0.1:8080")),
    ],
)
def test_github_or_a_server_at_its_root(api_url: str, route: FrontRoute) -> None:
    assert forward_route(api_url) == route


def test_an_enterprise_rest_root_is_refused_saying_what_to_do() -> None:
    with pytest.raises(UsageError, match=r"GITHUB_API_URL=https://ghe.example/api/v3: .*unset"):
        forward_route("https://ghe.example/api/v3")
