"""AO's operation naming and argument redaction (``extractOperation`` and the redactor
in packages/core/src/gh-trace.ts), so rows we write group exactly like AO's.

``extract_operation(["api", "--method", "GET", "repos/o/r/pulls"])`` is ``gh.api.repos``:
the first argument, then the first positional argument up to its first ``/`` or ``?``.
Flags are skipped, and so is the value after each flag in ``VALUE_FLAGS``. Like AO,
other value-taking flags (``--jq``) are not known and their value reads as a positional.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "REDACTED",
    "SECRET_ARG_PREFIXES",
    "VALUE_FLAGS",
    "api_endpoint",
    "api_method",
    "endpoint_of",
    "extract_operation",
    "first_positional",
    "redact_args",
]

REDACTED = "[REDACTED]"

# Flags whose next argument is their value, never a positional (AO's list, verbatim).
VALUE_FLAGS = frozenset(
    {
        "--method",
        "-X",
        "-H",
        "--header",
        "-f",
        "--raw-field",
        "-F",
        "--field",
        "--input",
        "-t",
        "--template",
    }
)
HEADER_FLAGS = ("-H", "--header")
METHOD_FLAGS = ("--method", "-X")
# An argument starting with one of these (any case) keeps the prefix and loses the value.
SECRET_ARG_PREFIXES = ("token=", "password=", "secret=", "authorization=")
# Query parameters whose values are credentials on some GitHub endpoints.
_SECRET_PARAM = re.compile(
    r"(?i)([?&](?:access_token|token|client_secret|password|secret|code|sig|jwt)=)[^&#]*"
)
# Path prefixes of the API on GitHub Enterprise Server hosts.
_API_PREFIXES = ("/api/v3/", "/api/")


def first_positional(args: Sequence[str]) -> str | None:
    """The first argument after ``args[0]`` that is neither a flag nor a flag's value."""
    skip_next = False
    for arg in args[1:]:
        if skip_next:
            skip_next = False
            continue
        if not arg or arg.startswith("-"):
            skip_next = arg in VALUE_FLAGS
            continue
        return arg
    return None


def extract_operation(args: Sequence[str]) -> str:
    """AO's derived operation name: ``gh``, ``gh.<a0>`` or ``gh.<a0>.<positional head>``."""
    if not args:
        return "gh"
    if len(args) == 1:
        return f"gh.{args[0]}"
    positional = first_positional(args)
    if positional is None:
        return f"gh.{args[0]}"
    head = re.split(r"[/?]", positional, maxsplit=1)[0]
    return f"gh.{args[0]}.{head}"


def api_endpoint(args: Sequence[str]) -> str | None:
    """For ``gh api`` calls, the first positional (query string included); else None."""
    if not args or args[0] != "api":
        return None
    return first_positional(args)


def api_method(args: Sequence[str]) -> str | None:
    """For ``gh api`` calls, the ``--method``/``-X`` value, else ``GET`` (even for graphql)."""
    if not args or args[0] != "api":
        return None
    method = "GET"
    for i, arg in enumerate(args[:-1]):
        if arg in METHOD_FLAGS:
            method = args[i + 1]
    return method


def _redact_one(arg: str, after_header_flag: bool) -> str:
    if after_header_flag and arg.lower().startswith("authorization:"):
        return f"Authorization: {REDACTED}"
    if arg.startswith("-H") and arg[2:].lower().startswith("authorization:"):
        return f"-HAuthorization: {REDACTED}"
    lowered = arg.lower()
    for prefix in SECRET_ARG_PREFIXES:
        if lowered.startswith(prefix):
            return f"{arg[: len(prefix)]}{REDACTED}"
    return arg


def redact_args(args: Sequence[str]) -> list[str]:
    """AO's redaction: ``Authorization`` header values and ``token=``/``password=``/
    ``secret=``/``authorization=`` argument values become ``[REDACTED]``."""
    out: list[str] = []
    previous = ""
    for arg in args:
        out.append(_redact_one(arg, previous in HEADER_FLAGS))
        previous = arg
    return out


def endpoint_of(target: str | None) -> str | None:
    """AO's endpoint for a request URI: no leading slash, query kept, ``graphql`` for GraphQL."""
    if not target:
        return None
    path = target
    for prefix in _API_PREFIXES:
        if path.startswith(prefix):
            path = "/" + path[len(prefix) :]
            break
    path = _SECRET_PARAM.sub(r"\1[REDACTED]", path)
    bare = path.split("?", 1)[0].rstrip("/")
    if bare == "/graphql":
        return "graphql"
    return path.lstrip("/")
