"""Commit search on the store (``search_commits``): default branches only, words of the
message, the author and hash qualifiers, dates, merges, scopes GitHub refuses, and
the order asked for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ghbench.emulator.core import Emulator
from ghbench.emulator.search import SearchProblem
from ghbench.emulator.search.commits import search_commits
from ghbench.emulator.search.query import UNSEARCHABLE_REPOS
from ghbench.emulator.state import Commit


def _commit(emulator: Emulator, branch: str, message: str, author: str | None = None) -> Commit:
    repo = emulator.store.repo("acme", "todo")
    assert repo is not None
    emulator.advance_clock(86_400)  # a day apart
    with emulator.db.transaction():
        return emulator.store.commit_to_branch(repo, branch, message, author=author)


@pytest.fixture
def log(emulator: Emulator) -> dict[str, str]:
    """acme/todo's main: Initial commit, then three commits a day apart (and one on a
    branch, which search does not see); their shas by message."""
    made = [
        _commit(emulator, "main", "Fix the parser", author="octo"),
        _commit(emulator, "main", "Prefix every line"),
        _commit(emulator, "feat/x", "Fix elsewhere"),
        _commit(emulator, "main", "Docs: fix typos", author="hubot"),
    ]
    return {c.message: c.sha for c in made}


def _found(emulator: Emulator, query: str, **kwargs: str) -> list[str]:
    return [c.message for _, c in search_commits(emulator.store, query, "octo", **kwargs)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("fix", ["Docs: fix typos", "Fix the parser"]),  # words, not "Prefix"
        ('"the parser"', ["Fix the parser"]),
        ("author:octo", ["Fix the parser"]),
        ("author:@me", ["Fix the parser"]),
        ("author:OCTO fix", ["Fix the parser"]),
        ("author:hubot author:octo", ["Docs: fix typos", "Fix the parser"]),  # either
        ("fix -author:hubot", ["Fix the parser"]),
        ("merge:false repo:acme/todo initial", ["Initial commit"]),
        ("merge:true", []),
        ("is:public user:acme every", ["Prefix every line"]),
        ("is:private", []),
        ("elsewhere", []),  # only default branches
        ("colour:red", []),  # an unknown key is plain text
    ],
)
def test_what_matches(
    emulator: Emulator, log: dict[str, str], query: str, expected: list[str]
) -> None:
    assert _found(emulator, query) == expected


def test_shas_dates_and_order(emulator: Emulator, log: dict[str, str]) -> None:
    sha = log["Prefix every line"]
    assert _found(emulator, f"hash:{sha[:7]}") == ["Prefix every line"]
    assert _found(emulator, f"hash:{sha.upper()}") == ["Prefix every line"]
    assert _found(emulator, f"parent:{log['Fix the parser'][:10]}") == ["Prefix every line"]
    started = emulator.store.commits_between(emulator.store.repo("acme", "todo"), None, sha)[0]
    day = datetime.fromtimestamp(started.created_at, UTC).date()
    two, three = ((day + timedelta(days=n)).isoformat() for n in (2, 3))
    assert _found(emulator, f"author-date:>={three}") == ["Docs: fix typos"]
    assert _found(emulator, f"committer-date:<{two}") == ["Fix the parser", "Initial commit"]
    assert _found(emulator, f"author-date:{two}..{three}") == ["Prefix every line"]
    newest = _found(emulator, "")
    assert newest == ["Docs: fix typos", "Prefix every line", "Fix the parser", "Initial commit"]
    assert _found(emulator, "", sort="author-date", order="asc") == newest[::-1]


def test_a_scope_that_does_not_exist_is_refused(emulator: Emulator, log: dict[str, str]) -> None:
    for query in ("repo:acme/none fix", "user:nobody", "org:nobody"):
        with pytest.raises(SearchProblem) as refused:
            search_commits(emulator.store, query)
        assert refused.value.message == UNSEARCHABLE_REPOS
    emulator.create_repo("acme/empty")
    assert _found(emulator, "repo:acme/empty") == ["Initial commit"]
