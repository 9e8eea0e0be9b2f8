"""GraphQL errors in GitHub's (graphql-ruby's) shape, from graphql-core's (pure: the
schema, parsed documents and their validation errors)."""

from __future__ import annotations

import pytest
from graphql import GraphQLError, parse, validate

from ghbench.emulator.graphql.errors import (
    format_execution_error,
    format_syntax_error,
    format_validation_error,
    not_found,
    rate_limited,
)
from ghbench.emulator.graphql.schema import load_schema


def _syntax(query: str) -> str:
    with pytest.raises(GraphQLError) as raised:
        parse(query)
    return str(format_syntax_error(raised.value)["message"])


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("{ viewer { login } }}", 'Parse error on "}" (RCURLY) at [1, 21]'),
        ("{ viewer { login }", "Parse error on end of file at [1, 19]"),
        ("{ viewer { login } } x", 'Parse error on "x" (IDENTIFIER) at [1, 22]'),
        ("{ viewer { 5 } }", 'Parse error on "5" (INT) at [1, 12]'),
        ("{ viewer { % } }", 'Parse error on "%" (UNKNOWN_CHAR) at [1, 12]'),
    ],
)
def test_syntax_errors_name_the_token_and_where_it_is(query: str, message: str) -> None:
    assert _syntax(query) == message


def _validation(query: str) -> list[dict[str, object]]:
    document = parse(query)
    return [format_validation_error(e, document) for e in validate(load_schema(), document)]


def test_an_unknown_field_has_graphql_rubys_path_code_and_words() -> None:
    (error,) = _validation("query Q { viewer { ... on User { nope } } }")
    assert error == {
        "path": ["query Q", "viewer", "... on User", "nope"],
        "extensions": {"code": "undefinedField", "typeName": "User", "fieldName": "nope"},
        "locations": [{"line": 1, "column": 34}],
        "message": "Field 'nope' doesn't exist on type 'User'",
    }


def test_aliases_name_the_path_and_arguments_end_it() -> None:
    (error,) = _validation('{ repository(owner: "a", name: "b") { nom: name(x: 1) } }')
    assert error["path"] == ["query", "repository", "nom", "x"]
    assert error["message"] == "Field 'name' doesn't accept argument 'x'"


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        (
            '{ repository(owner: "a") { name } }',
            "missingRequiredArguments",
            "Field 'repository' is missing required arguments: name",
        ),
        (
            'query Q { repository(owner: "a", name: "b") { pullRequest(number: $n) { id } } }',
            "variableNotDefined",
            "Variable $n is used by Q but not declared",
        ),
        (
            "query($a: Int) { viewer { login } }",
            "variableNotUsed",
            "Variable $a is declared by anonymous query but not used",
        ),
        (
            '{ repository(owner: "a", name: "b") { pullRequest(number: 1) } }',
            "selectionMismatch",
            "Field must have selections (field 'pullRequest' returns PullRequest but has no "
            "selections. Did you mean 'pullRequest { ... }'?)",
        ),
        (
            '{ repository(owner: "a", name: "b") { name { x } } }',
            "selectionMismatch",
            "Selections can't be made on scalars (field 'name' returns String but has selections)",
        ),
        (
            '{ repository(owner: "a", name: "b") { pullRequest(number: "x") { id } } }',
            "argumentLiteralsIncompatible",
            "Argument has an invalid value (\"x\"). Expected type 'Int'.",
        ),
        (
            "fragment F on Nope { id } query { viewer { login ...F } }",
            "undefinedType",
            "No such type Nope, so it can't be a fragment condition",
        ),
    ],
)
def test_common_validation_failures_read_as_githubs(query: str, code: str, message: str) -> None:
    error = next(e for e in _validation(query) if e["message"] == message)
    assert error["extensions"]["code"] == code  # type: ignore[index]


def test_a_message_not_in_the_table_is_graphql_cores_without_extensions() -> None:
    document = parse("{ viewer { login } }")
    error = GraphQLError("Something else went wrong.", nodes=[document.definitions[0]])
    assert format_validation_error(error, document) == {
        "path": ["query"],
        "locations": [{"line": 1, "column": 1}],
        "message": "Something else went wrong.",
    }


def test_an_execution_error_keeps_its_type_path_and_locations() -> None:
    document = parse("{ viewer { login } }")
    field = document.definitions[0].selection_set.selections[0]  # type: ignore[attr-defined]
    error = GraphQLError(
        "Could not resolve", nodes=[field], path=["viewer"], extensions={"type": "NOT_FOUND"}
    )
    assert format_execution_error(error) == {
        "type": "NOT_FOUND",
        "path": ["viewer"],
        "locations": [{"line": 1, "column": 3}],
        "message": "Could not resolve",
    }
    assert format_execution_error(GraphQLError("boom")) == {"message": "boom"}


def test_github_error_bodies() -> None:
    assert rate_limited(42) == {
        "type": "RATE_LIMITED",
        "message": "API rate limit exceeded for user ID 42.",
    }
    assert not_found(["repository"], 1, 3, "Could not resolve") == {
        "type": "NOT_FOUND",
        "path": ["repository"],
        "locations": [{"line": 1, "column": 3}],
        "message": "Could not resolve",
    }
