"""The emulator's domain errors: each kind's status and GitHub's message, the JSON body
it becomes, and the 404 and 422 helpers handlers use."""

from __future__ import annotations

import pytest

from ghbench.emulator.errors import (
    DOCS,
    ApiError,
    BadCredentials,
    Conflict,
    NotFound,
    PrimaryRateLimited,
    SecondaryRateLimited,
    ServerError,
    ValidationFailed,
    found,
    invalid_field,
    missing_field,
)
from ghbench.trace.limits import LIMIT_HEADER


@pytest.mark.parametrize(
    ("kind", "status", "message"),
    [
        (BadCredentials, 401, "Bad credentials"),
        (NotFound, 404, "Not Found"),
        (Conflict, 409, "Conflict"),
        (ValidationFailed, 422, "Validation Failed"),
        (ApiError, 500, "Server Error"),
    ],
)
def test_each_kind_has_its_status_and_githubs_message(
    kind: type[ApiError], status: int, message: str
) -> None:
    error = kind()
    assert (error.status, error.message, str(error)) == (status, message, message)
    assert error.body() == {"message": message, "documentation_url": DOCS}
    assert error.headers == {}


def test_a_message_errors_and_docs_given_are_in_the_body_in_githubs_order() -> None:
    error = ValidationFailed("Nope", documentation_url="https://d", errors=["bad"])
    assert list(error.body().items()) == [
        ("message", "Nope"),
        ("errors", ["bad"]),
        ("documentation_url", "https://d"),
    ]
    assert "errors" not in ValidationFailed(errors=[]).body()  # none: no key
    assert NotFound.documentation_url == DOCS  # one instance's docs are its own


def test_rate_limit_refusals_name_their_limit_and_take_their_status() -> None:
    primary = PrimaryRateLimited("API rate limit exceeded", status=429)
    assert primary.status == 429 and primary.headers == {LIMIT_HEADER: "primary"}
    assert primary.documentation_url.endswith("#about-primary-rate-limits")
    assert PrimaryRateLimited("x").status == 403
    secondary = SecondaryRateLimited(headers={"retry-after": "60"})
    assert secondary.status == 403 and secondary.headers == {"retry-after": "60"}
    assert secondary.message.startswith("You have exceeded a secondary rate limit.")
    assert isinstance(secondary, ApiError) and Conflict.status == 409  # subclasses keep theirs
    assert ServerError(502, "Bad Gateway").status == 502


def test_found_passes_values_through_and_raises_githubs_404_for_none() -> None:
    assert found(0) == 0 and found("") == ""  # falsy values are still values
    with pytest.raises(NotFound):
        found(None)


def test_missing_and_invalid_fields_are_githubs_422_entries() -> None:
    assert missing_field("Issue", "title").errors == [
        {"resource": "Issue", "code": "missing_field", "field": "title"}
    ]
    assert invalid_field("Label", "color").errors == [
        {"resource": "Label", "code": "invalid", "field": "color"}
    ]
    custom = invalid_field("PullRequest", "base", "base is not a branch")
    assert custom.status == 422 and custom.errors == [
        {
            "resource": "PullRequest",
            "code": "custom",
            "field": "base",
            "message": "base is not a branch",
        }
    ]
