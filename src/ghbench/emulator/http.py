"""The transport-neutral request and response the core handles, and JSON bodies."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

__all__ = ["JSON_TYPE", "EmuRequest", "EmuResponse", "encode_json", "json_message"]

JSON_TYPE = "application/json; charset=utf-8"


@dataclass
class EmuRequest:
    """One HTTP request. ``path`` may be absolute-form (``http://host/repos/...``) and may
    carry ``?query``; ``headers`` are stored lower-cased (case-insensitive lookups)."""

    method: str
    path: str
    query: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    client: str = "127.0.0.1"
    # In-flight requests of the same credential including this one (server adapter).
    concurrency: int = 1

    def __post_init__(self) -> None:
        self.method = self.method.upper()
        self.headers = {k.lower(): v for k, v in self.headers.items()}

    @classmethod
    def build(
        cls,
        method: str,
        path: str,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        body: bytes = b"",
        client: str = "127.0.0.1",
    ) -> EmuRequest:
        pairs = headers.items() if isinstance(headers, Mapping) else headers
        merged: dict[str, str] = {}
        for name, value in pairs:
            key = name.lower()
            merged[key] = f"{merged[key]}, {value}" if key in merged else value
        return cls(method, path, "", merged, body, client)

    def header(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)


@dataclass
class EmuResponse:
    """Status, lower-cased headers and body; ``delay_s`` is injected latency the
    transport must wait before answering (the core never sleeps)."""

    status: int
    headers: dict[str, str]
    body: bytes = b""
    delay_s: float = 0.0

    def json(self) -> object:
        return json.loads(self.body) if self.body else None


def encode_json(body: Any) -> bytes:
    return msgspec.json.encode(body)


def json_message(status: int, message: str) -> EmuResponse:
    """A bare ``{"message"}`` answer (the control API's, the CONNECT refusal's shape)."""
    return EmuResponse(status, {"content-type": JSON_TYPE}, encode_json({"message": message}))
