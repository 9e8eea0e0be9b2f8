"""``without_tokens``: every variable that carries a GitHub token is left out, and
nothing else."""

from __future__ import annotations

from ghbench.credentials import TOKEN_VARIABLES, without_tokens


def test_every_token_variable_is_left_out_and_the_rest_kept() -> None:
    env = dict.fromkeys(TOKEN_VARIABLES, "ghp_secret")
    env |= {
        "PATH": "/usr/bin",
        "GH_HOST": "example.com",
        "GITHUB_TOKEN_FILE": "/t",
        "gh_token": "x",
    }
    assert without_tokens(env) == {
        "PATH": "/usr/bin",
        "GH_HOST": "example.com",  # names a host, not a secret
        "GITHUB_TOKEN_FILE": "/t",  # a path, not the token
        "gh_token": "x",  # environment names are case-sensitive
    }
    assert len(env) == len(TOKEN_VARIABLES) + 4  # the input is not changed


def test_gh_actions_and_ao_token_variables_are_all_known() -> None:
    assert {"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"} <= (
        TOKEN_VARIABLES
    )
    assert "AO_GITHUB_TOKEN" in TOKEN_VARIABLES
