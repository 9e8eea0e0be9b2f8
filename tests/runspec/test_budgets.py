"""``--budget`` and what sizes it as flags: rows of the flag table in every command that
holds a run to a budget, and one-line refusals naming the flag (GitHub's figures per
kind of token: tests/core/test_budgets.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ghbench.budgets import Budget
from ghbench.errors import UsageError
from ghbench.runspec.build import build_spec
from ghbench.runspec.flags import flag_for
from ghbench.runspec.spec import RunSpec

COMMANDS = ("capacity", "simulate", "replay", "matrix run")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_budgeted_command_takes_the_rows(command: str) -> None:
    for dest in ("budget", "repos", "budget_users", "budget_rest", "budget_graphql"):
        assert command in flag_for(dest).commands, (dest, command)
    spec = build_spec(
        command,
        {"budget": "app", "repos": "40", "budget_users": 25},
        base=RunSpec(backend="simulated"),
    )
    assert spec.budget == Budget(kind="app", repos=40, users=25) and spec.repos == ()
    assert spec.budget.limits().core == 6_250
    assert spec.budget.flags == " --budget app --repos 40 --users 25"
    plain = build_spec(command, {}, base=RunSpec(backend="simulated"))
    assert plain.budget is None  # a user's token, as before budgets


def test_the_matrix_on_github_still_takes_a_list_of_repositories() -> None:
    spec = build_spec("matrix run", {"repos": "o/a, o/b", "backend": "github"})
    assert spec.repos == ("o/a", "o/b") and spec.budget is None


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"repos": "40"}, "--repos sizes a budget: give --budget app with it"),
        ({"budget_rest": 10}, "--rest sizes a budget: give --budget custom with it"),
        ({"budget": "pat", "repos": "40"}, "--repos applies to --budget app, not --budget pat"),
        ({"budget": "app", "budget_graphql": 5}, "--graphql applies to --budget custom"),
        ({"budget": "custom"}, "--budget custom: give --rest N and/or --graphql N"),
        ({"budget": "app", "repos": "o/a"}, "--repos o/a: a list names repositories on GitHub"),
        ({"budget": "app", "repos": "99999999"}, "--repos 99999999: use a whole number"),
    ],
)
def test_a_bad_budget_is_refused_naming_the_flag(values: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError) as info:
        build_spec("simulate", values, base=RunSpec(backend="simulated"))
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_a_budget_is_the_models_to_enforce() -> None:
    """On the emulator or GitHub the token's own kind decides: --budget is refused."""
    with pytest.raises(UsageError, match="--budget applies only with --backend simulated"):
        build_spec("matrix run", {"budget": "app", "backend": "emulator"}, typed={"budget"})
