"""Domain errors, each mapped to one GitHub-shaped response.

Models and handlers raise these; the core turns them into
``{"message": ..., "documentation_url": ...}`` (plus ``errors`` for 422s) with the
class's status. Messages are GitHub's own where known.

    ApiError
    ├── BadRequest (400)          ├── NotFound (404)
    ├── BadCredentials (401)      ├── MethodNotAllowed (405; also "not mergeable")
    ├── RequiresAuthentication    ├── Conflict (409)
    ├── Forbidden (403)           ├── PayloadTooLarge (413)
    │   ├── PrimaryRateLimited    ├── ValidationFailed (422)
    │   └── SecondaryRateLimited  └── ServerError (5xx, fault injection)
    │       (403 or 429)
    └── BadRequest also answers an unsupported X-GitHub-Api-Version (400)
"""

from __future__ import annotations

from typing import Any, TypeVar

from ghbench.trace.limits import LIMIT_HEADER

__all__ = [
    "DOCS",
    "ApiError",
    "BadCredentials",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "MethodNotAllowed",
    "NotFound",
    "PayloadTooLarge",
    "PrimaryRateLimited",
    "RequiresAuthentication",
    "SecondaryRateLimited",
    "ServerError",
    "ValidationFailed",
    "found",
]

DOCS = "https://docs.github.com/rest"


class ApiError(Exception):
    """An error GitHub answers with a JSON message."""

    status = 500
    default_message = "Server Error"
    documentation_url = DOCS

    def __init_subclass__(cls, *, status: int | None = None, message: str | None = None) -> None:
        """A kind of error by its status and message: ``class NotFound(ApiError,
        status=404, message="Not Found")``."""
        super().__init_subclass__()
        if status is not None:
            cls.status = status
        if message is not None:
            cls.default_message = message

    def __init__(
        self,
        message: str | None = None,
        *,
        documentation_url: str | None = None,
        errors: list[dict[str, Any] | str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)
        if documentation_url is not None:
            self.documentation_url = documentation_url
        self.errors = errors
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message}
        if self.errors:
            out["errors"] = self.errors
        out["documentation_url"] = self.documentation_url
        return out


class BadRequest(ApiError, status=400, message="Problems parsing JSON"):
    """A body that is not the JSON it should be."""


class BadCredentials(ApiError, status=401, message="Bad credentials"):
    """A token GitHub does not know."""


class RequiresAuthentication(ApiError, status=401, message="Requires authentication"):
    """No token where one is needed."""


class Forbidden(ApiError, status=403, message="Forbidden"):
    """Refused for who is asking."""


class PrimaryRateLimited(Forbidden):
    """403 by default (``EmulatorConfig.primary_status`` may make it 429)."""

    def __init__(self, message: str, *, status: int = 403) -> None:
        super().__init__(message, headers={LIMIT_HEADER: "primary"})
        self.status = status

    documentation_url = (
        "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
        "#about-primary-rate-limits"
    )


class SecondaryRateLimited(Forbidden):
    """403 or 429 (``status``), as the secondary-limit settings choose."""

    def __init__(
        self,
        message: str | None = None,
        *,
        headers: dict[str, str] | None = None,
        status: int = 403,
    ) -> None:
        super().__init__(message, headers=headers)
        self.status = status

    default_message = (
        "You have exceeded a secondary rate limit. Please wait a few minutes before you "
        "try again. If you reach out to GitHub Support for help, please include the "
        "request ID."
    )
    documentation_url = (
        "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
        "#about-secondary-rate-limits"
    )


class NotFound(ApiError, status=404, message="Not Found"):
    """No such thing, or one the caller may not see."""


class MethodNotAllowed(ApiError, status=405, message="Method Not Allowed"):
    """A method the path does not take."""


class Conflict(ApiError, status=409, message="Conflict"):
    """A write the current state forbids."""


class PayloadTooLarge(ApiError, status=413, message="Payload too large"):
    """A body over GitHub's size limit."""


class ValidationFailed(ApiError, status=422, message="Validation Failed"):
    """A well-formed request whose fields GitHub refuses (``errors`` says which)."""


class ServerError(ApiError):
    """Injected 5xx; the status is chosen per instance."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


T = TypeVar("T")


def found(value: T | None) -> T:
    """``value``, or GitHub's 404 where there is none."""
    if value is None:
        raise NotFound()
    return value


def missing_field(resource: str, field: str) -> ValidationFailed:
    """GitHub's 422 for a required field that is absent."""
    return ValidationFailed(
        errors=[{"resource": resource, "code": "missing_field", "field": field}],
    )


def invalid_field(resource: str, field: str, message: str | None = None) -> ValidationFailed:
    error: dict[str, Any] = {"resource": resource, "code": "invalid", "field": field}
    if message:
        error = {"resource": resource, "code": "custom", "field": field, "message": message}
    return ValidationFailed(errors=[error])
