"""Branch protection over REST (httpx over the in-process core): GitHub's 404s for an
unknown or unprotected branch, its 422s for each missing key or wrong type, and the rules
a PUT sets as GET reads them back."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import REPO

PROTECTION = f"{REPO}/branches/main/protection"
RULES: dict[str, Any] = {
    "required_status_checks": {
        "strict": True,
        "contexts": ["tests"],
        "checks": [{"context": "lint"}],
    },
    "enforce_admins": True,
    "required_pull_request_reviews": {"required_approving_review_count": 2},
    "restrictions": None,
    "allow_force_pushes": True,
}


def test_put_then_get_then_delete(api: httpx.Client) -> None:
    assert api.get(PROTECTION).json()["message"] == "Branch not protected"
    put = api.put(PROTECTION, json=RULES)
    assert put.status_code == 200 and "enabled" not in put.json()  # protected-branch shape
    got = api.get(PROTECTION).json()
    checks = got["required_status_checks"]
    assert (checks["strict"], checks["contexts"]) == (True, ["tests", "lint"])
    assert checks["enforcement_level"] == "everyone"  # enforce_admins
    assert got["required_pull_request_reviews"]["required_approving_review_count"] == 2
    assert got["allow_force_pushes"] == {"enabled": True}
    assert got["allow_deletions"] == {"enabled": False}
    assert (got["enabled"], got["name"]) == (True, "main")
    # null turns a rule off
    off = RULES | {"required_status_checks": None, "required_pull_request_reviews": None}
    assert api.put(PROTECTION, json=off).status_code == 200
    got = api.get(PROTECTION).json()
    assert "required_status_checks" not in got and "required_pull_request_reviews" not in got
    assert api.delete(PROTECTION).status_code == 204
    again = api.delete(PROTECTION)
    assert again.status_code == 404 and again.json()["message"] == "Branch not protected"


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_an_unknown_branch_is_not_found(api: httpx.Client, method: str) -> None:
    answer = api.request(method, f"{REPO}/branches/nope/protection", json=RULES)
    assert answer.status_code == 404 and answer.json()["message"] == "Branch not found"


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ([], '"required_status_checks" wasn\'t supplied.'),
        (
            {k: v for k, v in RULES.items() if k != "restrictions"},
            '"restrictions" wasn\'t supplied.',
        ),
        (RULES | {"required_status_checks": {"contexts": []}}, "it is not a boolean."),
        (RULES | {"required_status_checks": {"strict": False}}, '"contexts" wasn\'t supplied.'),
        (RULES | {"required_status_checks": {"strict": False, "contexts": [1]}}, "not a string."),
        (RULES | {"required_pull_request_reviews": []}, "it is not an object."),
        (
            RULES | {"required_pull_request_reviews": {"required_approving_review_count": 7}},
            "must be between 0 and 6",
        ),
        (
            RULES | {"required_pull_request_reviews": {"required_approving_review_count": True}},
            "must be between 0 and 6",
        ),
    ],
)
def test_bad_rules_are_githubs_422(api: httpx.Client, body: Any, detail: str) -> None:
    refused = api.put(PROTECTION, json=body)
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("Invalid request.\n\n")
    assert refused.json()["message"].endswith(detail)
    assert api.get(PROTECTION).status_code == 404  # nothing was set
