"""REST through httpx over the in-process core: the API root, the user, a repository
and its git refs."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_root_user_and_repo(api: httpx.Client) -> None:
    root = api.get("/")
    assert root.status_code == 200
    assert root.json()["rate_limit_url"] == "http://api.github.localhost/rate_limit"
    assert root.headers["x-oauth-scopes"]
    assert api.get("/user").json()["login"] == "octo"
    repo = api.get(REPO).json()
    assert repo["full_name"] == "acme/todo" and repo["default_branch"] == "main"
    assert repo["owner"]["login"] == "acme"


def test_git_refs(emulator: Emulator, api: httpx.Client) -> None:
    main = api.get(f"{REPO}/git/ref/heads/main").json()
    sha = main["object"]["sha"]
    made = api.post(f"{REPO}/git/refs", json={"ref": "refs/heads/topic/x", "sha": sha})
    assert made.status_code == 201 and made.json()["ref"] == "refs/heads/topic/x"
    assert api.get(f"{REPO}/git/refs/heads/topic/x").json()["object"]["sha"] == sha
    again = api.post(f"{REPO}/git/refs", json={"ref": "refs/heads/topic/x", "sha": sha})
    assert again.status_code == 422 and again.json()["message"] == "Reference already exists"
