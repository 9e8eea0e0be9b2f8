"""GitHub's custom media types: ``Accept: application/vnd.github[.v3].PARAM[+json]``.

``diff`` and ``patch`` (pull requests and commits: ``gh pr diff`` sends
``application/vnd.github.v3.diff``, octokit's ``mediaType: {format: "diff"}`` the
same), ``sha`` (a commit's id), ``raw`` (a file's bytes). The answer's
``content-type`` is the media type asked for (with or without ``v3``), and
``x-github-media-type`` says ``github.v3; param=PARAM; format=...`` as GitHub's does.
Anything else, ``+json`` forms included, is the JSON representation.
"""

from __future__ import annotations

import re

from ghbench.emulator.rest.routing import Call, Reply

__all__ = ["DIFF", "PATCH", "RAW", "SHA", "media_param", "text_reply"]

DIFF = "application/vnd.github.diff"
PATCH = "application/vnd.github.patch"
SHA = "application/vnd.github.sha"
RAW = "application/vnd.github.raw"
_VND = re.compile(r"application/vnd\.github(?:\.v3)?\.(?P<param>[a-z]+)(?P<json>\+json)?")


def media_param(call: Call, offered: tuple[str, ...]) -> tuple[str, str] | None:
    """``(param, media type as asked)`` when the Accept header asks for one of
    ``offered`` (params such as ``diff``) in a non-JSON form; None for JSON."""
    for part in call.accept.split(","):
        found = _VND.fullmatch(part.split(";")[0].strip().lower())
        if found and found["param"] in offered and not found["json"]:
            return found["param"], found.group(0)
    return None


def text_reply(media: tuple[str, str], data: bytes | str, *, charset: bool = True) -> Reply:
    """A non-JSON answer in the media type ``media`` (from ``media_param``)."""
    param, asked = media
    body = data.encode() if isinstance(data, str) else data
    kind = f"{asked}; charset=utf-8" if charset else asked
    headers = {
        "content-type": kind,
        "x-github-media-type": f"github.v3; param={param}; format={param}",
    }
    return Reply(body, headers=headers)
