"""The contents API through httpx over the in-process core: ``PUT`` commits one file on a
branch, and checks ``sha`` against the file's blob id on the branch as GitHub does (its
optimistic lock)."""

from __future__ import annotations

import httpx
import pytest

from ghbench.emulator.core import Emulator

from .helpers import REPO, blob, branch, put, sha_of

DOCS = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"


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


def test_an_existing_file_needs_its_sha(emulator: Emulator, api: httpx.Client) -> None:
    assert put(api, "dir/sub/file.txt", "v1\n").status_code == 201
    tip = sha_of(api, "main")
    missing = put(api, "dir/sub/file.txt", "v2\n")
    assert missing.status_code == 422
    assert missing.json() == {
        "message": 'Invalid request.\n\n"sha" wasn\'t supplied.',
        "documentation_url": DOCS,
    }
    null = put(api, "dir/sub/file.txt", "v2\n", sha=None)
    assert null.status_code == 422
    assert (
        null.json()["message"] == "Invalid request.\n\nFor 'properties/sha', nil is not a string."
    )
    for wrong in ("deadbeef", "0" * 40, blob("something else\n")):
        stale = put(api, "dir/sub/file.txt", "v2\n", sha=wrong)
        assert stale.status_code == 409
        assert stale.json() == {
            "message": f"dir/sub/file.txt does not match {wrong}",
            "documentation_url": DOCS,
        }
    assert sha_of(api, "main") == tip  # refused writes commit nothing
    writes = [e.status for e in emulator.ledger_entries() if e.endpoint.startswith("PUT")]
    assert writes == [201, 422, 422, 409, 409, 409]  # charged like any REST call


def test_the_right_sha_updates_and_the_old_one_is_then_stale(api: httpx.Client) -> None:
    first = put(api, "notes.md", "v1\n").json()["content"]["sha"]
    updated = put(api, "notes.md", "v2\n", sha=first)
    assert updated.status_code == 200  # an update is 200, a creation 201
    second = updated.json()["content"]["sha"]
    assert second == blob("v2\n") != first
    assert put(api, "notes.md", "v3\n", sha=first).status_code == 409
    assert put(api, "notes.md", "v3\n", sha=second).status_code == 200


def test_a_new_file_ignores_sha_and_each_branch_has_its_own_files(api: httpx.Client) -> None:
    assert put(api, "brand/new.txt", "fresh\n", sha="deadbeef").status_code == 201
    branch(api, "other")
    assert put(api, "only-here.txt", "x\n", branch="other").status_code == 201
    assert put(api, "only-here.txt", "x\n").status_code == 201  # not on main yet


def test_a_missing_branch_is_404_before_the_sha_is_looked_at(api: httpx.Client) -> None:
    assert put(api, "README.md", "x\n", branch="nope", sha="deadbeef").json() == {
        "message": "Branch nope not found",
        "documentation_url": DOCS,
    }
    assert put(api, "README.md", "x\n", branch="nope").status_code == 404


@pytest.mark.parametrize("value", [5, ["a"]])
def test_a_sha_that_is_not_a_string_is_refused(api: httpx.Client, value: object) -> None:
    put(api, "a.txt", "x\n")
    refused = put(api, "a.txt", "y\n", sha=value)
    assert refused.status_code == 422 and "is not a string" in refused.json()["message"]
