"""Which rate limit refused a call, from its answer: GitHub's shapes as reported (limits
reference §1.4, §3, §4), the 2026 answer with the primary's message and budget left, and
the emulator's own header."""

from __future__ import annotations

import pytest

from ghbench.trace.limits import LIMIT_HEADER, refusal_kind

SECONDARY = (
    b'{"message":"You have exceeded a secondary rate limit. Please wait a few minutes'
    b' before you try again.","documentation_url":"https://docs.github.com/rest"}'
)
CONTENT = b'{"message":"You have exceeded a secondary rate limit and have been temporarily' + (
    b' blocked from content creation. Please retry your request again later."}'
)
PRIMARY = b'{"message":"API rate limit exceeded for user ID 1.","documentation_url":"x"}'
FORBIDDEN = b'{"message":"Resource not accessible by integration"}'


def _h(remaining: int | None = None, **more: str) -> dict[str, str]:
    out = {} if remaining is None else {"x-ratelimit-remaining": str(remaining)}
    return out | {k.replace("_", "-"): v for k, v in more.items()}


@pytest.mark.parametrize(
    ("status", "headers", "body", "kind"),
    [
        (403, _h(0), PRIMARY, "primary"),
        (429, _h(0), PRIMARY, "primary"),
        (403, _h(12), SECONDARY, "secondary"),
        (429, _h(12, retry_after="60"), SECONDARY, "secondary"),
        (403, _h(12), CONTENT, "secondary-content"),
        # GitHub in 2026: the primary's words while budget is left, a secondary limit
        (429, _h(4000), PRIMARY, "secondary"),
        (403, _h(4000), PRIMARY, "secondary"),
        # a permission error is no rate limit, whatever the budget
        (403, _h(4000), FORBIDDEN, None),
        (403, _h(0), FORBIDDEN, "primary"),  # but a spent budget is, as the docs define it
        (404, _h(0), PRIMARY, None),
        (200, _h(0), b"{}", None),
    ],
)
def test_rest_answers(status: int, headers: dict[str, str], body: bytes, kind: str | None) -> None:
    assert refusal_kind(status, headers, body) == kind


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b'{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}', "primary"),
        (
            b'{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit",'
            b'"message":"API rate limit already exceeded for user ID 1."}]}',
            "primary",
        ),
        (b'{"data":null,"errors":[{"type":"RATE_LIMITED"}]}', "primary"),
        # an answer with data ran: a field that happens to say RATE_LIMITED is no refusal
        (b'{"data":{"repository":{"name":"RATE_LIMITED"}}}', None),
        (b'{"data":{"viewer":{"login":"octo"}}}', None),
    ],
)
def test_graphql_answers(body: bytes, kind: str | None) -> None:
    assert refusal_kind(200, _h(0), body, graphql=True) == kind
    assert refusal_kind(200, _h(0), body.decode(), graphql=True) == kind  # gh's text
    assert refusal_kind(200, _h(0), None, graphql=True) is None  # no body kept: unknown


@pytest.mark.parametrize("rule", ["points", "concurrency", "content"])
def test_the_emulator_names_the_secondary_rule(rule: str) -> None:
    headers = _h(4000, **{LIMIT_HEADER.replace("-", "_"): rule})
    assert refusal_kind(429, headers, PRIMARY) == f"secondary-{rule}"
    assert refusal_kind(403, _h(0, **{LIMIT_HEADER.replace("-", "_"): "primary"}), None) == (
        "primary"
    )
