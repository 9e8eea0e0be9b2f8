"""What every resolver shares: URLs, GitHub's DateTime, NOT_FOUND (pure)."""

from __future__ import annotations

import pytest
from graphql import GraphQLError

from ghbench.emulator.graphql.resolvers.context import (
    DEFAULT_WEB_URL,
    ResolveContext,
    github_error,
    iso,
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
