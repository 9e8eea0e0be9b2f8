"""The synchronous httpx transport over ``Emulator.handle``: no socket; the absolute URL,
query, headers and body reach the core; the caller's address is the one given; injected
latency passes on the emulator's own clock."""

from __future__ import annotations

import httpx
from emu_helpers import API, TOKEN

from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport


def test_a_request_reaches_the_core_whole(emulator: Emulator) -> None:
    emulator.seed({"repos": [{"name": "acme/todo", "pulls": 3}]})
    headers = {"Authorization": f"token {TOKEN}"}
    with httpx.Client(transport=EmulatorTransport(emulator), base_url=API, headers=headers) as c:
        page = c.get("/repos/acme/todo/pulls", params={"per_page": 1, "page": 2})
        made = c.post("/repos/acme/todo/issues", json={"title": "from the transport"})
    assert page.status_code == 200 and len(page.json()) == 1
    assert page.headers["link"].startswith("<http://api.github.localhost/repos/acme/todo/pulls?")
    assert made.status_code == 201 and made.json()["title"] == "from the transport"
    assert made.json()["user"]["login"] == "octo"


def test_the_callers_address_is_the_one_given(emulator: Emulator) -> None:
    transport = EmulatorTransport(emulator, client_address="10.1.2.3")
    with httpx.Client(transport=transport, base_url=API) as anonymous:
        assert anonymous.get("/repos/acme/todo").status_code == 200
    (entry,) = emulator.ledger_entries()
    assert entry.owner == "ip:10.1.2.3"  # anonymous calls are charged to the address


def test_injected_latency_advances_the_virtual_clock(emulator: Emulator) -> None:
    emulator.config.faults.latency = "fixed"
    emulator.config.faults.latency_ms = 250
    before = emulator.clock.now()
    with httpx.Client(transport=EmulatorTransport(emulator), base_url=API) as client:
        client.get("/repos/acme/todo")
    assert emulator.clock.now() - before >= 0.25
