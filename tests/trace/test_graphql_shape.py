"""A document's structure key: the same for the same query about another PR number,
different wherever validation or the operation's shape could differ; a template
gives the tree parsing gives."""

from __future__ import annotations

from graphql import parse, print_ast

from ghbench.emulator.graphql.request import _TEMPLATES, prepare
from ghbench.trace.graphql_shape import structure_key, template_key
from ghbench.workload.calls import BatchTarget
from ghbench.workload.observer_calls import batch, review_threads


def _query(call_argv: tuple[str, ...]) -> str:
    return call_argv[-1].removeprefix("query=")


def _text(query: str) -> str | None:
    key = structure_key(query)
    return key.text if key is not None else None


def test_the_same_query_for_another_pr_has_the_same_key() -> None:
    a, b = (_query(review_threads("acme/todo", n).argv) for n in (3, 17))
    assert _text(a) == _text(b) is not None
    one = _query(batch([BatchTarget("a/b", n) for n in range(2, 52, 2)], 20).argv)
    two = _query(batch([BatchTarget("a/b", n) for n in range(52, 102, 2)], 20).argv)
    assert _text(one) == _text(two)
    # PR 20 beside contexts(first:20): another pattern of equal integers, the same text
    assert structure_key(one).equalities != structure_key(two).equalities  # type: ignore[union-attr]


def test_strings_big_integers_floats_and_names_stay_in_the_key() -> None:
    assert _text('{ a(x: "1") }') != _text('{ a(x: "2") }')
    assert _text("{ a(first: 3000000000) }") != _text("{ a(first: 1) }")  # not a 32-bit Int
    assert _text("{ a(x: 1.5) }") != _text("{ a(x: 1) }")
    assert _text("{ a(x: 3) b(y: 4) }") == _text("{ a(x: 1) b(y: 1) }")
    key = structure_key("{ a(x: 1) b(y: 1) }")
    assert key is not None and key.equalities == (0, 0)
    assert _text("{ a } # a comment with 3\n") == "{ a } # a comment with 3\n"  # as it is
    assert _text("{ pr0: a(x: 7, y: 1.5e3) }") == "{ pr0: a(x: \x01, y: 1.5e3) }"
    assert structure_key('{ a(x: "unterminated) }') is None


def _aliased(x: int, y: int) -> str:
    return (
        f'{{ r: repository(owner: "a", name: "b") {{ p: pullRequest(number: {x}) {{ id }}'
        f" p: pullRequest(number: {y}) {{ id }} }} }}"
    )


def test_a_cached_structure_never_hides_a_conflict_its_values_make() -> None:
    assert not prepare(_aliased(7, 7)).errors  # one field asked twice: valid
    errors = prepare(_aliased(7, 8)).errors  # two fields under one name: not
    assert errors and "conflict" in str(errors[0]["message"])
    assert not prepare(_aliased(9, 9)).errors


def test_a_template_gives_the_tree_parsing_gives() -> None:
    first, second = (_query(review_threads("acme/todo", n).argv) for n in (31, 47))
    first_key, second_key = template_key(first), template_key(second)
    assert first_key is not None and second_key is not None
    assert first_key.text == second_key.text
    assert prepare(first).document is not None and first_key.text in _TEMPLATES
    built = prepare(second).document
    parsed = parse(second)
    assert built == parsed and print_ast(built) == print_ast(parsed)  # type: ignore[arg-type]
    # a merged field's literals must agree as the template's did: parsed, not built
    assert not prepare(_aliased(11, 11)).errors
    assert "conflict" in str(prepare(_aliased(11, 12)).errors[0]["message"])
