"""REST pull requests through httpx over the in-process core: listing (filters, sort,
pages), create, get and merge, review comments and reviews."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


def test_pull_list_filters_sort_and_pagination(seeded: Emulator, api: httpx.Client) -> None:
    listed = api.get(f"{REPO}/pulls", params={"per_page": 2})
    assert [p["number"] for p in listed.json()] == [6, 5]  # newest first by default
    assert 'rel="next"' in listed.headers["link"]
    page2 = api.get(f"{REPO}/pulls", params={"per_page": 2, "page": 2}).json()
    assert [p["number"] for p in page2] == [4]
    seeded.advance_clock(5)
    seeded.push("acme/todo", "feat/issue-1")  # the first PR becomes the most recently updated
    top = api.get(
        f"{REPO}/pulls",
        params={"state": "open", "sort": "updated", "direction": "desc", "per_page": 1},
    ).json()
    assert [p["head"]["ref"] for p in top] == ["feat/issue-1"]
    by_head = api.get(f"{REPO}/pulls", params={"head": "acme:feat/issue-2"}).json()
    assert [p["number"] for p in by_head] == [5]
    assert api.get(f"{REPO}/pulls", params={"state": "bogus"}).status_code == 422


def test_create_get_and_merge_pull(emulator: Emulator, api: httpx.Client) -> None:
    emulator.push("acme/todo", "feature")
    created = api.post(f"{REPO}/pulls", json={"title": "T", "head": "feature", "base": "main"})
    assert created.status_code == 201
    number = created.json()["number"]
    dup = api.post(f"{REPO}/pulls", json={"title": "T", "head": "feature", "base": "main"})
    assert dup.status_code == 422 and "already exists" in dup.text
    full = api.get(f"{REPO}/pulls/{number}").json()
    assert full["mergeable"] is True and full["merged"] is False and full["state"] == "open"
    merged = api.put(f"{REPO}/pulls/{number}/merge", json={"merge_method": "squash"})
    assert merged.status_code == 200 and merged.json()["merged"] is True
    after = api.get(f"{REPO}/pulls/{number}").json()
    assert after["merged"] is True and after["state"] == "closed"
    assert api.put(f"{REPO}/pulls/{number}/merge").status_code == 405
    # gh pr merge -d deletes the branch with REST
    assert api.delete(f"{REPO}/git/refs/heads/feature").status_code == 204
    assert api.get(f"{REPO}/git/ref/heads/feature").status_code == 404
    assert api.delete(f"{REPO}/git/refs/heads/feature").status_code == 422


def test_merge_with_stale_sha_conflicts(seeded: Emulator, api: httpx.Client) -> None:
    assert api.put(f"{REPO}/pulls/4/merge", json={"sha": "0" * 40}).status_code == 409


def test_review_comments_and_reviews(seeded: Emulator, api: httpx.Client) -> None:
    first = api.post(f"{REPO}/pulls/4/comments", json={"body": "nit", "path": "a.py", "line": 3})
    assert first.status_code == 201
    reply = api.post(
        f"{REPO}/pulls/4/comments", json={"body": "ok", "in_reply_to": first.json()["id"]}
    )
    assert reply.json()["in_reply_to_id"] == first.json()["id"]
    listed = api.get(f"{REPO}/pulls/4/comments").json()
    assert [c["body"] for c in listed] == ["nit", "ok"]
    review = api.post(f"{REPO}/pulls/4/reviews", json={"event": "APPROVE", "body": "lgtm"})
    assert review.json()["state"] == "APPROVED"
    assert [r["state"] for r in api.get(f"{REPO}/pulls/4/reviews").json()] == ["APPROVED"]
    repo = seeded.store.repo("acme", "todo")
    assert repo is not None
    pull = seeded.store.pull(repo, 4)
    assert pull is not None and len(seeded.store.review_threads(pull)) == 1
