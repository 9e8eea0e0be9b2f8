"""The contents API through httpx over the in-process core: ``PUT`` commits one file on a
branch."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_put_contents_commits_to_the_branch(emulator: Emulator, api: httpx.Client) -> None:
    main = api.get(f"{REPO}/git/ref/heads/main").json()["object"]["sha"]
    api.post(f"{REPO}/git/refs", json={"ref": "refs/heads/work", "sha": main})
    put = api.put(
        f"{REPO}/contents/docs/a.md",
        json={"message": "Add a", "content": "aGVsbG8K", "branch": "work"},
    )
    assert put.status_code == 201
    assert put.json()["content"]["path"] == "docs/a.md"
    assert put.json()["commit"]["parents"][0]["sha"] == main
    head = api.get(f"{REPO}/git/ref/heads/work").json()["object"]["sha"]
    assert head == put.json()["commit"]["sha"] != main
    pr = api.post(f"{REPO}/pulls", json={"title": "A", "head": "work", "base": "main"})
    assert pr.status_code == 201
    bad = api.put(f"{REPO}/contents/x", json={"message": "m", "content": "%%%"})
    assert bad.status_code == 422
