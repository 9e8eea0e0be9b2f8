"""What every resolver shares: URLs, GitHub's DateTime, NOT_FOUND (pure but for the
store the page URLs look records up in)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from graphql import GraphQLError

from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.resolvers.context import (
    DEFAULT_WEB_URL,
    Info,
    ResolveContext,
    github_error,
    iso,
    item_url,
    repo_url_of,
    resolved,
)
from ghbench.emulator.state import Repo


def test_iso_is_whole_seconds_utc_with_z() -> None:
    assert iso(0) == "1970-01-01T00:00:00Z"
    assert iso(1_700_000_000.9) == "2023-11-14T22:13:20Z"
    assert iso(None) is None


def test_resolved_passes_a_value_and_turns_none_into_githubs_not_found() -> None:
    assert resolved(0, "a thing") == 0
    with pytest.raises(GraphQLError) as missing:
        resolved(None, "a Repository with the name 'a/b'.")
    assert missing.value.message == "Could not resolve to a Repository with the name 'a/b'."
    assert missing.value.extensions == {"type": "NOT_FOUND"}
    assert github_error("UNPROCESSABLE", "no").extensions == {"type": "UNPROCESSABLE"}


def test_urls_are_under_the_contexts_web_address() -> None:
    repo = Repo(id=1, node_id="R_1", owner_id=2, owner_login="acme", name="todo")
    context = ResolveContext(store=None, viewer=None, report=None, bucket=None)  # type: ignore[arg-type]
    assert context.repo_url(repo) == f"{DEFAULT_WEB_URL}/acme/todo"
    context.web_url = "http://github.localhost:8080"
    assert context.user_url("octo") == "http://github.localhost:8080/octo"


def test_a_records_repository_and_an_issue_or_pull_requests_page(emulator: Emulator) -> None:
    issue = emulator.create_issue("acme/todo", "T")
    pull = emulator.create_pull("acme/todo", "feat/x")
    repo = emulator.store.get_repo("acme", "todo")
    context = ResolveContext(emulator.store, None, None, None, "http://github.localhost")  # type: ignore[arg-type]
    info = cast(Info, SimpleNamespace(context=context))
    page = "http://github.localhost/acme/todo"
    assert repo_url_of(info, repo.id) == page
    assert item_url(info, repo.id, issue) == f"{page}/issues/{issue}"
    assert item_url(info, repo.id, pull) == f"{page}/pull/{pull}"
