"""Parsing and formatting of durations and timestamps, shared by every command.

Durations are written like the spec's flags: ``90s``, ``2m``, ``15m``, ``1h30m``,
``500ms``. Timestamps are ISO-8601; ghbench writes UTC with a ``Z`` suffix.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from ghbench.errors import UsageError

__all__ = [
    "duration_flag",
    "format_duration",
    "iso_ms",
    "iso_s",
    "parse_duration",
    "parse_iso",
]

_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")


def parse_duration(text: str) -> float:
    """Parse ``1h30m``, ``15m``, ``90s``, ``500ms`` or a bare number of seconds.

    Raises ValueError with the accepted forms when the text is not a duration.
    """
    s = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)?", s):
        return float(s)
    pos = 0
    total = 0.0
    for m in _DURATION_PART.finditer(s):
        if m.start() != pos:
            break
        total += float(m.group(1)) * _UNIT_SECONDS[m.group(2)]
        pos = m.end()
    if pos != len(s) or not s:
        raise ValueError(f"{text!r} is not a duration; use forms like 90s, 2m, 15m or 1h30m")
    return total


def duration_flag(flag: str, text: str, *, allow_zero: bool = True) -> float:
    """The seconds of a duration flag's ``text``; UsageError naming ``flag`` if it is not one."""
    try:
        seconds = parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    if seconds < 0 or (seconds == 0 and not allow_zero):
        raise UsageError(f"{flag}: must be {'' if allow_zero else 'more than '}0, got {text!r}")
    return seconds


def format_duration(seconds: float) -> str:
    """Render seconds like the spec's ``durationActual``: ``15m 0s``, ``1h 2m 3s``, ``45s``."""
    total = round(seconds)
    hours, rem = divmod(total, 3600)
    minutes, secs = divmod(rem, 60)
    if hours:
        return f"{hours}h {minutes}m {secs}s"
    if minutes:
        return f"{minutes}m {secs}s"
    return f"{secs}s"


def parse_iso(text: str) -> float:
    """Parse an ISO-8601 timestamp to epoch seconds; a naive time is taken as UTC."""
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    dt = datetime.fromisoformat(s)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()


def iso_s(epoch: float) -> str:
    """``2026-04-16T14:17:02Z``: whole seconds, UTC."""
    return datetime.fromtimestamp(int(epoch // 1), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_ms(epoch: float) -> str:
    """``2026-04-16T14:17:02.123Z``: what JavaScript's toISOString() writes."""
    ms = round(epoch * 1000)
    dt = datetime.fromtimestamp(ms // 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"
