"""REST issues and issue comments through httpx over the in-process core (issue comments
work on pull requests too)."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_issues_and_issue_comments(seeded: Emulator, api: httpx.Client) -> None:
    created = api.post(f"{REPO}/issues", json={"title": "Bug", "labels": ["benchmark"]})
    assert created.status_code == 201
    number = created.json()["number"]
    assert api.get(f"{REPO}/issues/{number}").json()["labels"][0]["name"] == "benchmark"
    listed = api.get(f"{REPO}/issues", params={"per_page": 100}).json()
    assert len(listed) == 7 and sum("pull_request" in i for i in listed) == 3
    comment = api.post(f"{REPO}/issues/{number}/comments", json={"body": "seen"})
    assert comment.status_code == 201
    assert [c["body"] for c in api.get(f"{REPO}/issues/{number}/comments").json()] == ["seen"]
    assert api.post(f"{REPO}/issues/4/comments", json={"body": "on a PR"}).status_code == 201
    assert api.get(f"{REPO}/issues/99").status_code == 404
    assert api.post(f"{REPO}/issues", json={}).status_code == 422
