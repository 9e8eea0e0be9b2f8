"""``GET /repos/{o}/{r}/pulls/{n}/files`` and the contents API's optimistic lock.

The emulator keeps each commit's tree (paths, blob ids, line counts), so a PR's files
are its head's tree against the merge base with its base branch, and ``PUT contents``
checks ``sha`` against the file on the branch as GitHub does.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
from pathlib import Path

import httpx
import pytest
from emu_helpers import API, TOKEN, ClientFactory, new_emulator, remaining

from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport

REPO = "/repos/acme/todo"
DOCS = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"


def blob(text: str) -> str:
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def put(api: httpx.Client, path: str, text: str, **extra: object) -> httpx.Response:
    body = {"message": f"write {path}", "content": base64.b64encode(text.encode()).decode()}
    return api.put(f"{REPO}/contents/{path}", json=body | extra)


def branch(api: httpx.Client, name: str) -> str:
    main = api.get(f"{REPO}/git/ref/heads/main").json()["object"]["sha"]
    assert api.post(f"{REPO}/git/refs", json={"ref": f"refs/heads/{name}", "sha": main}).is_success
    return str(main)


def sha_of(api: httpx.Client, name: str) -> str:
    return str(api.get(f"{REPO}/git/ref/heads/{name}").json()["object"]["sha"])


# -- pull request files ----------------------------------------------------------------


def test_files_are_the_heads_changes_since_the_merge_base(api: httpx.Client) -> None:
    branch(api, "work")
    added = put(api, "docs/a b.md", "one\ntwo\nthree\n", branch="work")
    assert added.status_code == 201
    readme = blob("# todo\n")  # the repository's first commit wrote "# todo\n"
    changed = put(api, "README.md", "# todo\nmore\n", branch="work", sha=readme)
    assert changed.status_code == 200
    # main moves on after the fork: its own changes are not the PR's
    assert put(api, "main-only.txt", "x\n").status_code == 201
    number = api.post(f"{REPO}/pulls", json={"title": "W", "head": "work", "base": "main"}).json()[
        "number"
    ]
    head = sha_of(api, "work")

    files = api.get(f"{REPO}/pulls/{number}/files")
    assert files.status_code == 200 and "link" not in files.headers
    assert files.json() == [
        {
            "sha": blob("# todo\nmore\n"),
            "filename": "README.md",
            "status": "modified",
            "additions": 2,  # bodies are not kept: a modification is a whole-file rewrite
            "deletions": 1,
            "changes": 3,
            "blob_url": f"https://github.com/acme/todo/blob/{head}/README.md",
            "raw_url": f"https://github.com/acme/todo/raw/{head}/README.md",
            "contents_url": f"http://api.github.localhost{REPO}/contents/README.md?ref={head}",
        },
        {
            "sha": added.json()["content"]["sha"],
            "filename": "docs/a b.md",
            "status": "added",
            "additions": 3,
            "deletions": 0,
            "changes": 3,
            "blob_url": f"https://github.com/acme/todo/blob/{head}/docs/a%20b.md",
            "raw_url": f"https://github.com/acme/todo/raw/{head}/docs/a%20b.md",
            "contents_url": f"http://api.github.localhost{REPO}/contents/docs/a%20b.md?ref={head}",
        },
    ]
    assert added.json()["content"]["sha"] == blob("one\ntwo\nthree\n")  # git's blob id
    full = api.get(f"{REPO}/pulls/{number}").json()
    assert (full["changed_files"], full["additions"], full["deletions"]) == (2, 5, 1)


def test_a_pushed_or_seeded_pr_changes_readme(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/seeded")
    (entry,) = api.get(f"{REPO}/pulls/{number}/files").json()
    assert (entry["filename"], entry["status"], entry["changes"]) == ("README.md", "modified", 2)
    emulator.push("acme/todo", "feat/seeded", files={"src/app.py": "print(1)"})
    names = [f["filename"] for f in api.get(f"{REPO}/pulls/{number}/files").json()]
    assert names == ["README.md", "src/app.py"]


def test_a_merged_pr_keeps_its_files_and_main_gets_them(
    emulator: Emulator, api: httpx.Client
) -> None:
    branch(api, "work")
    assert put(api, "new.md", "hello\n", branch="work").status_code == 201
    number = api.post(f"{REPO}/pulls", json={"title": "W", "head": "work", "base": "main"}).json()[
        "number"
    ]
    before = api.get(f"{REPO}/pulls/{number}/files").json()
    assert api.put(f"{REPO}/pulls/{number}/merge", json={}).json()["merged"] is True
    assert api.get(f"{REPO}/pulls/{number}/files").json() == before
    # the merge brought new.md to main: writing it there now needs its sha
    assert put(api, "new.md", "again\n").status_code == 422
    assert put(api, "new.md", "again\n", sha=blob("hello\n")).status_code == 200


def test_pages_of_at_most_100_and_no_more_than_3000_files(
    emulator: Emulator, api: httpx.Client
) -> None:
    files = {f"f/{n:04d}.txt": f"{n}\n" for n in range(3005)}
    emulator.push("acme/todo", "big", "many files", files=files)
    number = emulator.create_pull("acme/todo", "big")
    first = api.get(f"{REPO}/pulls/{number}/files")
    assert len(first.json()) == 30  # GitHub's default page
    wide = api.get(f"{REPO}/pulls/{number}/files", params={"per_page": 500})
    assert len(wide.json()) == 100
    assert 'page=30>; rel="last"' in wide.headers["link"]  # 3,000 files, not 3,005
    last = api.get(f"{REPO}/pulls/{number}/files", params={"per_page": 100, "page": 30}).json()
    assert [f["filename"] for f in last][-1] == "f/2999.txt"
    past = api.get(f"{REPO}/pulls/{number}/files", params={"per_page": 100, "page": 31})
    assert past.status_code == 200 and past.json() == []


def test_files_are_charged_and_answer_if_none_match(
    emulator: Emulator, api: httpx.Client, make_client: ClientFactory
) -> None:
    number = emulator.create_pull("acme/todo", "feat/x")
    url = f"{REPO}/pulls/{number}/files"
    first = api.get(url)
    etag = first.headers["etag"]
    again = api.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and remaining(again) == remaining(first) == 4999
    emulator.push("acme/todo", "feat/x")
    changed = api.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert [e.endpoint for e in emulator.ledger_entries()] == [
        "GET /repos/{owner}/{repo}/pulls/{number}/files"
    ] * 2
    assert api.get(f"{REPO}/pulls/999/files").status_code == 404
    assert make_client(None).get(url).status_code == 200  # public repository: no token needed


SIZES = "number additions deletions changedFiles"


def rest_sizes(api: httpx.Client, number: int) -> tuple[int, int, int]:
    full = api.get(f"{REPO}/pulls/{number}").json()
    return full["additions"], full["deletions"], full["changed_files"]


def test_graphql_sizes_are_rests_from_the_same_diff(emulator: Emulator, api: httpx.Client) -> None:
    # open: README rewritten (3 lines added, its 1 deleted) and a new 2-line file
    files = {"README.md": "# todo\nx\ny\n", "a.txt": "1\n2\n"}
    emulator.push("acme/todo", "feat/open", files=files)
    opened = emulator.create_pull("acme/todo", "feat/open")
    assert put(api, "main-only.txt", "x\n").status_code == 201  # main moves on: not the PR's
    emulator.push("acme/todo", "feat/merged", files={"b.txt": "1\n2\n3\n4\n"})
    merged = emulator.create_pull("acme/todo", "feat/merged")
    assert api.put(f"{REPO}/pulls/{merged}/merge", json={}).json()["merged"] is True
    closed = emulator.create_pull("acme/todo", "feat/closed")  # a seeded head: README only
    assert api.patch(f"{REPO}/pulls/{closed}", json={"state": "closed"}).is_success
    query = (
        'query Sizes { repository(owner: "acme", name: "todo") {'
        f" pullRequests(first: 10, states: [OPEN, MERGED, CLOSED]) {{ nodes {{ {SIZES} }} }}"
        " } }"
    )
    nodes = api.post("/graphql", json={"query": query}).json()["data"]["repository"]
    graphql = {
        n["number"]: (n["additions"], n["deletions"], n["changedFiles"])
        for n in nodes["pullRequests"]["nodes"]
    }
    assert graphql == {number: rest_sizes(api, number) for number in (opened, merged, closed)}
    assert graphql[opened] == (5, 1, 2) and graphql[merged] == (4, 0, 1)
    assert graphql[closed] == (1, 1, 1)  # README's one line replaced


@pytest.mark.gh
def test_gh_pr_view_sizes_agree_with_rest(gh_env: dict[str, str], emulator: Emulator) -> None:
    emulator.push("acme/todo", "feat/a", files={"a.txt": "1\n2\n", "b.txt": "3\n"})
    number = emulator.create_pull("acme/todo", "feat/a")

    def gh(*args: str) -> dict[str, int]:
        done = subprocess.run(["gh", *args], env=gh_env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        answer: dict[str, int] = json.loads(done.stdout)
        return answer

    fields = "additions,deletions,changedFiles"
    viewed = gh("pr", "view", str(number), "-R", "acme/todo", "--json", fields)
    jq = "{additions, deletions, changedFiles: .changed_files}"
    rest = gh("api", f"repos/acme/todo/pulls/{number}", "--jq", jq)
    assert viewed == rest == {"additions": 3, "deletions": 0, "changedFiles": 2}
    assert [e.endpoint for e in emulator.ledger_entries()] == [
        "PullRequestByNumber",
        "GET /repos/{owner}/{repo}/pulls/{number}",
    ]


# -- PUT contents: sha on an existing file ----------------------------------------------


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


def test_trees_survive_a_restart(tmp_path: Path) -> None:
    first = new_emulator(state_dir=tmp_path)
    assert put(_client(first), "kept.md", "v1\n").status_code == 201
    number = first.create_pull("acme/todo", "feat/x")
    first.db.close()
    again = _client(Emulator(state_dir=tmp_path))
    assert put(again, "kept.md", "v2\n").status_code == 422  # still there: sha needed
    files = again.get(f"{REPO}/pulls/{number}/files").json()
    assert [f["filename"] for f in files] == ["README.md"]


def _client(emulator: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": f"token {TOKEN}"},
    )
