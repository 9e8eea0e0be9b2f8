"""Parsing and formatting of durations and timestamps, shared by every command.

Durations are written like the spec's flags: ``90s``, ``2m``, ``15m``, ``1h30m``,
``500ms``. Timestamps are ISO-8601; ghbench writes UTC with a ``Z`` suffix.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime

from ghbench.errors import UsageError

__all__ = [
    "MAX_DURATION_S",
    "describe_seconds",
    "duration_flag",
    "format_duration",
    "instant_flag",
    "iso_ms",
    "iso_s",
    "parse_duration",
    "parse_iso",
]

_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")
_LONGEST_TEXT = 64  # characters: no duration worth writing is longer
MAX_DURATION_S = 7 * 86_400.0  # what any duration flag accepts unless it says otherwise
FORMS = "use forms like 90s, 2m, 15m or 1h30m"


def parse_duration(text: str) -> float:
    """Parse ``1h30m``, ``15m``, ``90s``, ``500ms`` or a bare number of seconds.

    Raises ValueError with the accepted forms when the text is not a duration, or
    is too long to be one; the result is always finite.
    """
    s = text.strip().lower().replace(" ", "")
    if len(s) > _LONGEST_TEXT:
        raise ValueError(f"{text[:20]!r}… ({len(text)} characters) is not a duration; {FORMS}")
    if re.fullmatch(r"\d+(\.\d+)?", s):
        total = float(s)
    else:
        pos = 0
        total = 0.0
        for m in _DURATION_PART.finditer(s):
            if m.start() != pos:
                break
            total += float(m.group(1)) * _UNIT_SECONDS[m.group(2)]
            pos = m.end()
        if pos != len(s) or not s:
            raise ValueError(f"{text!r} is not a duration; {FORMS}")
    if not math.isfinite(total):
        raise ValueError(f"{text!r} is too long to be a duration; {FORMS}")
    return total


def describe_seconds(seconds: float) -> str:
    """A bound in the flags' own form: ``168h``, ``1h30m``, ``90s``."""
    hours, rest = divmod(round(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (secs, "s")) if n]
    return "".join(parts) or "0s"


def duration_flag(
    flag: str, text: str, *, allow_zero: bool = True, maximum: float = MAX_DURATION_S
) -> float:
    """The seconds of a duration flag's ``text``: finite, not negative, more than 0
    unless ``allow_zero``, at most ``maximum``; UsageError naming ``flag`` and the
    bound when it is not."""
    try:
        seconds = parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    if seconds < 0 or (seconds == 0 and not allow_zero):
        raise UsageError(f"{flag}: must be {'' if allow_zero else 'more than '}0, got {text!r}")
    if seconds > maximum:
        raise UsageError(
            f"{flag}: {text!r} is longer than the maximum, {describe_seconds(maximum)};"
            f" give at most {describe_seconds(maximum)}"
        )
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
    """Parse an ISO-8601 timestamp to epoch seconds; a naive time is taken as UTC.

    Raises ValueError (never OverflowError) for text that is not a timestamp, or one
    outside years 1 to 9999 once its offset is applied.
    """
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    dt = datetime.fromisoformat(s)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    try:
        epoch = dt.timestamp()
        datetime.fromtimestamp(epoch, UTC)  # in UTC too (+01:00 at year 1 is year 0)
    except (OverflowError, ValueError, OSError):
        raise ValueError(f"{text!r} falls outside years 1 to 9999 in UTC") from None
    return epoch


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def _date_time(dt: datetime) -> str:
    # strftime's %Y does not pad years before 1000 on every libc: written out
    return (
        f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}T{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}"
    )


def iso_s(epoch: float) -> str:
    """``2026-04-16T14:17:02Z``: whole seconds, UTC."""
    return _date_time(_utc(int(epoch // 1))) + "Z"


def iso_ms(epoch: float) -> str:
    """``2026-04-16T14:17:02.123Z``: what JavaScript's toISOString() writes."""
    ms = round(epoch * 1000)
    return _date_time(_utc(ms // 1000)) + f".{ms % 1000:03d}Z"


def instant_flag(flag: str, text: str) -> int:
    """A timestamp flag's ``text`` (ISO-8601) in epoch milliseconds; UsageError naming
    ``flag`` when it is not one."""
    try:
        return round(parse_iso(text) * 1000)
    except ValueError:
        raise UsageError(
            f"{flag}: {text!r} is not an ISO-8601 timestamp in years 1 to 9999 (UTC); use a"
            " form like 2026-04-16T14:17:02Z"
        ) from None
