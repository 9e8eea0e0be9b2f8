"""The stateless half of a GraphQL request (``parse_request``, ``prepare``): what is
answered before any state is read, and what is cached per query text and template."""

from __future__ import annotations

import json
from typing import Any

import pytest
from graphql import print_ast

from ghbench.emulator.graphql.request import MAX_DEPTH, parse_request, prepare

_PR = 'query Q($n: Int!) { repository(owner: "a", name: "b") { pullRequest(number: $n) { id } } }'


def _parse(payload: Any) -> Any:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return parse_request(body, "page-size")


def _errors(payload: Any) -> list[str]:
    parsed = _parse(payload)
    assert parsed.answer is not None and parsed.answer.status == 200
    return [e["message"] for e in parsed.answer.body["errors"]]


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'"query"', b""])
def test_a_body_that_is_not_a_json_object_is_a_400(body: bytes) -> None:
    parsed = _parse(body)
    assert parsed.answer is not None and parsed.answer.status == 400
    assert parsed.answer.body["message"] == "Problems parsing JSON"


@pytest.mark.parametrize("query", [None, "", "   ", 7])
def test_the_query_must_be_a_non_empty_string(query: object) -> None:
    assert _errors({"query": query}) == [
        "A query attribute must be specified and must be a string."
    ]


def test_variables_may_come_as_a_json_string_but_not_as_anything_else() -> None:
    parsed = _parse({"query": _PR, "variables": json.dumps({"n": 3})})
    assert parsed.answer is None and parsed.coerced == {"n": 3}
    assert _errors({"query": _PR, "variables": "{oops"}) == ["Variables are invalid JSON."]
    assert _errors({"query": _PR, "variables": [1]}) == ["Variables are invalid JSON."]


def test_a_bad_variable_names_its_declared_type() -> None:
    parsed = _parse({"query": _PR, "variables": {"n": "abc"}})
    (error,) = parsed.answer.body["errors"]
    assert error["message"] == "Variable $n of type Int! was provided invalid value"
    assert error["extensions"]["value"] == "abc"
    assert parsed.answer.operation_name == "Q" and parsed.answer.cost == 0


def test_the_operation_is_chosen_by_name_or_is_the_only_one() -> None:
    two = "query A { viewer { login } } query B { rateLimit { cost } }"
    assert _errors({"query": two}) == ["An operation name is required"]
    assert _errors({"query": two, "operationName": "C"}) == ['No operation named "C"']
    chosen = _parse({"query": two, "operationName": "B"})
    assert chosen.answer is None and chosen.name == "B" and not chosen.is_mutation
    assert chosen.report is not None and chosen.report.cost == 1


def test_a_mutation_is_known_as_one() -> None:
    query = 'mutation M { closeIssue(input: {issueId: "I_1"}) { clientMutationId } }'
    parsed = _parse({"query": query})
    assert parsed.answer is None and parsed.is_mutation and parsed.name == "M"


def _below_viewer(levels: int) -> str:
    """A selection ``levels`` fields deep (for under ``viewer``, a User)."""
    inner = {1: "login", 2: "repositories(first: 1) { totalCount }"}.get(
        levels % 3, "repositories(first: 1) { nodes { name } }"
    )
    depth = {1: 1, 2: 2}.get(levels % 3, 3)
    while depth < levels:
        inner = f"repositories(first: 1) {{ nodes {{ owner {{ {inner} }} }} }}"
        depth += 3
    return inner


def test_fields_nested_deeper_than_25_are_refused() -> None:
    assert _parse({"query": f"{{ viewer {{ {_below_viewer(24)} }} }}"}).answer is None
    (message,) = _errors({"query": f"{{ viewer {{ {_below_viewer(25)} }} }}"})
    assert message == f"Query has depth of 26, which exceeds max depth of {MAX_DEPTH}"


def test_depth_counts_through_fragments() -> None:
    for inside, refused in ((24, False), (25, True)):
        query = f"fragment F on User {{ {_below_viewer(inside)} }} {{ viewer {{ ...F }} }}"
        assert (_parse({"query": query}).answer is not None) is refused


def test_a_document_nested_past_the_parsers_stack_is_too_large() -> None:
    """(More tokens than ``MAX_TOKENS``: ``test_fairness.py``, which times it too.)"""
    too_deep = "{ viewer " + "{ login " * 3_000 + "}" * 3_001
    assert _errors({"query": too_deep}) == ["This query is too large to execute."]


def test_a_page_size_over_100_answers_data_null_with_githubs_type() -> None:
    query = '{ repository(owner: "a", name: "b") { pullRequests(first: 101) { nodes { id } } } }'
    parsed = _parse({"query": query})
    assert parsed.answer is not None and parsed.answer.body["data"] is None
    assert parsed.answer.body["errors"][0]["type"] == "EXCESSIVE_PAGINATION"


def test_page_size_variables_change_the_cost_other_variables_do_not() -> None:
    query = """query($n: Int!, $owner: String!) { repository(owner: $owner, name: "b") {
      pullRequests(first: $n) { nodes { reviews(first: 100) { nodes { id } } } } } }"""
    small = _parse({"query": query, "variables": {"n": 1, "owner": "a"}}).report
    large = _parse({"query": query, "variables": {"n": 100, "owner": "a"}}).report
    other = _parse({"query": query, "variables": {"n": 100, "owner": "z"}}).report
    assert (small.cost, large.cost) == (1, 1)
    assert (small.requests, large.requests) == (2, 101)
    assert other == large


def test_documents_of_one_template_keep_their_own_integers() -> None:
    """The second text reuses the first's parsed tree with its own numbers read in."""
    template = '{{ repository(owner: "a", name: "b") {{ pullRequest(number: {n}) {{ id }} }} }}'
    first, second = prepare(template.format(n=11)), prepare(template.format(n=12))
    assert first.document is not None and second.document is not None
    assert "number: 11" in print_ast(first.document)
    assert "number: 12" in print_ast(second.document)


def test_a_template_whose_merged_fields_then_conflict_is_validated_again() -> None:
    query = (
        '{{ repository(owner: "a", name: "b") {{ pullRequest(number: {a}) {{ id }} '
        "pullRequest(number: {b}) {{ id }} }} }}"
    )
    assert prepare(query.format(a=1, b=1)).errors == []
    (error,) = prepare(query.format(a=1, b=2)).errors
    assert "pullRequest" in str(error["message"])
