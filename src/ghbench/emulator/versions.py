"""REST API versions: the ``X-GitHub-Api-Version`` request header.

GitHub serves two versions (docs: "API Versions"; a request without the header gets
the oldest supported one, 2022-11-28) and answers any other value with 400, measured on
github.com in 2026 (a third party's notes) as::

    {"message": "Bad Request",
     "errors": "The version you specified in the \\"X-GitHub-API-Version\\" request
                header, \\"1999-01-01\\", is not a supported version. The following
                versions are currently supported: \\"2026-03-10\\" (most recent) and
                \\"2022-11-28\\".",
     "documentation_url": "https://docs.github.com/rest", "status": "400"}

(``errors`` a string, not the usual list). Every REST answer carries
``x-github-api-version-selected``. Whether the refusal is charged is **unconfirmed**:
here it is not. The differences between the two versions on the routes served here
(GitHub's description, ``x-github-breaking-changes``): 2026-03-10 dropped the singular
``assignee`` of issue creation and update, so it is ignored under that version, and the
top-level ``rate`` of ``GET /rate_limit`` (``remove_rate_limit_rate``: ``resources``
alone, ``resources.core`` being what ``rate`` repeated).
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.errors import BadRequest

__all__ = [
    "DEFAULT_VERSION",
    "SUPPORTED_VERSIONS",
    "UnsupportedApiVersion",
    "has_rate_limit_rate",
    "select_version",
]

SUPPORTED_VERSIONS = ("2026-03-10", "2022-11-28")  # newest first
DEFAULT_VERSION = "2022-11-28"


class UnsupportedApiVersion(BadRequest):
    def __init__(self, requested: str) -> None:
        newest, *older = SUPPORTED_VERSIONS
        listed = f'"{newest}" (most recent) and ' + ", ".join(f'"{v}"' for v in older)
        super().__init__(
            "Bad Request",
            documentation_url="https://docs.github.com/rest",
        )
        self.detail = (
            'The version you specified in the "X-GitHub-API-Version" request header, '
            f'"{requested}", is not a supported version. The following versions are '
            f"currently supported: {listed}."
        )

    def body(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "errors": self.detail,
            "documentation_url": self.documentation_url,
            "status": str(self.status),
        }


def select_version(header: str | None) -> str:
    """The version a request asked for (the default when it names none)."""
    if header is None:
        return DEFAULT_VERSION
    requested = header.strip()
    if requested not in SUPPORTED_VERSIONS:
        raise UnsupportedApiVersion(requested)
    return requested


def has_rate_limit_rate(version: str) -> bool:
    """``GET /rate_limit`` still has its top-level ``rate`` (versions before 2026-03-10;
    the dated names compare as text)."""
    return version < "2026-03-10"
