"""The control operations as methods (``operations.py``), on the in-process emulator:
what each creates or refuses, bulk seeding, the virtual clock, ledger filters and
export, all-or-none tuning, and a reset that re-applies the config's seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from emu_helpers import TOKEN, repo_named

from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.core import Emulator
from ghbench.emulator.errors import ApiError, NotFound
from ghbench.emulator.http import EmuRequest
from ghbench.errors import ArtifactError, ConfigError, UsageError

REPO = "acme/todo"


@pytest.mark.parametrize("name", ["todo", "acme/", "/todo", ""])
def test_a_repository_is_owner_slash_name(emulator: Emulator, name: str) -> None:
    with pytest.raises(ApiError) as refused:
        emulator.create_repo(name)
    assert refused.value.status == 422


def test_a_repository_is_created_once_with_default_labels(emulator: Emulator) -> None:
    made = emulator.create_repo("acme/new", default_branch="trunk")
    assert emulator.create_repo("acme/new").id == made.id
    assert made.default_branch == "trunk"
    assert emulator.store.label(made, "bug") is not None
    assert emulator.store.branch_sha(made, "trunk") is not None


def test_issues_and_pulls_with_authors_and_labels(emulator: Emulator) -> None:
    issue = emulator.create_issue(REPO, "T", author="newcomer", labels=["made-up"])
    store, repo = emulator.store, repo_named(emulator.store)
    made = store.issue(repo, issue)
    assert made is not None and made.labels == ["made-up"]
    assert store.user_by_id(made.user_id).login == "newcomer"
    assert store.label(repo, "made-up") is not None  # a missing label is created
    number = emulator.create_pull(REPO, "feat/x", draft=True, labels=["bug"])
    pull = store.pull(repo, number)
    assert pull is not None and pull.draft and pull.title == "Changes from feat/x"
    assert store.user_by_id(pull.user_id).login == "acme"  # the owner, when none is named
    assert store.branch_sha(repo, "feat/x") == pull.head_sha  # pushed first
    emulator.set_labels(REPO, number, ["a", "b"])
    emulator.set_labels(REPO, issue, [])
    assert pull.labels == ["a", "b"] and made.labels == []
    with pytest.raises(NotFound):
        emulator.set_labels(REPO, 99, ["a"])
    with pytest.raises(NotFound):
        emulator.create_issue("acme/none", "T")


def test_seed_in_bulk(emulator: Emulator) -> None:
    summary = emulator.seed(
        {
            "users": {"hubot": ["ghp_hubot000000000000000000000000000000002"]},
            "repos": [
                "acme/plain",
                {"name": "acme/busy", "issues": 2, "pulls": 3, "ci": "failure"},
            ],
        }
    )
    assert summary["repos"] == [
        {"name": "acme/plain", "issues": [], "pulls": []},
        {"name": "acme/busy", "issues": [1, 2], "pulls": [3, 4, 5]},
    ]
    assert [u["login"] for u in summary["users"]] == ["hubot"]
    busy = repo_named(emulator.store, "busy")
    pulls = emulator.store.pulls(busy)
    heads = sorted(p.head_ref for p in pulls)
    assert heads == ["feat/issue-1", "feat/issue-2", "feat/issue-3"]  # past the issues: N
    assert {emulator.store.combined_state(busy, p.head_sha) for p in pulls} == {"failure"}
    with pytest.raises(ConfigError, match="seed"):
        emulator.seed({"repos": [{"name": "acme/x", "isues": 1}]})
    assert emulator.store.repo("acme", "x") is None


def test_ci_needs_a_known_state_and_a_commit(emulator: Emulator) -> None:
    number = emulator.create_pull(REPO, "feat/x")
    for kwargs in [{"state": "green", "pr": number}, {"state": "success"}]:
        with pytest.raises(ApiError) as refused:
            emulator.set_ci(REPO, **kwargs)  # type: ignore[arg-type]
        assert refused.value.status == 422
    with pytest.raises(NotFound):
        emulator.set_ci(REPO, "success", pr=99)
    head = emulator.set_ci(REPO, "pending", pr=number)
    assert emulator.set_ci(REPO, "success", sha=head) == head
    assert emulator.store.combined_state(repo_named(emulator.store), head) == "success"


def test_pushes_and_review_comment_bursts(emulator: Emulator) -> None:
    first = emulator.create_pull(REPO, "feat/x")
    second = emulator.create_pull(REPO, "feat/y")
    store, repo = emulator.store, repo_named(emulator.store)
    sha = emulator.push(REPO, "feat/x", "Add", files={"a.txt": "a\n"})
    pull = store.pull(repo, first)
    assert pull is not None and pull.head_sha == sha  # the PR moved with its branch
    assert emulator.push(REPO, "feat/x") != sha  # no files: README.md rewritten
    assert emulator.add_review_comments(REPO, count=2) == 4  # every open PR
    assert emulator.add_review_comments(REPO, count=3, prs=[second], author="bot") == 3
    other = store.pull(repo, second)
    assert other is not None
    assert [c.body for c in store.review_comments(other)][-3:] == [
        "Review note 1",
        "Review note 2",
        "Review note 3",
    ]
    with pytest.raises(NotFound):
        emulator.add_review_comments(REPO, prs=[99])


def test_only_a_virtual_clock_moves(emulator: Emulator) -> None:
    start = emulator.clock.now()
    assert emulator.advance_clock(30) == start + 30
    assert emulator.set_clock(start + 100) == start + 100 == emulator.clock.now()
    with pytest.raises(UsageError, match="cannot go back"):  # the control API's 409
        emulator.set_clock(start)
    with pytest.raises(UsageError, match="cannot go back"):
        emulator.advance_clock(-1)
    assert emulator.clock.now() == start + 100
    real = Emulator()
    try:
        with pytest.raises(UsageError, match="virtual clock"):
            real.advance_clock(1)
        with pytest.raises(UsageError):
            real.set_clock(0)
    finally:
        real.close()


def test_the_ledger_filtered_and_exported_once(emulator: Emulator, tmp_path: Path) -> None:
    auth = {"authorization": f"token {TOKEN}"}
    emulator.handle(EmuRequest("GET", "/repos/acme/todo", headers=auth))
    emulator.advance_clock(10)
    middle = emulator.clock.now()
    emulator.handle(EmuRequest("GET", "/rate_limit", headers=auth))
    emulator.handle(EmuRequest("GET", "/repos/acme/todo/issues", headers=auth))
    assert emulator.ledger_count() == 2  # /rate_limit is free
    assert emulator.ledger_count(since=middle) == 1
    assert emulator.ledger_count(until=middle) == 1
    assert emulator.ledger_totals(token="octo") == {"core": 2}
    assert emulator.ledger_totals(resource="graphql") == {}
    assert emulator.ledger_count(token="nobody") == 0
    out = emulator.export_ledger(tmp_path / "ledger.jsonl", since=middle)
    assert len(out.read_text().splitlines()) == 1
    with pytest.raises(ArtifactError, match="already exists"):
        emulator.export_ledger(out)
    assert len(out.read_text().splitlines()) == 1


def test_tuning_is_all_or_none(emulator: Emulator) -> None:
    with pytest.raises(ConfigError, match="faults"):
        emulator.set_faults({"error_rate": 0.5, "latency": 3})
    assert emulator.config.faults.error_rate == 0.0  # nothing applied
    assert emulator.set_faults({"error_rate": 0.25}, error_status=503)["error_status"] == 503
    with pytest.raises(ConfigError, match="secondary"):
        emulator.set_secondary(enabled=False, nonsense=1)
    assert emulator.config.secondary.enabled is True
    for limit, window in [(-1, 3600), (10, 0)]:
        with pytest.raises(ApiError):
            emulator.set_limit("core", limit, window)
    emulator.set_limit("core", 7, owner="octo")
    emulator.set_limit("search", 9)
    assert emulator.rate_limit_document("octo")["resources"]["core"]["limit"] == 7
    assert emulator.rate_limit_document("octo")["resources"]["search"]["limit"] == 9


def test_reset_forgets_everything_but_the_configs_seed() -> None:
    config = EmulatorConfig(users={"octo": [TOKEN]}, repos=["acme/kept"])
    emulator = Emulator(config=config)
    try:
        emulator.apply_config_seed()
        emulator.create_repo("acme/gone")
        emulator.create_issue("acme/kept", "T")
        emulator.reset()
        assert sorted(r.full_name for r in emulator.store.repos.values()) == ["acme/kept"]
        kept = emulator.store.repo("acme", "kept")
        assert kept is not None and emulator.store.issues(kept, "all") == []
        assert emulator.store.user("octo") is not None
    finally:
        emulator.close()
