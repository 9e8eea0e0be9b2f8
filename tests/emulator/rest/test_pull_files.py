"""A PR's files (REST ``pulls/{n}/files``, GraphQL ``PullRequest.files``) and PR and commit
diff stats (the contents API's optimistic lock is in ``test_contents.py``).

Every commit is a real git commit, so a PR's files are git's diff of its head against
the merge base with its base branch (one diff for REST and GraphQL, lines counted by
git), and a commit's stats are its diff against its first parent.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from emu_helpers import API, TOKEN, ClientFactory, new_emulator, remaining

from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport
from tools import GhBuild

from .helpers import REPO, blob, branch, put, sha_of

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
            "additions": 1,  # git's diff: one line added after "# todo"
            "deletions": 0,
            "changes": 1,
            "patch": "@@ -1 +1,2 @@\n # todo\n+more",
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
            "patch": "@@ -0,0 +1,3 @@\n+one\n+two\n+three",
        },
    ]
    assert added.json()["content"]["sha"] == blob("one\ntwo\nthree\n")  # git's blob id
    full = api.get(f"{REPO}/pulls/{number}").json()
    assert (full["changed_files"], full["additions"], full["deletions"]) == (2, 4, 0)


def test_a_pushed_or_seeded_pr_adds_its_branchs_note(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/seeded")
    (entry,) = api.get(f"{REPO}/pulls/{number}/files").json()
    note = "notes/feat/seeded.md"
    assert (entry["filename"], entry["status"], entry["changes"]) == (note, "added", 1)
    emulator.push("acme/todo", "feat/seeded", files={"src/app.py": "print(1)"})
    names = [f["filename"] for f in api.get(f"{REPO}/pulls/{number}/files").json()]
    assert names == [note, "src/app.py"]
    # seeded pull requests touch files of their own: they merge one after another
    other = emulator.create_pull("acme/todo", "feat/other")
    for n in (number, other):
        assert api.put(f"{REPO}/pulls/{n}/merge", json={}).json()["merged"] is True


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


def test_pages_of_at_most_100_and_no_more_than_3000_files_in_rest_and_graphql(
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
    # GraphQL's files connection stops at the same file, totalCount included, while
    # changedFiles counts them all (GitHub's behaviour as clients report it)
    pull = graphql_pull(
        api,
        number,
        "changedFiles files(last: 1) { totalCount nodes { path } pageInfo { hasNextPage } }",
    )
    assert pull["changedFiles"] == 3005
    assert pull["files"] == {
        "totalCount": 3000,
        "nodes": [{"path": "f/2999.txt"}],
        "pageInfo": {"hasNextPage": False},
    }


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
    # open: two lines added to README (git keeps its first) and a new 2-line file
    files = {"README.md": "# todo\nx\ny\n", "a.txt": "1\n2\n"}
    emulator.push("acme/todo", "feat/open", files=files)
    opened = emulator.create_pull("acme/todo", "feat/open")
    assert put(api, "main-only.txt", "x\n").status_code == 201  # main moves on: not the PR's
    emulator.push("acme/todo", "feat/merged", files={"b.txt": "1\n2\n3\n4\n"})
    merged = emulator.create_pull("acme/todo", "feat/merged")
    assert api.put(f"{REPO}/pulls/{merged}/merge", json={}).json()["merged"] is True
    closed = emulator.create_pull("acme/todo", "feat/closed")  # a seeded head: its note only
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
    assert graphql[opened] == (4, 0, 2) and graphql[merged] == (4, 0, 1)
    assert graphql[closed] == (1, 0, 1)  # the branch's one-line note added


def graphql(api: httpx.Client, query: str, **variables: object) -> dict[str, Any]:
    answer = api.post("/graphql", json={"query": query, "variables": variables})
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    return body


def graphql_pull(api: httpx.Client, number: int, fields: str) -> dict[str, Any]:
    query = (
        'query Pull($n: Int!) { repository(owner: "acme", name: "todo") {'
        f" pullRequest(number: $n) {{ {fields} }} }} }}"
    )
    body = graphql(api, query, n=number)
    assert "errors" not in body, body
    pull: dict[str, Any] = body["data"]["repository"]["pullRequest"]
    return pull


FILE_FIELDS = "path additions deletions changeType viewerViewedState"
CHANGE_TYPES = {"added": "ADDED", "modified": "MODIFIED", "removed": "DELETED"}


def rest_as_graphql(api: httpx.Client, number: int) -> list[dict[str, object]]:
    """REST's files list in GraphQL's shape (nobody has marked a file as viewed)."""
    return [
        {
            "path": f["filename"],
            "additions": f["additions"],
            "deletions": f["deletions"],
            "changeType": CHANGE_TYPES[f["status"]],
            "viewerViewedState": "UNVIEWED",
        }
        for f in api.get(f"{REPO}/pulls/{number}/files", params={"per_page": 100}).json()
    ]


def remove_file(emulator: Emulator, branch_name: str, path: str) -> None:
    """A commit deleting ``path`` on ``branch_name`` (the API has no delete: the store)."""
    store = emulator.store
    repo = store.get_repo("acme", "todo")
    with emulator.lock, emulator.db.transaction():
        head = store.branch_sha(repo, branch_name)
        assert head is not None
        tree = dict(store.tree(repo, head))
        del tree[path]
        commit = store.create_commit(repo, f"remove {path}", [head], tree=tree)
        ref = store.ref(repo, f"heads/{branch_name}")
        assert ref is not None
        store.update_ref(ref, commit.sha)


def test_graphql_files_are_rests_files(emulator: Emulator, api: httpx.Client) -> None:
    emulator.push("acme/todo", "main", files={"old.txt": "a\nb\n"})
    # open: a new file, README rewritten, old.txt removed; main then moves on
    emulator.push("acme/todo", "feat/open", files={"new.txt": "1\n2\n3\n", "README.md": "x\n"})
    remove_file(emulator, "feat/open", "old.txt")
    opened = emulator.create_pull("acme/todo", "feat/open")
    assert put(api, "main-only.txt", "x\n").status_code == 201
    emulator.push("acme/todo", "feat/merged", files={"b.txt": "1\n2\n"})
    merged = emulator.create_pull("acme/todo", "feat/merged")
    assert api.put(f"{REPO}/pulls/{merged}/merge", json={}).json()["merged"] is True
    closed = emulator.create_pull("acme/todo", "feat/closed")
    assert api.patch(f"{REPO}/pulls/{closed}", json={"state": "closed"}).is_success

    fields = f"changedFiles files(first: 100) {{ totalCount nodes {{ {FILE_FIELDS} }} }}"
    for number in (opened, merged, closed):
        pull = graphql_pull(api, number, fields)
        assert pull["files"]["nodes"] == rest_as_graphql(api, number)
        assert pull["files"]["totalCount"] == pull["changedFiles"]
    opened_files = graphql_pull(api, opened, fields)["files"]["nodes"]
    assert [(f["path"], f["changeType"], f["additions"], f["deletions"]) for f in opened_files] == [
        ("README.md", "MODIFIED", 1, 1),
        ("new.txt", "ADDED", 3, 0),
        ("old.txt", "DELETED", 0, 2),
    ]


def test_graphql_files_pages_with_cursors(emulator: Emulator, api: httpx.Client) -> None:
    emulator.push("acme/todo", "feat/x", files={f"{n}.txt": "x\n" for n in range(6)})
    number = emulator.create_pull("acme/todo", "feat/x")
    page = "totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor }"

    def files(args: str) -> dict[str, Any]:
        pull = graphql_pull(api, number, f"files({args}) {{ {page} nodes {{ path }} }}")
        found: dict[str, Any] = pull["files"]
        return found

    one = files("first: 4")
    two = files(f'first: 4, after: "{one["pageInfo"]["endCursor"]}"')
    assert (one["totalCount"], two["totalCount"]) == (6, 6)
    assert (one["pageInfo"]["hasNextPage"], two["pageInfo"]["hasNextPage"]) == (True, False)
    assert two["pageInfo"]["hasPreviousPage"] is True
    paths = [f["path"] for f in one["nodes"] + two["nodes"]]
    assert paths == [f"{n}.txt" for n in range(6)]
    assert paths == [f["filename"] for f in api.get(f"{REPO}/pulls/{number}/files").json()]
    before = two["pageInfo"]["startCursor"]  # the second page's first file, 4.txt
    back = graphql_pull(api, number, f'files(last: 2, before: "{before}") {{ nodes {{ path }} }}')
    assert back["files"]["nodes"] == [{"path": "2.txt"}, {"path": "3.txt"}]


def test_files_costs_like_any_connection(emulator: Emulator, api: httpx.Client) -> None:
    for n in range(3):
        emulator.create_pull("acme/todo", f"feat/{n}")
    # gh's own selection: 1 request (the files page) -> 1 point, 100 nodes at most
    gh_files = "files(first: 100) { nodes { additions deletions path } }"
    query = (
        'query PullRequestByNumber { repository(owner: "acme", name: "todo") {'
        f" pullRequest(number: 1) {{ {gh_files} }} }} rateLimit {{ cost nodeCount used }} }}"
    )
    first = graphql(api, query)
    assert first["data"]["rateLimit"] == {"cost": 1, "nodeCount": 100, "used": 1}
    # under 100 PRs: 1 + 100 (labels) + 100 (files) = 201 requests -> 2 points; the
    # files connection is what takes it past 1 (101 requests round to 1)
    nested = (
        'query Nested { repository(owner: "acme", name: "todo") { pullRequests(first: 100) {'
        " nodes { labels(first: 1) { nodes { name } } files(first: 100) { nodes { path } } } } }"
        " rateLimit { cost nodeCount used } }"
    )
    answer = graphql(api, nested)
    assert answer["data"]["rateLimit"] == {"cost": 2, "nodeCount": 10_200, "used": 3}
    without = nested.replace("files(first: 100) { nodes { path } }", "")
    assert graphql(api, without)["data"]["rateLimit"]["cost"] == 1
    assert [(e.endpoint, e.cost) for e in emulator.ledger_entries()] == [
        ("PullRequestByNumber", 1),
        ("Nested", 2),
        ("Nested", 1),
    ]
    # the connection rules apply: a page size of 1-100 when nodes are asked for
    pr = 'query Bad { repository(owner: "acme", name: "todo") { pullRequest(number: 1) { '
    for selection, kind in [
        ("files { nodes { path } }", "MISSING_PAGINATION_BOUNDARIES"),
        ("files(first: 101) { nodes { path } }", "EXCESSIVE_PAGINATION"),
    ]:
        refused = graphql(api, pr + selection + " } } }")
        assert refused["data"] is None and [e["type"] for e in refused["errors"]] == [kind]
    counted = graphql_pull(api, 1, "files { totalCount }")
    assert counted == {"files": {"totalCount": 1}}
    assert len(emulator.ledger_entries()) == 4  # refused queries are free


def test_commit_stats_are_each_commits_own_diff(emulator: Emulator, api: httpx.Client) -> None:
    emulator.push("acme/todo", "feat/x", files={"a.txt": "1\n2\n"})
    emulator.push("acme/todo", "feat/x", files={"a.txt": "1\n2\n3\n", "b.txt": "4\n"})
    number = emulator.create_pull("acme/todo", "feat/x")
    stats = "additions deletions changedFilesIfAvailable"
    commit_stats = f"commits(first: 10) {{ nodes {{ commit {{ {stats} }} }} }}"
    pull = graphql_pull(api, number, f"additions deletions changedFiles {commit_stats}")
    commits = [n["commit"] for n in pull["commits"]["nodes"]]
    # a.txt added (2 lines); then one line appended to a.txt and b.txt added
    assert commits == [
        {"additions": 2, "deletions": 0, "changedFilesIfAvailable": 1},
        {"additions": 2, "deletions": 0, "changedFilesIfAvailable": 2},
    ]
    assert (pull["additions"], pull["deletions"], pull["changedFiles"]) == (4, 0, 2)
    # the merge commit brings the PR's diff to main: its stats are the PR's
    assert api.put(f"{REPO}/pulls/{number}/merge", json={}).json()["merged"] is True
    merge = graphql_pull(api, number, f"mergeCommit {{ {stats} }}")["mergeCommit"]
    assert merge == {"additions": 4, "deletions": 0, "changedFilesIfAvailable": 2}
    # a repository's first commit adds its README.md (one line)
    emulator.create_repo("acme/fresh")
    query = (
        'query Root { repository(owner: "acme", name: "fresh") { defaultBranchRef {'
        f" target {{ ... on Commit {{ {stats} }} }} }} }} }}"
    )
    root = graphql(api, query)["data"]["repository"]["defaultBranchRef"]["target"]
    assert root == {"additions": 1, "deletions": 0, "changedFilesIfAvailable": 1}


@pytest.mark.gh
def test_gh_pr_view_sizes_and_files_agree_with_rest(
    gh_env: dict[str, str], emulator: Emulator, gh_build: GhBuild
) -> None:
    emulator.push("acme/todo", "feat/a", files={"a.txt": "1\n2\n", "b.txt": "3\n"})
    emulator.push("acme/todo", "feat/a", files={"README.md": "new\ntext\n"})
    number = emulator.create_pull("acme/todo", "feat/a")

    def gh(*args: str) -> Any:
        done = subprocess.run(["gh", *args], env=gh_env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    fields = "additions,deletions,changedFiles,files"
    viewed = gh("pr", "view", str(number), "-R", "acme/todo", "--json", fields)
    jq = "{additions, deletions, changedFiles: .changed_files}"
    sizes = gh("api", f"repos/acme/todo/pulls/{number}", "--jq", jq)
    # gh 2.102 also reads each file's changeType (REST's status: added, modified here)
    change = gh_build.version != "2.23.0"
    files_jq = "map({path: .filename, additions, deletions"
    files_jq += ", changeType: (.status | ascii_upcase)})" if change else "})"
    files = gh("api", f"repos/acme/todo/pulls/{number}/files", "--jq", files_jq)
    assert viewed == sizes | {"files": files}
    expected_files = [
        {"path": "README.md", "additions": 2, "deletions": 1, "changeType": "MODIFIED"},
        {"path": "a.txt", "additions": 2, "deletions": 0, "changeType": "ADDED"},
        {"path": "b.txt", "additions": 1, "deletions": 0, "changeType": "ADDED"},
    ]
    if not change:
        expected_files = [{k: v for k, v in f.items() if k != "changeType"} for f in expected_files]
    assert viewed == {"additions": 5, "deletions": 1, "changedFiles": 3, "files": expected_files}
    # gh asks for files(first: 100): one request, one point
    assert [(e.endpoint, e.cost) for e in emulator.ledger_entries()] == [
        ("PullRequestByNumber", 1),
        ("GET /repos/{owner}/{repo}/pulls/{number}", 1),
        ("GET /repos/{owner}/{repo}/pulls/{number}/files", 1),
    ]


def test_trees_survive_a_restart(tmp_path: Path) -> None:
    first = new_emulator(state_dir=tmp_path)
    assert put(_client(first), "kept.md", "v1\n").status_code == 201
    number = first.create_pull("acme/todo", "feat/x")
    first.db.close()
    again = _client(Emulator(state_dir=tmp_path))
    assert put(again, "kept.md", "v2\n").status_code == 422  # still there: sha needed
    files = again.get(f"{REPO}/pulls/{number}/files").json()
    assert [f["filename"] for f in files] == ["notes/feat/x.md"]


def _client(emulator: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": f"token {TOKEN}"},
    )
