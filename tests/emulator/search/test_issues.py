"""Issue and pull request search on the store (``search_issues``): GitHub's qualifiers,
boolean operators, dates and sorting, what GitHub refuses and what it lets through."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from search_helpers import found

from ghbench.emulator.core import Emulator
from ghbench.emulator.search import SearchProblem
from ghbench.emulator.search.query import (
    INVALID_SYNTAX,
    TOO_LONG,
    TOO_MANY_OPERATORS,
    UNSEARCHABLE_REPOS,
    UNSEARCHABLE_USERS,
)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("repo:acme/todo", ["todo#6", "todo#5", "todo#4", "todo#3", "todo#2", "todo#1"]),
        ("repo:acme/todo is:pr", ["todo#5", "todo#3", "todo#2"]),
        ("repo:acme/todo type:issue state:closed", ["todo#6"]),
        ("repo:acme/todo is:pr is:open", ["todo#3", "todo#2"]),
        ("repo:acme/todo is:merged", ["todo#5"]),
        ("repo:acme/todo is:unmerged", ["todo#3", "todo#2"]),
        ("repo:acme/todo draft:true", ["todo#3"]),
        ("repo:acme/todo is:pr draft:false", ["todo#5", "todo#2"]),
        ("author:alice", ["todo#4", "todo#2"]),
        ("author:@me type:pr", ["todo#5", "todo#3"]),
        ("label:bug", ["other#1", "todo#2", "todo#1"]),  # names compare case-insensitively
        ("label:bug label:ui", ["todo#2"]),  # repeated label: both
        ("label:ui,Bug repo:acme/todo", ["todo#2", "todo#1"]),  # a comma: either
        ("-label:bug repo:acme/todo", ["todo#6", "todo#5", "todo#4", "todo#3"]),
        ("no:label user:acme", ["todo#6", "todo#5", "todo#4", "todo#3"]),
        ("org:bob", ["tools#1"]),
        ("repo:acme/other repo:bob/tools", ["tools#1", "other#1"]),  # repeated scope: either
        ("status:failure", ["todo#2"]),
        ("status:success", ["todo#5"]),
        ("review:approved", ["todo#2"]),
        ("review:none is:pr", ["tools#1", "todo#5", "todo#3"]),
        ("reviewed-by:bob", ["todo#2"]),
        ("commenter:bob", ["todo#2"]),
        ("mentions:octo", ["todo#2"]),  # in a comment
        ("involves:alice", ["todo#4", "todo#2"]),  # author, or mentioned in the body
        ("reason:not_planned", ["todo#6"]),
        ('reason:"not planned"', ["todo#6"]),
        ("head:feat/docs", ["todo#3"]),
        ("base:main repo:bob/tools", ["tools#1"]),
        ("comments:>0", ["todo#2"]),
        ("comments:0 repo:acme/other", ["other#1"]),
        # Words: at a word start, in the title, body or comments; in: narrows.
        ("fix", ["todo#2"]),
        ("fix in:body", []),
        ("crash", ["todo#1"]),
        ("crash in:title", []),
        ("please in:comments", ["todo#2"]),
        ('"the parser"', ["todo#2"]),
        ("refix", []),
        # Not modelled, so nothing carries them (and their negations match all).
        ("assignee:octo", []),
        ("milestone:v1", []),
        ("review-requested:octo", []),
        ("-assignee:octo repo:acme/other", ["other#1"]),
        ("no:assignee repo:acme/other", ["other#1"]),
        # A key GitHub does not have is plain text.
        ("foo:bar", []),
        ("stars:>5 repo:acme/other", []),  # a repository qualifier: text in issue search
        ("-stars:>5 repo:acme/other", ["other#1"]),
    ],
)
def test_qualifiers_match_like_github(
    search_world: Emulator, query: str, expected: list[str]
) -> None:
    assert found(search_world, query) == expected


def test_boolean_operators_and_grouping(search_world: Emulator) -> None:
    # OR binds loosest: the repository stays on the left (cli/cli#11774's reading).
    assert found(search_world, "repo:bob/tools is:pr OR label:ui") == ["tools#1", "todo#2"]
    assert found(search_world, "repo:acme/todo (author:bob OR author:alice) is:issue") == [
        "todo#6",
        "todo#4",
    ]
    assert found(search_world, "repo:acme/todo NOT bug") == found(
        search_world, "repo:acme/todo -bug"
    )
    assert found(search_world, "repo:acme/todo author:alice AND is:pr") == ["todo#2"]
    assert found(search_world, "author:alice author:bob is:issue") == ["todo#6", "todo#4"]
    assert found(search_world, "-author:octo -author:alice") == ["tools#1", "todo#6"]


def test_dates_sorting_and_the_merged_date(search_world: Emulator) -> None:
    store = search_world.store
    repo = store.repo("acme", "todo")
    assert repo is not None
    first = store.issue(repo, 1)
    assert first is not None
    start = first.created_at
    day = datetime.fromtimestamp(start, UTC)
    date = day.strftime("%Y-%m-%d")
    assert len(found(search_world, f"created:{date}")) == 8
    assert found(search_world, f"created:<{date}") == []
    assert found(search_world, f"created:>={date} is:merged") == ["todo#5"]
    assert found(search_world, f"merged:{date}") == ["todo#5"]
    assert found(search_world, f"closed:{date}..*") == ["todo#6", "todo#5"]
    stamp = day.strftime("%Y-%m-%dT%H:%M:%S")
    assert found(search_world, f"repo:acme/todo created:<={stamp}") == ["todo#1"]
    assert found(search_world, "repo:acme/todo sort:created-asc")[:2] == ["todo#1", "todo#2"]
    assert found(search_world, "repo:acme/todo sort:comments")[0] == "todo#2"
    # REST's sort/order win over the qualifier.
    assert found(search_world, "repo:acme/todo sort:created-asc", sort="created")[0] == "todo#6"
    assert found(search_world, "repo:acme/todo", sort="updated", order="asc")[0] == "todo#1"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("is:open (", INVALID_SYNTAX),
        ("is:open )", INVALID_SYNTAX),
        ("bug OR", INVALID_SYNTAX),
        ("AND bug", INVALID_SYNTAX),
        ("bug NOT", INVALID_SYNTAX),
        ("()", INVALID_SYNTAX),
        ("x" * 257, TOO_LONG),
        ("a OR b OR c OR d OR e OR f OR g", TOO_MANY_OPERATORS),
        # issue 12 case 9: these were RecursionErrors (a 500); parentheses count as text
        ("(" * 1000 + "bug" + ")" * 1000, TOO_LONG),
        ("NOT " * 2000 + "bug", TOO_MANY_OPERATORS),
        ("(" * 253 + "bug", INVALID_SYNTAX),  # 256 characters: parsed, then refused
        ("repo:nobody/nothing", UNSEARCHABLE_REPOS),
        ("user:nobody bug", UNSEARCHABLE_REPOS),
        ("author:nobody", UNSEARCHABLE_USERS),
        ("assignee:nobody is:open", UNSEARCHABLE_USERS),
    ],
)
def test_what_github_refuses(search_world: Emulator, query: str, message: str) -> None:
    with pytest.raises(SearchProblem) as refused:
        found(search_world, query)
    assert refused.value.message == message


def test_one_existing_name_is_enough(search_world: Emulator) -> None:
    # Measured on github.com: unknown repositories/users beside a known one are ignored.
    assert found(search_world, "repo:nobody/nothing repo:bob/tools") == ["tools#1"]
    assert found(search_world, "author:nobody author:alice is:pr") == ["todo#2"]
    assert found(search_world, "x" * 256) == []  # 256 characters of text are allowed
    assert found(search_world, "repo:acme/todo " + "label:bug " * 40) == ["todo#2", "todo#1"]


def test_locks_reactions_and_closing_links(search_world: Emulator) -> None:
    store = search_world.store
    repo = store.get_repo("acme", "todo")
    issue = store.issue(repo, 1)
    assert issue is not None
    assert found(search_world, "repo:acme/todo is:locked") == []
    store.set_locked(issue, True, "resolved")
    store.react(repo.id, issue.node_id, store.ensure_user("bob"), "+1")
    assert found(search_world, "repo:acme/todo is:locked") == ["todo#1"]
    assert "todo#1" not in found(search_world, "repo:acme/todo is:unlocked")
    assert found(search_world, "repo:acme/todo reactions:>0") == ["todo#1"]
    assert found(search_world, "repo:acme/todo is:issue interactions:>=1") == ["todo#1"]
    assert found(search_world, "repo:acme/todo linked:issue") == []
    search_world.create_pull("acme/todo", "feat/fix", title="Fix", body="Closes #1", author="octo")
    assert found(search_world, "repo:acme/todo linked:issue") == ["todo#7"]
    assert found(search_world, "repo:acme/todo linked:pr") == ["todo#1"]
