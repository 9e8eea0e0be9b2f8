"""The executable schema: the shipped SDL with every resolver table attached (pure)."""

from __future__ import annotations

from graphql import GraphQLInterfaceType, GraphQLObjectType, GraphQLUnionType

from ghbench.emulator.graphql.resolvers import FIELD_RESOLVERS
from ghbench.emulator.graphql.schema import load_schema, sdl


def test_the_schema_is_built_once_per_process() -> None:
    assert load_schema() is load_schema()
    assert "type Query" in sdl()


def test_every_resolver_in_the_tables_is_the_fields_resolver() -> None:
    schema = load_schema()
    for type_name, resolvers in FIELD_RESOLVERS.items():
        graphql_type = schema.get_type(type_name)
        assert isinstance(graphql_type, GraphQLObjectType), type_name
        for field_name, resolver in resolvers.items():
            assert graphql_type.fields[field_name].resolve is resolver, (type_name, field_name)


def test_every_abstract_type_can_name_its_concrete_type() -> None:
    abstract = [
        t
        for t in load_schema().type_map.values()
        if isinstance(t, GraphQLInterfaceType | GraphQLUnionType) and not t.name.startswith("__")
    ]
    assert {"Node", "Actor", "SearchResultItem"} <= {t.name for t in abstract}
    assert all(t.resolve_type is not None for t in abstract)
