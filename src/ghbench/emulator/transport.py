"""A synchronous httpx transport over ``Emulator.handle``: no socket, no event loop.

``httpx.ASGITransport`` is async-only; this lets sync httpx code (the control
client, the workload's HTTP transport) target the in-process emulator::

    client = httpx.Client(transport=EmulatorTransport(emulator),
                          base_url="http://api.github.localhost")

Injected latency advances a virtual clock inside the core; on a real clock the
transport sleeps it.
"""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest

__all__ = ["EmulatorTransport"]


class EmulatorTransport(httpx.BaseTransport):
    def __init__(self, emulator: Emulator, *, client_address: str = "127.0.0.1") -> None:
        self.emulator = emulator
        self.client_address = client_address

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        target = url.raw_path.decode("ascii")
        emu_request = EmuRequest.build(
            request.method,
            f"{url.scheme}://{url.netloc.decode('ascii')}{target}",
            request.headers.multi_items(),
            request.read(),
            self.client_address,
        )
        response = self.emulator.handle(emu_request)
        if response.delay_s > 0:
            self.emulator.clock.sleep(response.delay_s)
        return httpx.Response(
            response.status,
            headers=list(response.headers.items()),
            content=response.body,
            request=request,
        )
