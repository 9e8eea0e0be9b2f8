"""AO's gh-trace test checklist (reference §8), one case per row, plus edge cases."""

from __future__ import annotations

import pytest

from ghbench.trace.operation import api_endpoint, api_method, extract_operation, redact_args


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "gh"),
        (["api"], "gh.api"),
        (["api", "graphql", "-f", "query=query { viewer { login } }"], "gh.api.graphql"),
        (["api", "--method", "GET", "repos/acme/repo/pulls"], "gh.api.repos"),
        (["api", "repos/acme/repo/pulls/123/comments?per_page=1"], "gh.api.repos"),
        (["api", "-H", "Accept: application/json", "graphql"], "gh.api.graphql"),
        (["api", "rate_limit?x=1"], "gh.api.rate_limit"),
        (["pr", "list", "--head", "feat/x", "--limit", "1"], "gh.pr.list"),
        (["pr", "view", "12", "--json", "state"], "gh.pr.view"),
        (["api", "--method", "GET"], "gh.api"),
        (["api", "", "-i", "repos/o/r"], "gh.api.repos"),
        # Like AO: --jq is not a known value flag, so its value reads as the positional.
        (["api", "--jq", ".x", "repos/o/r"], "gh.api..x"),
    ],
)
def test_extract_operation(args: list[str], expected: str) -> None:
    assert extract_operation(args) == expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["api", "graphql", "-f", "query={ viewer { login } }"],
            ["api", "graphql", "-f", "query={ viewer { login } }"],
        ),
        (["api", "-f", "owner=acme"], ["api", "-f", "owner=acme"]),
        (
            ["api", "-H", "Authorization: token ghp_abc", "user"],
            ["api", "-H", "Authorization: [REDACTED]", "user"],
        ),
        (
            ["api", "--header", "authorization: bearer xyz", "user"],
            ["api", "--header", "Authorization: [REDACTED]", "user"],
        ),
        (["api", "-HAuthorization: token abc"], ["api", "-HAuthorization: [REDACTED]"]),
        (["api", "-f", "token=ghp_secret"], ["api", "-f", "token=[REDACTED]"]),
        (["api", "-F", "password=s3cret"], ["api", "-F", "password=[REDACTED]"]),
        (["api", "-f", "Secret=x"], ["api", "-f", "Secret=[REDACTED]"]),
        (["api", "-f", "authorization=x"], ["api", "-f", "authorization=[REDACTED]"]),
        (["api", "-H", "Accept: x", "user"], ["api", "-H", "Accept: x", "user"]),
    ],
)
def test_redact_args(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


def test_endpoint_and_method_only_for_api_calls() -> None:
    assert api_endpoint(["api", "-X", "POST", "repos/o/r/issues?per_page=1"]) == (
        "repos/o/r/issues?per_page=1"
    )
    assert api_method(["api", "-X", "POST", "repos/o/r/issues"]) == "POST"
    assert api_method(["api", "--method", "PATCH", "x"]) == "PATCH"
    assert api_method(["api", "graphql", "-f", "query=x"]) == "GET"
    assert api_endpoint(["pr", "list"]) is None
    assert api_method(["pr", "list"]) is None
