"""A document's structure key: the same for the same query about another PR number,
different wherever validation or the operation's shape could differ."""

from __future__ import annotations

from graphql import parse, print_ast

from ghbench.emulator.graphql.request import _TEMPLATES, prepare
from ghbench.trace.graphql_shape import structure_key, template_key
from ghbench.workload.calls import BatchTarget
from ghbench.workload.observer_calls import batch, review_threads


def _query(call_argv: tuple[str, ...]) -> str:
    return call_argv[-1].removeprefix("query=")


def test_the_same_query_for_another_pr_has_the_same_key() -> None:
    a, b = (_query(review_threads("acme/todo", n).argv) for n in (3, 17))
    assert structure_key(a) == structure_key(b) is not None
    one = _query(batch([BatchTarget("a/b", n) for n in range(30, 55)], 20).argv)
    two = _query(batch([BatchTarget("a/b", n) for n in range(60, 85)], 20).argv)
    assert structure_key(one) == structure_key(two)


def test_strings_big_or_repeated_integers_floats_and_names_stay_in_the_key() -> None:
    key = structure_key
    assert key('{ a(x: "1") }') != key('{ a(x: "2") }')
    assert key("{ a(first: 3000000000) }") != key("{ a(first: 1) }")  # not a 32-bit Int
    assert key("{ a(x: 1.5) }") != key("{ a(x: 1) }")
    assert key("{ a(x: 1) b(y: 1) }") != key("{ a(x: 1) b(y: 2) }")  # equal, or not
    assert key("{ a(x: 3) b(y: 4) }") == key("{ a(x: 1) b(y: 2) }")
    assert key("{ a } # a comment\n") == key("{a}")
    assert key('{ a(x: "unterminated) }') is None


def _aliased(x: int, y: int) -> str:
    return (
        f'{{ r: repository(owner: "a", name: "b") {{ p: pullRequest(number: {x}) {{ id }}'
        f" p: pullRequest(number: {y}) {{ id }} }} }}"
    )


def test_a_cached_structure_never_hides_a_conflict_its_values_make() -> None:
    assert not prepare(_aliased(7, 7)).errors  # one field asked twice: valid
    errors = prepare(_aliased(7, 8)).errors  # two fields under one name: not
    assert errors and "conflict" in str(errors[0]["message"])


def test_a_template_gives_the_tree_parsing_gives() -> None:
    first, second = (_query(review_threads("acme/todo", n).argv) for n in (31, 47))
    assert template_key(first) == template_key(second) is not None
    assert template_key(first) != template_key(_query(review_threads("acme/todo", 5).argv))
    assert prepare(first).document is not None and template_key(first) in _TEMPLATES
    built = prepare(second).document
    parsed = parse(second)
    assert built == parsed and print_ast(built) == print_ast(parsed)  # type: ignore[arg-type]
