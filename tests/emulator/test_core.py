"""The core's ``handle`` through httpx in-process: GitHub-shaped errors for bad input and
unknown routes, HEAD, rate-limit headers on every answer, and who a caller is
(token, Bearer, a wrong token, anonymous)."""

from __future__ import annotations

import httpx
import pytest
from emu_helpers import TOKEN, ClientFactory

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("POST", f"{REPO}/issues", b"{not json", 400, "Problems parsing JSON"),
        ("POST", f"{REPO}/issues", b"\xff\xfe", 400, "Problems parsing JSON"),
        ("POST", f"{REPO}/issues", b"[" * 100_000, 400, "Problems parsing JSON"),
        ("GET", "/no/such/route", b"", 404, "Not Found"),
        ("GET", "/repos/acme/missing", b"", 404, "Not Found"),
        ("GET", f"{REPO}/pulls/abc", b"", 404, "Not Found"),
        ("POST", f"{REPO}/pulls", b"[]", 422, "Validation Failed"),
    ],
)
def test_bad_input_is_a_github_error(
    api: httpx.Client, *, method: str, path: str, body: bytes, status: int, message: str
) -> None:
    response = api.request(method, path, content=body)
    assert response.status_code == status
    assert response.json()["message"] == message
    assert response.json()["documentation_url"].startswith("https://docs.github.com/")
    assert response.headers["content-type"] == "application/json; charset=utf-8"


def test_unknown_route_is_githubs_404(api: httpx.Client) -> None:
    assert api.get("/nope").json() == {
        "message": "Not Found",
        "documentation_url": "https://docs.github.com/rest",
    }


def test_head_answers_without_body(api: httpx.Client) -> None:
    response = api.head(REPO)
    assert response.status_code == 200 and response.content == b""
    assert response.headers["x-ratelimit-resource"] == "core"


def test_every_response_has_rate_limit_headers(emulator: Emulator, api: httpx.Client) -> None:
    emulator.seed({"repos": [{"name": "acme/todo", "pulls": 1}]})
    for path in ("/", "/user", "/rate_limit", REPO, f"{REPO}/pulls", "/nope", f"{REPO}/pulls/1"):
        headers = api.get(path).headers
        for name in ("limit", "remaining", "used", "reset", "resource"):
            assert f"x-ratelimit-{name}" in headers, (path, name)


def test_bearer_bad_credentials_and_anonymous(make_client: ClientFactory) -> None:
    bearer = make_client(None)
    bearer.headers["Authorization"] = f"Bearer {TOKEN}"
    assert bearer.get("/user").json()["login"] == "octo"
    bad = make_client("ghp_wrong").get(REPO)
    assert bad.status_code == 401
    assert bad.json() == {
        "message": "Bad credentials",
        "documentation_url": "https://docs.github.com/rest",
    }
    anonymous = make_client(None)
    assert anonymous.get("/user").status_code == 401
    public = anonymous.get(REPO)
    assert public.status_code == 200 and public.headers["x-ratelimit-limit"] == "60"
