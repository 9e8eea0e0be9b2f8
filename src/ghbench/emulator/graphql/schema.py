"""The executable schema: GitHub's SDL subset (``schema.graphql``) plus our resolvers.

Built once per process; building it takes tens of milliseconds, so it is cached.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from graphql import (
    GraphQLArgument,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    assert_valid_schema,
    build_schema,
)

from ghbench.emulator.graphql.resolvers import FIELD_RESOLVERS, typename_of

__all__ = ["load_schema", "sdl"]


def sdl() -> str:
    """The SDL text shipped in the package."""
    return resources.files(__package__).joinpath("schema.graphql").read_text(encoding="utf-8")


@functools.cache
def load_schema() -> GraphQLSchema:
    """The schema with every resolver table attached; raises if a table names a
    field the SDL lacks, so the two cannot drift apart silently."""
    # the shipped SDL is checked by its tests (test_conformance_graphql builds it with
    # every SDL rule); a process need not check it again (30 ms of every start)
    schema = build_schema(sdl(), assume_valid_sdl=True)
    assert_valid_schema(schema)
    for type_name, resolvers in FIELD_RESOLVERS.items():
        graphql_type = schema.get_type(type_name)
        if not isinstance(graphql_type, GraphQLObjectType):
            raise LookupError(f"resolver table for unknown object type {type_name}")
        for field_name, resolver in resolvers.items():
            field = graphql_type.fields.get(field_name)
            if field is None:
                raise LookupError(f"resolver for unknown field {type_name}.{field_name}")
            _check_arguments(f"{type_name}.{field_name}", resolver, field.args)
            field.resolve = resolver
    for graphql_type in schema.type_map.values():
        if isinstance(graphql_type, GraphQLInterfaceType | GraphQLUnionType):
            graphql_type.resolve_type = typename_of
    return schema


def _check_arguments(
    where: str, resolver: Callable[..., Any], arguments: Mapping[str, GraphQLArgument]
) -> None:
    """A resolver must take every argument GitHub's field has (the SDL keeps them all,
    and the executor passes their defaults), by name or through ``**kwargs``."""
    if not arguments:
        return
    parameters = inspect.signature(resolver).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    named = {p.name for p in parameters}
    missing = sorted(set(arguments) - named)
    if missing:
        raise LookupError(f"resolver for {where} does not take argument {missing[0]}")
