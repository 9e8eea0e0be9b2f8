"""githubkit (typed REST client, pydantic models) against the emulator over a socket."""

from __future__ import annotations

from typing import Any

import githubkit  # a dev dependency: missing is an error, never a skip
import pytest


@pytest.fixture
def github(emulator_server: Any) -> Any:
    emulator_server.emulator.seed(
        {"repos": [{"name": "acme/todo", "issues": 1, "pulls": 2, "ci": "success"}]}
    )
    return githubkit.GitHub(
        githubkit.TokenAuthStrategy(emulator_server.token),
        base_url=emulator_server.url,
        http_cache=False,
        auto_retry=False,
    )


@pytest.mark.slow
def test_typed_models_parse_and_ledger_matches_headers(github: Any, emulator_server: Any) -> None:
    rest = github.rest
    assert rest.users.get_authenticated().parsed_data.login == "octo"
    repo = rest.repos.get("acme", "todo").parsed_data
    assert repo.full_name == "acme/todo"
    pulls = rest.pulls.list("acme", "todo", state="open").parsed_data
    assert [p.number for p in pulls] == [3, 2]
    # GitHub computes mergeability in the background: null first, then the answer
    assert rest.pulls.get("acme", "todo", 2).parsed_data.mergeable is None
    full = rest.pulls.get("acme", "todo", 2).parsed_data
    assert full.mergeable is True and full.head.ref == "feat/issue-1"
    sha = full.head.sha
    assert (
        rest.repos.get_combined_status_for_ref("acme", "todo", sha).parsed_data.state == "success"
    )
    runs = rest.checks.list_for_ref("acme", "todo", sha, per_page=1).parsed_data
    assert runs.total_count == 1 and runs.check_runs[0].conclusion == "success"
    issue = rest.issues.create("acme", "todo", title="From githubkit").parsed_data
    comment = rest.issues.create_comment("acme", "todo", issue.number, body="hi").parsed_data
    assert comment.body == "hi"
    review_comment = rest.pulls.create_review_comment(
        "acme", "todo", 2, body="nit", commit_id=sha, path="README.md", line=1
    ).parsed_data
    assert review_comment.body == "nit"
    assert len(rest.pulls.list_review_comments("acme", "todo", 2).parsed_data) == 1
    assert (
        rest.pulls.create_review("acme", "todo", 2, event="APPROVE").parsed_data.state == "APPROVED"
    )
    assert rest.git.get_ref("acme", "todo", "heads/main").parsed_data.ref == "refs/heads/main"
    merged = rest.pulls.merge("acme", "todo", 3, merge_method="squash").parsed_data
    assert merged.merged is True
    last = rest.issues.get("acme", "todo", issue.number)
    limits = rest.rate_limit.get().parsed_data
    used = int(last.headers["x-ratelimit-used"])
    assert limits.resources.core.used == used
    ledger = emulator_server.emulator.ledger_totals()
    assert ledger == {"core": used} and used == 15


def test_pull_files_and_contents_updates_parse(github: Any, emulator_server: Any) -> None:
    rest = github.rest
    (entry,) = rest.pulls.list_files("acme", "todo", 2).parsed_data  # githubkit's DiffEntry
    assert (entry.filename, entry.status, entry.changes) == ("notes/feat/issue-1.md", "added", 1)
    ref = entry.blob_url.split("/blob/")[1].split("/")[0]
    assert entry.contents_url.endswith(f"/contents/notes/feat/issue-1.md?ref={ref}")
    created = rest.repos.create_or_update_file_contents(
        "acme", "todo", "docs/new.md", message="add", content="aGkK"
    ).parsed_data
    assert created.content is not None and created.content.path == "docs/new.md"
    with pytest.raises(githubkit.exception.RequestFailed) as refused:
        rest.repos.create_or_update_file_contents(
            "acme", "todo", "docs/new.md", message="again", content="aGkK", sha="0" * 40
        )
    assert refused.value.response.status_code == 409
    updated = rest.repos.create_or_update_file_contents(
        "acme", "todo", "docs/new.md", message="again", content="aGkK", sha=created.content.sha
    )
    assert updated.status_code == 200
