"""Commits and branches from git's data (``rest/history.py``), in-process: what a
``{ref}`` may be, the commit's media types, the log's filters, compare's edges (no
``...``, another owner, an unknown side, files on the first page only), branches by
protection, and matching refs by prefix."""

from __future__ import annotations

import httpx
import pytest

from ghbench.emulator.core import Emulator

from .helpers import REPO, branch, sha_of


@pytest.fixture
def feature(emulator: Emulator) -> dict[str, str]:
    """main: Initial commit, then ``Add a`` (a.txt); feat/x from there: ``Add b``
    (b.txt); their shas, and main's first."""
    repo = emulator.store.repo("acme", "todo")
    assert repo is not None
    first = emulator.store.branch_sha(repo, "main")
    assert first is not None
    a = emulator.push("acme/todo", "main", "Add a", files={"a.txt": "a\n"})
    b = emulator.push("acme/todo", "feat/x", "Add b", files={"b.txt": "b\nb\n"})
    return {"first": first, "a": a, "b": b}


def test_a_ref_is_a_sha_a_prefix_or_a_name(api: httpx.Client, feature: dict[str, str]) -> None:
    b = feature["b"]
    for ref in (b, b[:7], "feat/x", "feat%2Fx", "heads/feat/x", "refs/heads/feat/x"):
        got = api.get(f"{REPO}/commits/{ref}")
        assert got.status_code == 200 and got.json()["sha"] == b, ref
    commit = api.get(f"{REPO}/commits/feat/x").json()
    assert commit["stats"] == {"total": 2, "additions": 2, "deletions": 0}
    assert [(f["filename"], f["status"]) for f in commit["files"]] == [("b.txt", "added")]
    assert [p["sha"] for p in commit["parents"]] == [feature["a"]]
    unknown = api.get(f"{REPO}/commits/no-such-branch")
    assert unknown.status_code == 422
    assert unknown.json()["message"] == "No commit found for SHA: no-such-branch"
    assert api.get(f"{REPO}/commits/{b[:6]}").status_code == 422  # under 7 digits
    assert api.get(f"{REPO}/commits/{b}/statuses/x").status_code == 404  # a sub-path


def test_a_commit_as_its_sha_diff_or_patch(api: httpx.Client, feature: dict[str, str]) -> None:
    path = f"{REPO}/commits/feat/x"
    sha = api.get(path, headers={"Accept": "application/vnd.github.sha"})
    assert sha.text == feature["b"]
    assert sha.headers["content-type"].startswith("application/vnd.github.sha")
    diff = api.get(path, headers={"Accept": "application/vnd.github.v3.diff"}).text
    assert diff.startswith("diff --git a/b.txt b/b.txt") and "+b\n+b\n" in diff
    patch = api.get(path, headers={"Accept": "application/vnd.github.patch"}).text
    assert patch.startswith(f"From {feature['b']} ") and "Subject: [PATCH] Add b" in patch


def test_the_log_and_its_filters(
    emulator: Emulator, api: httpx.Client, feature: dict[str, str]
) -> None:
    def log(**query: str) -> list[str]:
        answer = api.get(f"{REPO}/commits", params=query)
        assert answer.status_code == 200, answer.text
        return [c["commit"]["message"] for c in answer.json()]

    assert log() == ["Add a", "Initial commit"]  # the default branch, newest first
    assert log(sha="feat/x") == ["Add b", "Add a", "Initial commit"]
    assert log(sha="feat/x", path="b.txt") == ["Add b"]
    assert log(author="acme") == ["Initial commit"]  # the only commit with its login
    assert log(author="3+ACME@users.noreply.github.com") == ["Add a", "Initial commit"]
    assert log(author="nobody") == []
    assert log(per_page="1", page="2") == ["Initial commit"]
    missing = api.get(f"{REPO}/commits", params={"sha": "gone"})
    assert missing.status_code == 404
    assert missing.json()["message"] == "No commit found for SHA: gone"
    number = emulator.create_pull("acme/todo", "feat/x")
    pulled = api.get(f"{REPO}/pulls/{number}/commits").json()
    assert [c["sha"] for c in pulled] == [feature["b"]]


def test_compare_and_its_edges(api: httpx.Client, feature: dict[str, str]) -> None:
    compared = api.get(f"{REPO}/compare/main...feat/x").json()
    assert (compared["status"], compared["ahead_by"], compared["behind_by"]) == ("ahead", 1, 0)
    assert compared["merge_base_commit"]["sha"] == feature["a"]
    assert [f["filename"] for f in compared["files"]] == ["b.txt"]
    owned = api.get(f"{REPO}/compare/acme:main...ACME:feat/x").json()
    assert owned["status"] == "ahead"
    assert api.get(f"{REPO}/compare/{feature['b']}...{feature['first']}").json()["status"] == (
        "behind"
    )
    paged = api.get(f"{REPO}/compare/{feature['first']}...feat/x", params={"per_page": 1})
    assert [c["commit"]["message"] for c in paged.json()["commits"]] == ["Add a"]
    assert "files" in paged.json() and 'rel="next"' in paged.headers["link"]
    second = api.get(
        f"{REPO}/compare/{feature['first']}...feat/x", params={"page": 2, "per_page": 1}
    )
    assert [c["commit"]["message"] for c in second.json()["commits"]] == ["Add b"]
    assert "files" not in second.json()  # only the first page has them
    for basehead in ("main..feat/x", "main", "other:main...feat/x", "main...gone", "...main"):
        assert api.get(f"{REPO}/compare/{basehead}").status_code == 404, basehead
    diff = api.get(
        f"{REPO}/compare/main...feat/x", headers={"Accept": "application/vnd.github.diff"}
    )
    assert diff.text.startswith("diff --git a/b.txt b/b.txt")


def test_branches_by_protection_and_refs_by_prefix(
    api: httpx.Client, feature: dict[str, str]
) -> None:
    branch(api, "feature")
    rules = {
        "required_status_checks": {"strict": False, "contexts": ["ci"]},
        "enforce_admins": False,
        "required_pull_request_reviews": None,
        "restrictions": None,
    }
    assert api.put(f"{REPO}/branches/main/protection", json=rules).is_success

    def names(**query: str) -> list[str]:
        return [b["name"] for b in api.get(f"{REPO}/branches", params=query).json()]

    assert names() == ["feat/x", "feature", "main"]
    assert names(protected="true") == ["main"]
    assert names(protected="FALSE") == ["feat/x", "feature"]
    assert names(protected="maybe") == names()
    feat = api.get(f"{REPO}/branches/feat%2Fx").json()
    assert feat["commit"]["sha"] == feature["b"] and feat["protected"] is False
    main = api.get(f"{REPO}/branches/main").json()
    assert main["protection"]["required_status_checks"]["enforcement_level"] == "non_admins"
    missing = api.get(f"{REPO}/branches/gone")
    assert missing.status_code == 404 and missing.json()["message"] == "Branch not found"
    refs = api.get(f"{REPO}/git/matching-refs/heads/feat").json()
    assert [r["ref"] for r in refs] == ["refs/heads/feat/x", "refs/heads/feature"]
    assert api.get(f"{REPO}/git/matching-refs/refs/heads/feat/").json()[0]["object"]["sha"] == (
        sha_of(api, "feat/x")
    )
    assert api.get(f"{REPO}/git/matching-refs/tags/").json() == []
