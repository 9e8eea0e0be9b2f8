"""Where a replay's calls land: each recorded repository renamed per copy in an argv and
a GraphQL body, the ETag header swapped, the recording's limits."""

import json

from ghbench.budgets import parse_budget
from ghbench.simulation.replay_targets import (
    RECORDED_LIMIT,
    recorded_limits,
    retarget_argv,
    retarget_body,
    with_etag,
)
from ghbench.trace.schema import TraceRow

REPOS = ["o/r"]


def test_copy_0_keeps_the_names_and_others_rename_every_form() -> None:
    argv = ("api", "repos/o/r/pulls/1", "--repo", "o/r", "-f", "name=r", "-f", "owner=o")
    assert retarget_argv(argv, REPOS, 0) is argv
    renamed = ("api", "repos/o/r-2/pulls/1", "--repo", "o/r-2", "-f", "name=r-2", "-f", "owner=o")
    assert retarget_argv(argv, REPOS, 2) == renamed
    # AO 0.10's compact GraphQL and the TypeScript builds' spaced one
    for query in ('repository(owner:"o",name:"r")', 'repository(owner: "o", name: "r")'):
        assert retarget_argv(("-f", f"query={query}"), REPOS, 1)[1].endswith('"r-1")')


def test_a_longer_name_sharing_a_prefix_is_not_renamed() -> None:
    argv = ("api", "repos/o/r2/pulls/1", "repos/xo/r", "o/r")
    assert retarget_argv(argv, REPOS, 1) == ("api", "repos/o/r2/pulls/1", "repos/xo/r", "o/r-1")
    # another owner's repository of the same name keeps its name in GraphQL
    other = ('repository(owner: "p", name: "r")',)
    assert retarget_argv(other, REPOS, 1) == other


def test_a_graphql_bodys_query_and_string_variables_are_renamed() -> None:
    body = json.dumps({"query": 'repository(owner: "o", name: "r") { id }',
                       "variables": {"repo": "o/r", "n": 3, "name": "r"}})  # fmt: skip
    doc = json.loads(retarget_body(body, REPOS, 3))
    assert doc["query"] == 'repository(owner: "o", name: "r-3") { id }'
    assert doc["variables"] == {"repo": "o/r-3", "n": 3, "name": "r"}  # a bare name: kept
    assert retarget_body(body, REPOS, 0) is body
    assert retarget_body("not json", REPOS, 1) == "not json"
    assert retarget_body("[1]", REPOS, 1) == "[1]"


def test_with_etag_replaces_drops_or_leaves_the_conditional_header() -> None:
    argv = ("api", "-H", 'If-None-Match: "old"', "user", "--header", "Accept: x")
    assert with_etag(argv, '"new"') == (
        "api", "-H", 'If-None-Match: "new"', "user", "--header", "Accept: x")  # fmt: skip
    assert with_etag(argv, None) == ("api", "user", "--header", "Accept: x")
    assert with_etag(("api", "user"), '"new"') == ("api", "user")  # none to carry it
    assert with_etag(("api", "-H"), None) == ("api", "-H")  # a flag with no value


def test_the_recordings_limits_are_the_largest_its_rows_show_or_the_budgets() -> None:
    rows = [
        TraceRow(timestamp="t", rateLimitResource="graphql", rateLimitLimit=12500),
        TraceRow(timestamp="t", rateLimitResource="core", rateLimitLimit=60),  # less: kept
        TraceRow(timestamp="t", rateLimitResource="search", rateLimitLimit=30),
    ]
    assert recorded_limits(rows) == {"core": RECORDED_LIMIT, "graphql": 12500}
    assert recorded_limits([]) == {"core": 5000, "graphql": 5000}
    # another kind of token's budget, whatever the rows say
    budget = parse_budget("custom", rest=100, graphql=200)
    assert recorded_limits(rows, budget) == {"core": 100, "graphql": 200}
