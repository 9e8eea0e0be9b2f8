"""Responses checked against GitHub's OpenAPI description (``@octokit/openapi``).

The description is read as its authors mean it (:func:`as_github_answers`): a
``nullable`` enum, or a ``nullable`` ``oneOf``/``anyOf``, admits null (OpenAPI 3.0.3
would need null listed), a label has the two fields GitHub's newer descriptions add
(``archived_at``, ``archived_by``), and the few places where github.com is known to
answer otherwise than its description says are patched, each with its evidence
(:data:`GITHUB_ANSWERS_OTHERWISE`).

``operation_for(document, method, pattern)`` finds GitHub's operation for one of the
emulator's route patterns (parameter names differ: ``{number}`` here is
``{pull_number}`` there, so names are ignored). ``problems(...)`` validates a body
with openapi-schema-validator's OpenAPI 3.0 validator (``nullable``, formats), the
response's media type against the ones GitHub documents for that status, and lists
the properties we send that GitHub's schema does not declare (invented fields).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from emulator_coverage import Operation, operations
from emulator_coverage import operation_for as coverage_operation_for
from jsonschema.exceptions import ValidationError, best_match
from openapi_schema_validator import OAS30Validator, oas30_format_checker


def operation_for(document: dict[str, Any], method: str, pattern: str) -> Operation | None:
    """GitHub's operation for one of the emulator's routes, or None when it has none."""
    index = _INDEXES.get(id(document))
    if index is None:
        index = _INDEXES[id(document)] = operations(document)
    return coverage_operation_for(index, method, pattern)


_INDEXES: dict[int, dict[tuple[str, str], Operation]] = {}


# JSON pointer into the description -> what github.com is known to send there instead.
_RESOURCES = "/components/schemas/rate-limit-overview/properties/resources/properties"
GITHUB_ANSWERS_OTHERWISE: dict[str, tuple[dict[str, Any], str]] = {
    "/components/schemas/pull-request-simple/properties/labels/items/properties/description": (
        {"type": "string", "nullable": True},
        "a label's description is null when it has none, as in the `label` schema "
        "(githubkit 0.16's schema_overrides patch the same pointer)",
    ),
    f"{_RESOURCES}/code_scanning_upload": (
        {"$ref": "#/components/schemas/rate-limit"},
        "github.com's /rate_limit lists it (limits reference §1.2)",
    ),
    f"{_RESOURCES}/audit_log": (
        {"$ref": "#/components/schemas/rate-limit"},
        "github.com's /rate_limit lists it (limits reference §1.2)",
    ),
}


# A label's fields; GitHub's newer descriptions (github/rest-api-description's
# descriptions-next, from which githubkit 0.16's models are generated and which they
# require) add archived_at and archived_by to every label, so github.com sends them.
_LABEL_FIELDS = frozenset({"id", "node_id", "url", "name", "description", "color", "default"})
_ARCHIVED = {
    "archived_at": {"type": "string", "format": "date-time", "nullable": True},
    "archived_by": {"type": "object", "nullable": True},
}


def as_github_answers(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (changed in place) read as github.com answers: see the module doc."""
    for pointer, (schema, _evidence) in GITHUB_ANSWERS_OTHERWISE.items():
        *parents, last = pointer.removeprefix("/").split("/")
        target = document
        for part in parents:
            target = target.setdefault(part, {})
        target[last] = schema
    pending: list[Any] = [document["components"]]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if (
                node.get("nullable")
                and isinstance(node.get("enum"), list)
                and None not in node["enum"]
            ):
                node["enum"] = [*node["enum"], None]
            # nullable beside oneOf (a commit's author: a user, {} or null): null is one of
            # the choices, which OpenAPI 3.0 validators only see when it is listed
            choices = node.get("oneOf") or node.get("anyOf")
            nullable = node.get("nullable") and "type" not in node
            if nullable and isinstance(choices, list) and {"enum": [None]} not in choices:
                choices.append({"enum": [None]})
            properties = node.get("properties")
            if isinstance(properties, dict) and properties.keys() >= _LABEL_FIELDS:
                properties.update({k: v for k, v in _ARCHIVED.items() if k not in properties})
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return document


def _resolve(document: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def problems(
    document: dict[str, Any],
    operation: dict[str, Any],
    status: int,
    media_type: str,
    body: Any,
) -> list[str]:
    """What in this response GitHub's description of ``operation`` does not allow."""
    responses = operation["responses"]
    response = _resolve(document, responses.get(str(status)))
    if response is None and status == 404:
        # Any endpoint answers an unknown id with GitHub's 404, described or not.
        response = document["components"]["responses"]["not_found"]
    if response is None:
        return [f"status {status} is not documented (GitHub documents {sorted(responses)})"]
    content = response.get("content") or {}
    if not content:
        return [] if body is None else [f"status {status} has no body on GitHub"]
    if media_type not in content:
        return [f"media type {media_type} is not documented for {status} ({sorted(content)})"]
    schema = content[media_type].get("schema")
    if schema is None:
        return []
    rooted = {**schema, "components": document["components"]}
    validator = OAS30Validator(rooted, format_checker=oas30_format_checker)
    found = [_describe(error) for error in validator.iter_errors(body)]
    found += [f"{path}: not in GitHub's schema" for path in _undeclared(document, schema, body, "")]
    return found


def _describe(error: ValidationError) -> str:
    """The innermost reason (a oneOf's best branch), with its path in the body."""
    while error.context:
        error = best_match(error.context)
    path = "/".join(str(p) for p in error.absolute_path) or "(body)"
    message = error.message if len(error.message) < 200 else error.message[:200] + "..."
    return f"{path}: {message}"


def _undeclared(document: dict[str, Any], schema: Any, value: Any, path: str) -> Iterator[str]:
    """Properties of ``value`` that no branch of ``schema`` declares."""
    schema = _resolve(document, schema)
    if not isinstance(schema, dict):
        return
    branches = [
        _resolve(document, s) for key in ("allOf", "anyOf", "oneOf") for s in schema.get(key, ())
    ]
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value[:3]):
            yield from _undeclared(document, schema["items"], item, f"{path}[{i}]")
        return
    if not isinstance(value, dict):
        return
    options = [schema, *branches]
    declared: dict[str, Any] = {}
    for option in options:
        if not isinstance(option, dict):
            continue
        if option.get("additionalProperties") not in (None, False):
            return  # a free-form object (additionalProperties true or a schema)
        declared.update(option.get("properties") or {})
    if not declared:
        return
    for key, item in value.items():
        child = f"{path}.{key}" if path else key
        if key not in declared:
            yield child
        else:
            yield from _undeclared(document, declared[key], item, child)
