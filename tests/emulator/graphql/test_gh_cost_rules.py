"""The two GraphQL cost rules (``graphql_cost_rule``), measured with real gh 2.23 and
2.102.

gh's comment and review fragments select ``reactionGroups { users { totalCount } }``:
a connection without ``first``/``last`` under up to 100 x 100 parents. Under
``page-size`` (the default) it adds nothing; under ``every-connection`` it is one
request per parent. gh 2.102's ``pr view`` and ``issue view`` also read the item's
projects (``PullRequestProjectItems``, ``IssueProjectItems``: 1 point each), and its
``pr checks`` detects features once a day (2 introspection queries, 1 point each:
warmed up here, so the figures are a command's steady cost). The figures here are
the ones docs/emulator.md shows.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tools import GhBuild

pytestmark = pytest.mark.gh

REPO = "acme/todo"
# gh command -> per gh version, its GraphQL points under page-size and under
# every-connection (every operation the command sends, as the ledger records them)
COMMANDS: list[tuple[list[str], dict[str, tuple[int, int]]]] = [
    (["pr", "list", "--json", "number,comments", "-L", "100"], {"2.23.0": (1, 101)}),
    (["pr", "list", "--json", "number,reviews", "-L", "100"], {"2.23.0": (1, 101)}),
    (["pr", "view", "2"], {"2.23.0": (1, 2), "2.102.0": (2, 3)}),
    (["pr", "view", "2", "--json", "comments"], {"2.23.0": (1, 1)}),
    (["issue", "view", "1", "--comments"], {"2.23.0": (2, 4), "2.102.0": (2, 3)}),
    (["pr", "list"], {"2.23.0": (1, 1)}),
    (["pr", "checks", "2"], {"2.23.0": (2, 2)}),
]


def _expected(version: str, figures: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """A version's figures; a command costs the same in both unless it says otherwise."""
    return figures.get(version, figures["2.23.0"])


def _points(env: dict[str, str], server: Any, args: list[str]) -> int:
    before = len(server.emulator.ledger_entries(resource="graphql"))
    result = subprocess.run(
        ["gh", *args, "-R", REPO], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode in (0, 1), result.stderr  # pr checks exits 1 on failing CI
    entries = server.emulator.ledger_entries(resource="graphql")[before:]
    return sum(e.cost for e in entries)


@pytest.mark.slow
def test_gh_commands_cost_by_each_rule(
    gh_env: dict[str, str], emulator_server: Any, gh_build: GhBuild
) -> None:
    emu = emulator_server.emulator
    emu.create_issue(REPO, "Bug", body="details", author="octo")
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    emu.set_ci(REPO, "failure", pr=2)
    _points(gh_env, emulator_server, ["pr", "checks", "2"])  # gh's feature detection, cached
    measured = {}
    for rule in ("page-size", "every-connection"):
        emu.config.graphql_cost_rule = rule
        for args, _ in COMMANDS:
            measured[(" ".join(args), rule)] = _points(gh_env, emulator_server, args)
    expected = {}
    for args, figures in COMMANDS:
        paged, every = _expected(gh_build.version, figures)
        expected[(" ".join(args), "page-size")] = paged
        expected[(" ".join(args), "every-connection")] = every
    assert measured == expected
