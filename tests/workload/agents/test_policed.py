"""What the fleet's policies count as a write: a REST write or a GraphQL mutation."""

import pytest

from ghbench.workload.agents.fixtures import GH_CAPTURES, load_fixtures
from ghbench.workload.agents.policed import request_writes, writes


@pytest.mark.parametrize(
    ("method", "path", "query", "wrote"),
    [
        ("POST", "/repos/o/r/pulls", "", True),
        ("delete", "repos/o/r/git/refs/heads/x", "", True),
        ("GET", "/repos/o/r/pulls", "", False),
        ("POST", "/graphql", "query { viewer { login } }", False),  # a read, though a POST
        ("POST", "graphql", "  mutation { addComment }", True),
    ],
)
def test_a_request_writes(method: str, path: str, query: str, wrote: bool) -> None:
    assert request_writes(method, path, query) is wrote


def test_the_captured_commands_that_write_are_the_ones_that_create_or_comment_gh_2_102() -> None:
    commands = load_fixtures(GH_CAPTURES[0]).commands
    assert writes(commands["pr.create"]) and writes(commands["pr.comment"])
    assert not writes(commands["pr.checks"]) and not writes(commands["shim.pr.view"])
