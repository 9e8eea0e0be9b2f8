"""A client that hangs up before its request is handled costs nothing and gets nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from emu_helpers import TOKEN, new_emulator

from ghbench.emulator.asgi import EmulatorApp


def test_a_client_gone_mid_body_is_not_served() -> None:
    emulator = new_emulator()
    app = EmulatorApp(emulator)
    sent: list[dict[str, Any]] = []
    messages = iter(
        [
            {"type": "http.request", "body": b'{"body": "hi"', "more_body": True},
            {"type": "http.disconnect"},
        ]
    )

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/repos/acme/todo/issues/1/comments",
        "raw_path": b"/repos/acme/todo/issues/1/comments",
        "query_string": b"",
        "headers": [(b"authorization", f"token {TOKEN}".encode())],
        "client": ("127.0.0.1", 1),
    }
    try:
        asyncio.run(app(scope, receive, send))
    finally:
        app.close()
    assert sent == []
    assert emulator.ledger_entries() == []  # nothing charged, nothing written
