"""GitHub's custom media types (``rest/media.py``) on plain calls: which Accept headers
ask for ``diff``/``patch``/``sha``/``raw`` (with or without ``v3``; ``+json`` forms are
JSON), and the answer's ``content-type`` and ``x-github-media-type``."""

from __future__ import annotations

import pytest

from ghbench.emulator.core import Emulator
from ghbench.emulator.rest.media import media_param, text_reply
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.rest.routing import Call

OFFERED = ("diff", "patch")


def _call(emulator: Emulator, accept: str) -> Call:
    return Call(
        emulator=emulator,
        store=emulator.store,
        render=RestRenderer("http://api.test", "https://github.test"),
        path="/repos/acme/todo/pulls/1",
        params={},
        query={},
        user=None,
        owner="ip:127.0.0.1",
        accept=accept,
    )


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("application/vnd.github.v3.diff", ("diff", "application/vnd.github.v3.diff")),
        ("application/vnd.github.patch", ("patch", "application/vnd.github.patch")),
        ("Application/VND.GitHub.V3.Diff", ("diff", "application/vnd.github.v3.diff")),
        ("application/vnd.github.diff; charset=utf-8", ("diff", "application/vnd.github.diff")),
        ("application/json, application/vnd.github.diff", ("diff", "application/vnd.github.diff")),
        ("application/vnd.github.v3.diff+json", None),  # the JSON form
        ("application/vnd.github.v3.sha", None),  # not offered here
        ("application/vnd.github.v3+json", None),
        ("application/vnd.github.v4.diff", None),
        ("text/x-diff", None),
        ("", None),
    ],
)
def test_which_accept_asks_for_a_media_type(
    emulator: Emulator, accept: str, expected: tuple[str, str] | None
) -> None:
    assert media_param(_call(emulator, accept), OFFERED) == expected


def test_a_text_reply_names_its_media_type() -> None:
    reply = text_reply(("diff", "application/vnd.github.v3.diff"), "diff --git a b\n")
    assert reply.status == 200 and reply.body == b"diff --git a b\n"
    assert reply.headers == {
        "content-type": "application/vnd.github.v3.diff; charset=utf-8",
        "x-github-media-type": "github.v3; param=diff; format=diff",
    }
    raw = text_reply(("raw", "application/vnd.github.raw"), b"\x00\xff", charset=False)
    assert raw.body == b"\x00\xff" and raw.headers["content-type"] == "application/vnd.github.raw"
