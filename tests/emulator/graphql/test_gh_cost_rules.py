"""The two GraphQL cost rules (``graphql_cost_rule``), measured with real gh 2.23.

gh's comment and review fragments select ``reactionGroups { users { totalCount } }``:
a connection without ``first``/``last`` under up to 100 x 100 parents. Under
``page-size`` (the default) it adds nothing; under ``every-connection`` it is one
request per parent. The figures here are the ones docs/emulator.md shows.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.gh

REPO = "acme/todo"
# gh command -> its GraphQL points under page-size and under every-connection (every
# operation the command sends, as the ledger records them)
COMMANDS: list[tuple[list[str], int, int]] = [
    (["pr", "list", "--json", "number,comments", "-L", "100"], 1, 101),
    (["pr", "list", "--json", "number,reviews", "-L", "100"], 1, 101),
    (["pr", "view", "2"], 1, 2),
    (["pr", "view", "2", "--json", "comments"], 1, 1),
    (["issue", "view", "1", "--comments"], 2, 4),
    (["pr", "list"], 1, 1),
    (["pr", "checks", "2"], 2, 2),
]


def _points(env: dict[str, str], server: Any, args: list[str]) -> int:
    before = len(server.emulator.ledger_entries(resource="graphql"))
    result = subprocess.run(
        ["gh", *args, "-R", REPO], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode in (0, 1), result.stderr  # pr checks exits 1 on failing CI
    entries = server.emulator.ledger_entries(resource="graphql")[before:]
    return sum(e.cost for e in entries)


@pytest.mark.slow
def test_gh_commands_cost_by_each_rule(gh_env: dict[str, str], emulator_server: Any) -> None:
    emu = emulator_server.emulator
    emu.create_issue(REPO, "Bug", body="details", author="octo")
    emu.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    emu.set_ci(REPO, "failure", pr=2)
    measured = {}
    for rule in ("page-size", "every-connection"):
        emu.config.graphql_cost_rule = rule
        for args, *_ in COMMANDS:
            measured[(" ".join(args), rule)] = _points(gh_env, emulator_server, args)
    expected = {}
    for args, paged, every in COMMANDS:
        expected[(" ".join(args), "page-size")] = paged
        expected[(" ".join(args), "every-connection")] = every
    assert measured == expected
