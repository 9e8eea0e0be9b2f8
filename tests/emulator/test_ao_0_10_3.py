"""What AO 0.10.3's daemon asks GitHub, served as GitHub serves it (issue 18, Deliver 3).

The daemon (Go, ``backend/internal``) calls the REST API and ``/graphql`` itself, with
its own headers (``Accept: application/vnd.github+json``, ``X-GitHub-Api-Version:
2022-11-28``, ``Authorization: Bearer``, its User-Agent). Each call it makes is sent
here exactly so, over a real socket: the SCM observer's ETag guards (open-PR list with
``per_page=1``, check runs per head commit), its open-PR listing, the PR batch of up to
25 aliases, the check-context continuation, review threads (two pages), failed-job log
tails (302, then the log), the legacy ``Observe`` (``pulls/{n}`` and its query), the
tracker (``/user``, ``issues/{n}``, the issue list with its ETag) and the reviewer's
``gh api`` review with inline comments. The GraphQL documents are AO's, verbatim
(``ao_0_10_3/``: its builders' output for acme/todo); each is validated against
GitHub's schema, run, and charged what GitHub's published formula says; REST answers
are checked against GitHub's OpenAPI description.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from github_descriptions import github_graphql_schema, githubs_problems, openapi
from graphql import OperationDefinitionNode, parse
from openapi_check import operation_for, problems

from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.cost import analyze_cost

FIXTURES = Path(__file__).parent / "ao_0_10_3"
REPO = "acme/todo"
LOG = "\n".join(f"test {i} ok" for i in range(30)) + "\nFAILED tests/test_parse.py::test_split"


def _document(name: str, **values: str) -> str:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(key, value)
    return text


@pytest.fixture
def ao(emulator_server: Any) -> Iterator[tuple[httpx.Client, Emulator]]:
    """25 open PRs (AO's batch size): #1 with failing CI (a log), 25 contexts and two
    review threads; #2 with passing CI; issue #26 labelled for the tracker."""
    emu: Emulator = emulator_server.emulator
    emu.create_user("reviewer", ["ghp_reviewer0000000000000000000000000002"])
    for n in range(1, 26):
        emu.create_pull(REPO, f"ao/session-{n}", title=f"Session {n}", author="octo")
    emu.set_ci(REPO, "failure", pr=1, name="tests", log=LOG)
    for n in range(24):
        emu.set_ci(REPO, "success", pr=1, name=f"lint-{n}")
    emu.set_ci(REPO, "success", pr=2, name="tests")
    emu.add_review_comments(REPO, count=2, prs=[1], author="reviewer")
    emu.create_issue(REPO, "Parse words", body="split", author="octo", labels=["bug"])
    client = httpx.Client(
        base_url=emulator_server.url,
        headers={
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "ao-agent-orchestrator/scm-github",
            "Authorization": f"Bearer {emulator_server.token}",
        },
        follow_redirects=True,  # Go's http.Client follows the logs' 302
    )
    with client:
        yield client, emu


def _githubs(method: str, pattern: str, response: httpx.Response) -> None:
    """The answer is what GitHub's OpenAPI description allows for that operation."""
    document = openapi()
    found = operation_for(document, method, pattern)
    assert found is not None, pattern
    body = response.json() if response.content else None
    media = "application/json"
    assert problems(document, found[1], response.status_code, media, body) == []


def _graphql(client: httpx.Client, query: str, variables: dict[str, Any] | None = None) -> Any:
    payload: dict[str, Any] = {"query": query}
    if variables is not None:
        payload["variables"] = variables
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    response = client.post("/graphql", content=json.dumps(payload), headers=headers)
    assert response.status_code == 200
    body = response.json()
    assert "errors" not in body, body.get("errors")
    return body["data"]


def _githubs_cost(query: str, variables: dict[str, Any] | None = None) -> int:
    """The points GitHub's published formula gives ``query`` on GitHub's own schema."""
    assert githubs_problems(query) == []  # GitHub would run it as it is
    document = parse(query)
    schema = github_graphql_schema()
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    return analyze_cost(schema, document, operation, variables or {}).cost


def _charged(emu: Emulator) -> int:
    return emu.ledger_entries()[-1].cost


def test_observer_guards_answer_free_304s(ao: tuple[httpx.Client, Emulator]) -> None:
    client, emu = ao
    guard = f"/repos/{REPO}/pulls?state=open&sort=updated&direction=desc&per_page=1"
    first = client.get(guard)
    assert first.status_code == 200 and [p["number"] for p in first.json()] == [25]
    _githubs("GET", "/repos/{owner}/{repo}/pulls", first)
    charged = len(emu.ledger_entries())
    again = client.get(guard, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert len(emu.ledger_entries()) == charged  # GitHub's 304s are free
    # the guard changed: the whole open list, 100 a page, until a page is short
    listed = client.get(
        f"/repos/{REPO}/pulls?direction=desc&page=1&per_page=100&sort=updated&state=open"
    )
    assert len(listed.json()) == 25 and "link" not in listed.headers
    head = next(p for p in listed.json() if p["number"] == 1)["head"]["sha"]
    checks = f"/repos/{REPO}/commits/{head}/check-runs?per_page=1"
    runs = client.get(checks)
    assert runs.json()["total_count"] == 25
    _githubs("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs", runs)
    assert client.get(checks, headers={"If-None-Match": runs.headers["etag"]}).status_code == 304
    # a new check run: the guard's page (the newest run, the count) changed; an update of
    # an older run would not change it, on GitHub either (a per_page=1 page's ETag)
    emu.set_ci(REPO, "pending", pr=1, name="deploy")
    assert client.get(checks, headers={"If-None-Match": runs.headers["etag"]}).status_code == 200
    # the legacy Observe's pulls/{n}, with its ETag cache
    pull = client.get(f"/repos/{REPO}/pulls/1")
    _githubs("GET", "/repos/{owner}/{repo}/pulls/{number}", pull)
    pull = client.get(f"/repos/{REPO}/pulls/1")  # mergeability computed by now
    assert pull.json()["mergeable"] is True
    etag = pull.headers["etag"]
    assert client.get(f"/repos/{REPO}/pulls/1", headers={"If-None-Match": etag}).status_code == 304


def test_the_pr_batch_and_its_continuation(ao: tuple[httpx.Client, Emulator]) -> None:
    client, emu = ao
    query = _document("batch_prs_25.graphql")
    data = _graphql(client, query)
    assert sorted(data, key=lambda a: int(a[2:])) == [f"pr{i}" for i in range(25)]
    assert _charged(emu) == _githubs_cost(query) == 1  # 25 x (commits + contexts) = 50
    first = data["pr0"]["pullRequest"]
    assert (first["number"], first["reviewDecision"]) == (1, None)  # no protection
    assert first["mergeable"] == "UNKNOWN"  # computed now, as GitHub does on a read
    contexts = first["commits"]["nodes"][0]["commit"]["statusCheckRollup"]["contexts"]
    assert len(contexts["nodes"]) == 20 and contexts["pageInfo"]["hasNextPage"] is True
    assert {n["__typename"] for n in contexts["nodes"]} <= {"CheckRun", "StatusContext"}
    later = _graphql(client, query)["pr0"]["pullRequest"]
    assert (later["mergeable"], later["mergeStateStatus"]) == ("MERGEABLE", "UNSTABLE")
    # AO asks for the rest of the contexts after the page's end cursor
    cursor = json.dumps(contexts["pageInfo"]["endCursor"])
    rest_query = _document("check_contexts_after.graphql", CURSOR=cursor)
    rest = _graphql(client, rest_query)["repo"]["pullRequest"]
    more = rest["commits"]["nodes"][0]["commit"]["statusCheckRollup"]["contexts"]
    assert len(more["nodes"]) == 20 and more["pageInfo"]["hasNextPage"] is True
    kinds = {n["__typename"] for n in contexts["nodes"] + more["nodes"]}
    assert kinds == {"CheckRun", "StatusContext"}  # 25 check runs, then the statuses
    assert _charged(emu) == _githubs_cost(rest_query) == 1
    two = _document("batch_prs_2.graphql")
    assert sorted(_graphql(client, two)) == ["pr0", "pr1"]


def test_review_threads_in_two_pages(ao: tuple[httpx.Client, Emulator]) -> None:
    client, emu = ao
    query = _document("review_threads.graphql")
    pr = _graphql(client, query)["repo"]["pullRequest"]
    assert _charged(emu) == _githubs_cost(query) == 1  # reviews 1 + threads 1 + 50 comments
    assert pr["reviewDecision"] is None and pr["reviewSummaries"]["nodes"] == []
    threads = pr["reviewThreads"]
    assert len(threads["nodes"]) == 2
    author = threads["nodes"][0]["comments"]["nodes"][0]["author"]
    assert author == {"login": "reviewer", "__typename": "User"}
    assert threads["pageInfo"]["hasPreviousPage"] is False
    older = _document(
        "review_threads_before.graphql", CURSOR=json.dumps(threads["pageInfo"]["startCursor"])
    )
    page = _graphql(client, older)["repo"]["pullRequest"]["reviewThreads"]
    assert page["nodes"] == [] and page["pageInfo"]["hasPreviousPage"] is False


def test_the_legacy_observe_query(ao: tuple[httpx.Client, Emulator]) -> None:
    client, emu = ao
    query = _document("observe_pr.graphql")
    variables = {"owner": "acme", "repo": "todo", "number": 1}
    pr = _graphql(client, query, variables)["repository"]["pullRequest"]
    assert pr["number"] == 1 and len(pr["reviewThreads"]["nodes"]) == 2
    # commits 1 + contexts 1 + threads 1 + 100 comments: 103 requests, 1 point
    assert _charged(emu) == _githubs_cost(query, variables) == 1


def test_a_failed_jobs_log_tail(ao: tuple[httpx.Client, Emulator]) -> None:
    client, emu = ao
    data = _graphql(client, _document("batch_prs_2.graphql"))
    nodes = data["pr0"]["pullRequest"]["commits"]["nodes"][0]["commit"]["statusCheckRollup"]
    failed = [
        n
        for n in nodes["contexts"]["nodes"]
        if n["__typename"] == "CheckRun" and n["conclusion"] == "FAILURE"
    ]
    (job,) = failed
    before = len(emu.ledger_entries())
    log = client.get(f"/repos/{REPO}/actions/jobs/{job['databaseId']}/logs")
    assert log.status_code == 200 and log.headers["content-type"].startswith("text/plain")
    assert [r.status_code for r in log.history] == [302]
    tail = log.text.strip().splitlines()[-20:]  # AO keeps the last 20 lines
    assert any("FAILED tests/test_parse.py::test_split" in line for line in tail)
    assert any(line.endswith("Error: Process completed with exit code 1.") for line in tail)
    # the API call is charged, the download of the log is not (as on GitHub)
    assert len(emu.ledger_entries()) == before + 1


def test_the_tracker_and_doctor(ao: tuple[httpx.Client, Emulator]) -> None:
    client, _ = ao
    user = client.get("/user", headers={"User-Agent": "ao-agent-orchestrator/doctor"})
    assert user.json()["login"] == "octo" and user.headers["x-oauth-scopes"]
    issue = client.get(f"/repos/{REPO}/issues/26")
    _githubs("GET", "/repos/{owner}/{repo}/issues/{number}", issue)
    assert (issue.json()["state"], [x["name"] for x in issue.json()["labels"]]) == ("open", ["bug"])
    listed = client.get(f"/repos/{REPO}/issues?labels=bug&per_page=100&state=open")
    _githubs("GET", "/repos/{owner}/{repo}/issues", listed)
    assert [i["number"] for i in listed.json() if "pull_request" not in i] == [26]
    cached = client.get(
        f"/repos/{REPO}/issues?labels=bug&per_page=100&state=open",
        headers={"If-None-Match": listed.headers["etag"]},
    )
    assert cached.status_code == 304


@pytest.mark.gh
def test_the_reviewer_posts_a_review_with_inline_comments(
    ao: tuple[httpx.Client, Emulator], gh_env: dict[str, str]
) -> None:
    """What AO's review prompt has the reviewer agent run (``internal/review/prompt.go``)."""
    client, _ = ao
    body = {
        "event": "COMMENT",
        "body": "Two findings.",
        "comments": [{"path": "notes/ao/session-1.md", "line": 1, "body": "Name this."}],
    }
    proc = subprocess.run(
        [
            "gh",
            "api",
            "--method",
            "POST",
            f"repos/{REPO}/pulls/1/reviews",
            "--input",
            "-",
            "--jq",
            ".id",
        ],
        env=gh_env,
        input=json.dumps(body),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    review_id = int(proc.stdout)
    comments = client.get(f"/repos/{REPO}/pulls/1/comments").json()
    assert [(c["body"], c["pull_request_review_id"]) for c in comments][-1] == (
        "Name this.",
        review_id,
    )
    threads = _graphql(client, _document("review_threads.graphql"))["repo"]["pullRequest"]
    assert len(threads["reviewThreads"]["nodes"]) == 3
