"""AO's own words from its output, for ghbench's one-line errors.

AO prints plugin noise before anything fails (every notifier without a webhook says
so, over several indented lines), colours its text, and states the failure itself in
a line of its own: ``✗ GitHub CLI is not authenticated. Run: gh auth login``, or
``Error: …``. Cutting the first bytes of its stderr shows the noise and hides the
reason; this finds the reason.
"""

from __future__ import annotations

import re

__all__ = ["ao_error_line"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NOISE_START = re.compile(r"^\[notifier-[\w-]+\]")
# How AO states a failure, strongest first.
_FAILURE_LINES = (
    re.compile(r"^[✗✖×]\s*(.+)"),
    re.compile(r"^(?:Error|error|Fatal|fatal):\s*(.+)"),
    re.compile(r"^(.*\b(?:[Ff]ailed|not authenticated|not installed|not found)\b.*)"),
)
MAX_LEN = 300


def _lines(text: str) -> list[str]:
    """Non-blank lines without colour, leaving out notifier blocks (a ``[notifier-x]``
    line and the indented lines under it)."""
    out: list[str] = []
    in_noise = False
    for raw in _ANSI.sub("", text).splitlines():
        line = raw.rstrip()
        if not line.strip():
            in_noise = False
            continue
        if _NOISE_START.match(line.strip()):
            in_noise = True
            continue
        if in_noise and raw[:1].isspace():
            continue
        in_noise = False
        out.append(line.strip())
    return out


def ao_error_line(*texts: str) -> str:
    """The line where AO says what failed (the last such line), else its last line."""
    lines = [line for text in texts for line in _lines(text)]
    for pattern in _FAILURE_LINES:
        found = [m.group(1).strip() for line in lines if (m := pattern.match(line))]
        if found:
            return found[-1][:MAX_LEN]
    return lines[-1][:MAX_LEN] if lines else "no output"
