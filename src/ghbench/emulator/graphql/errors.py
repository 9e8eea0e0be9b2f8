"""GraphQL errors in GitHub's shape.

github.com runs graphql-ruby, whose validation messages and ``extensions.code``
values differ from graphql-core's. Clients (gh, octokit, AO) print ``message`` and
some branch on ``type``; so the common validation failures are rewritten into
graphql-ruby's wording, with its ``path`` (``["query Name", "field", …]``) and
``extensions``. Anything not in the table keeps graphql-core's message. Each entry
is (graphql-core message pattern, builder), checked in order.

Shapes (``GraphQLFormattedError``: ``message``, ``locations``, ``path``,
``extensions``; GitHub adds ``type`` on execution and limit errors):

* validation: ``{"path", "extensions": {"code", …}, "locations", "message"}``
* not found: ``{"type": "NOT_FOUND", "path", "locations", "message"}``
* rate limited: ``{"type": "RATE_LIMITED", "message"}``
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLError,
    InlineFragmentNode,
    Node,
    OperationDefinitionNode,
    SelectionSetNode,
)

__all__ = [
    "format_execution_error",
    "format_syntax_error",
    "format_validation_error",
    "message_only",
    "not_found",
    "rate_limited",
]

ErrorDict = dict[str, Any]
_Builder = Callable[[re.Match[str]], tuple[str, dict[str, Any]]]

_VALIDATION_RULES: tuple[tuple[re.Pattern[str], _Builder], ...] = (
    (
        re.compile(r"Cannot query field '(?P<field>\w+)' on type '(?P<type>\w+)'\."),
        lambda m: (
            f"Field '{m['field']}' doesn't exist on type '{m['type']}'",
            {"code": "undefinedField", "typeName": m["type"], "fieldName": m["field"]},
        ),
    ),
    (
        re.compile(r"Unknown argument '(?P<arg>\w+)' on field '\w+\.(?P<field>\w+)'\."),
        lambda m: (
            f"Field '{m['field']}' doesn't accept argument '{m['arg']}'",
            {
                "code": "argumentNotAccepted",
                "name": m["field"],
                "typeName": "Field",
                "argumentName": m["arg"],
            },
        ),
    ),
    (
        re.compile(r"Argument '\w+\.(?P<field>\w+)\((?P<arg>\w+):\)' of type .* is required"),
        lambda m: (
            f"Field '{m['field']}' is missing required arguments: {m['arg']}",
            {
                "code": "missingRequiredArguments",
                "className": "Field",
                "name": m["field"],
                "arguments": m["arg"],
            },
        ),
    ),
    (
        re.compile(
            r"Field '(?P<field>\w+)' must not have a selection since type '(?P<type>[^']+)'"
        ),
        lambda m: (
            f"Selections can't be made on scalars (field '{m['field']}' returns "
            f"{m['type'].rstrip('!')} but has selections)",
            {
                "code": "selectionMismatch",
                "nodeName": f"field '{m['field']}'",
                "typeName": m["type"].rstrip("!"),
            },
        ),
    ),
    (
        re.compile(r"Field '(?P<field>\w+)' of type '(?P<type>[^']+)' must have a selection"),
        lambda m: (
            f"Field must have selections (field '{m['field']}' returns "
            f"{m['type'].strip('[]!')} but has no selections. "
            f"Did you mean '{m['field']} {{ ... }}'?)",
            {
                "code": "selectionMismatch",
                "nodeName": f"field '{m['field']}'",
                "typeName": m["type"].strip("[]!"),
            },
        ),
    ),
    (
        re.compile(r"Variable '\$(?P<var>\w+)' is not defined(?: by operation '(?P<op>\w+)')?\."),
        lambda m: (
            f"Variable ${m['var']} is used by {m['op'] or 'anonymous query'} but not declared",
            {"code": "variableNotDefined", "variableName": m["var"]},
        ),
    ),
    (
        re.compile(r"Variable '\$(?P<var>\w+)' is never used(?: in operation '(?P<op>\w+)')?\."),
        lambda m: (
            f"Variable ${m['var']} is declared by {m['op'] or 'anonymous query'} but not used",
            {"code": "variableNotUsed", "variableName": m["var"]},
        ),
    ),
    (
        re.compile(r"Unknown type '(?P<type>\w+)'\."),
        lambda m: (
            f"No such type {m['type']}, so it can't be a fragment condition",
            {"code": "undefinedType", "typeName": m["type"]},
        ),
    ),
    (
        re.compile(r"(?P<type>\w+) cannot represent .*value: (?P<value>.+)$"),
        lambda m: (
            f"Argument has an invalid value ({m['value']}). Expected type '{m['type']}'.",
            {"code": "argumentLiteralsIncompatible", "typeName": "Field"},
        ),
    ),
)

# graphql-core's token descriptions -> graphql-ruby's ("\"}\" (RCURLY)").
_TOKEN_NAMES = {
    "}": "RCURLY",
    "{": "LCURLY",
    ")": "RPAREN",
    "(": "LPAREN",
    "]": "RBRACKET",
    "[": "LBRACKET",
    ":": "COLON",
    "=": "EQUALS",
    "$": "VAR_SIGN",
    "!": "BANG",
    "...": "ELLIPSIS",
    "@": "DIR_SIGN",
}

# graphql-core's kinds of valued tokens (``Unexpected Name 'x'.``) -> graphql-ruby's
_KIND_NAMES = {
    "Name": "IDENTIFIER",
    "Int": "INT",
    "Float": "FLOAT",
    "String": "STRING",
    "BlockString": "STRING",
    "character:": "UNKNOWN_CHAR",
}
_FOUND_TOKEN = re.compile(
    r"(?:found|Unexpected) (?:(?P<kind>Name|Int|Float|String|BlockString|character:) )?"
    r"(?P<token>'[^']*'|<EOF>|[^.]+)"
)


def message_only(message: str) -> ErrorDict:
    return {"message": message}


def rate_limited(user_id: int) -> ErrorDict:
    """GitHub's primary-limit error for GraphQL (answered with status 200)."""
    return {"type": "RATE_LIMITED", "message": f"API rate limit exceeded for user ID {user_id}."}


def not_found(path: list[str | int], line: int, column: int, message: str) -> ErrorDict:
    return {
        "type": "NOT_FOUND",
        "path": path,
        "locations": [{"line": line, "column": column}],
        "message": message,
    }


def format_syntax_error(error: GraphQLError) -> ErrorDict:
    """graphql-ruby style: ``Parse error on "}" (RCURLY) at [1, 21]``."""
    location = error.locations[0] if error.locations else None
    line, column = (location.line, location.column) if location else (1, 1)
    found = _FOUND_TOKEN.search(error.message)
    token = found["token"].strip("'") if found else ""
    kind = _KIND_NAMES.get(found["kind"]) if found and found["kind"] else None
    if token == "<EOF>" or not token:
        described = "end of file"
    elif kind is not None:  # graphql-core: ``Name 'x'``; graphql-ruby: ``"x" (IDENTIFIER)``
        described = f'"{token}" ({kind})'
    elif token in _TOKEN_NAMES:
        described = f'"{token}" ({_TOKEN_NAMES[token]})'
    else:
        described = f'"{token}"'
    return {
        "message": f"Parse error on {described} at [{line}, {column}]",
        "locations": [{"line": line, "column": column}],
    }


def format_validation_error(error: GraphQLError, document: DocumentNode) -> ErrorDict:
    message = error.message
    extensions: dict[str, Any] | None = None
    for pattern, build in _VALIDATION_RULES:
        match = pattern.search(message)
        if match:
            message, extensions = build(match)
            break
    formatted: ErrorDict = {}
    path = _ruby_path(error.nodes[0], document) if error.nodes else None
    if path:
        formatted["path"] = path
    if extensions:
        formatted["extensions"] = extensions
    formatted["locations"] = [
        {"line": loc.line, "column": loc.column} for loc in error.locations or ()
    ]
    formatted["message"] = message
    return formatted


def format_execution_error(error: GraphQLError) -> ErrorDict:
    """An error raised while resolving; ``GitHubFieldError`` carries its own ``type``."""
    formatted: ErrorDict = {}
    extensions = error.extensions or {}
    if "type" in extensions:
        formatted["type"] = extensions["type"]
    if error.path:
        formatted["path"] = list(error.path)
    if error.locations:
        formatted["locations"] = [
            {"line": loc.line, "column": loc.column} for loc in error.locations
        ]
    formatted["message"] = error.message
    return formatted


def _ruby_path(target: Node, document: DocumentNode) -> list[str] | None:
    """graphql-ruby's error path: the operation label, then fields (aliases win)."""
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            label = definition.operation.value
            if definition.name:
                label = f"{label} {definition.name.value}"
        elif isinstance(definition, FragmentDefinitionNode):
            label = f"fragment {definition.name.value}"
        else:
            continue
        if definition is target:
            return [label]
        for node, trail in _walk(definition.selection_set, [label]):
            if node is target:
                return trail
        for variable in getattr(definition, "variable_definitions", None) or ():
            if target is variable or target is variable.type:
                return [label]
    return None


def _walk(
    selection_set: SelectionSetNode | None, trail: list[str]
) -> Iterator[tuple[Node, list[str]]]:
    if selection_set is None:
        return
    yield selection_set, trail
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            here = [*trail, selection.alias.value if selection.alias else selection.name.value]
            yield selection, here
            for argument in selection.arguments or ():
                yield from _argument_nodes(argument, [*here, argument.name.value])
            yield from _walk(selection.selection_set, here)
        elif isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            here = [*trail, f"... on {condition.name.value}"] if condition else trail
            yield selection, here
            if condition is not None:
                yield condition, here
            yield from _walk(selection.selection_set, here)
        else:
            yield selection, trail


def _argument_nodes(argument: ArgumentNode, trail: list[str]) -> Iterator[tuple[Node, list[str]]]:
    yield argument, trail
    yield argument.value, trail
