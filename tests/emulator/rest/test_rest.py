"""REST endpoints through httpx over the in-process core: shapes, statuses, pagination."""

from __future__ import annotations

import httpx
import pytest
from emu_helpers import TOKEN, ClientFactory

from ghbench.emulator.core import Emulator

REPO = "/repos/acme/todo"


@pytest.fixture
def seeded(emulator: Emulator) -> Emulator:
    emulator.seed({"repos": [{"name": "acme/todo", "issues": 3, "pulls": 3, "ci": "success"}]})
    return emulator


def test_root_user_and_repo(api: httpx.Client) -> None:
    root = api.get("/")
    assert root.status_code == 200
    assert root.json()["rate_limit_url"] == "http://api.github.localhost/rate_limit"
    assert root.headers["x-oauth-scopes"]
    assert api.get("/user").json()["login"] == "octo"
    repo = api.get(REPO).json()
    assert repo["full_name"] == "acme/todo" and repo["default_branch"] == "main"
    assert repo["owner"]["login"] == "acme"


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


def test_statuses_and_check_runs(seeded: Emulator, api: httpx.Client) -> None:
    head = api.get(f"{REPO}/pulls/4").json()["head"]["sha"]
    combined = api.get(f"{REPO}/commits/{head}/status").json()
    assert combined["state"] == "success" and combined["total_count"] == 1
    posted = api.post(f"{REPO}/statuses/{head}", json={"state": "failure", "context": "lint"})
    assert posted.status_code == 201
    assert api.get(f"{REPO}/commits/{head}/status").json()["state"] == "failure"
    runs = api.get(f"{REPO}/commits/{head}/check-runs", params={"per_page": 1}).json()
    assert runs["total_count"] == 1 and runs["check_runs"][0]["conclusion"] == "success"
    made = api.post(f"{REPO}/check-runs", json={"name": "build", "head_sha": head})
    assert made.status_code == 201 and made.json()["status"] == "queued"
    run_id = made.json()["id"]
    done = api.patch(f"{REPO}/check-runs/{run_id}", json={"conclusion": "failure"})
    assert done.json()["status"] == "completed" and done.json()["conclusion"] == "failure"
    assert api.get(f"{REPO}/commits/{head}/check-runs").json()["total_count"] == 2
    assert api.post(f"{REPO}/statuses/{head}", json={"state": "nope"}).status_code == 422


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


def test_git_refs(emulator: Emulator, api: httpx.Client) -> None:
    main = api.get(f"{REPO}/git/ref/heads/main").json()
    sha = main["object"]["sha"]
    made = api.post(f"{REPO}/git/refs", json={"ref": "refs/heads/topic/x", "sha": sha})
    assert made.status_code == 201 and made.json()["ref"] == "refs/heads/topic/x"
    assert api.get(f"{REPO}/git/refs/heads/topic/x").json()["object"]["sha"] == sha
    again = api.post(f"{REPO}/git/refs", json={"ref": "refs/heads/topic/x", "sha": sha})
    assert again.status_code == 422 and again.json()["message"] == "Reference already exists"


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


def test_oversized_body_is_413(emulator: Emulator, api: httpx.Client) -> None:
    emulator.config.max_body_bytes = 1000
    response = api.post(f"{REPO}/issues", content=b"x" * 2000)
    assert response.status_code == 413
    assert response.json()["message"] == "Request Entity Too Large"
    graphql = api.post("/graphql", content=b'{"query": "' + b" " * 2000 + b'{ viewer { login } }"}')
    assert graphql.status_code == 413
    assert emulator.ledger_entries() == []  # refused in front of the API: free


def test_head_answers_without_body(api: httpx.Client) -> None:
    response = api.head(REPO)
    assert response.status_code == 200 and response.content == b""
    assert response.headers["x-ratelimit-resource"] == "core"


def test_every_response_has_rate_limit_headers(seeded: Emulator, api: httpx.Client) -> None:
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
