"""The GitHub front on loopback (not a test: figures go to docs/performance.md).

    .venv/bin/python bench/bench_front.py [--requests 3000] [--clients 16] [--seconds 10]
                                          [--upstream tcp|unix] [--libraries]

An emulator process and a front process (emulate mode, traced to a file under a
temporary directory), as ``ghbench record --github emulator`` runs them. The client
(this process, uvloop, h11 on kept-alive connections) asks for AO's ETag guard
(``GET /repos/acme/todo/pulls?...per_page=1`` with ``If-None-Match``: a 304) and for
``GET /rate_limit`` (a 200 with a body), both free, so no budget runs out:

1. latency: the same requests sent directly to the emulator (plain HTTP) and through
   the front (CONNECT, TLS with the front's CA, then the request), one at a time, in
   alternating blocks of 100 so both see the same machine; p50 and p99 of each and
   the difference (the latency the front adds, client-side TLS included);
2. a new connection through the front (CONNECT + handshake + one request, as each
   ``gh`` run makes): p50;
3. throughput: ``--clients`` connections sending back to back for ``--seconds``,
   directly and through the front: requests/s (the emulator, the front and this
   client share the machine's cores);
4. ``--libraries``: the choices behind the front, measured: CPU per kept-alive request
   of h11 on an asyncio stream, httpcore's pool and httpx, against the emulator; and
   minting an ECDSA P-256 key against an RSA 2048 one.

The machine is shared, so run it when nothing else is busy and report the spread.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import sys
import tempfile
import time
from pathlib import Path

import h11
import httpx
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.process import start_emulator_process
from ghbench.front import FrontSettings, start_front

TOKEN = "ghp_bench000000000000000000000000000000000"
GUARD = "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1"
RATE = "/rate_limit"
BLOCK = 100


class Client:
    """One kept-alive connection: directly to the emulator, or through the front."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = h11.Connection(h11.CLIENT)

    @classmethod
    async def direct(cls, port: int) -> Client:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    @classmethod
    async def through(cls, front_port: int, trust: ssl.SSLContext) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", front_port)
        writer.write(b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n")
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        await writer.start_tls(trust, server_hostname="api.github.com")
        return cls(reader, writer)

    async def get(self, target: str, etag: str | None = None) -> tuple[int, dict[bytes, bytes]]:
        headers = [
            (b"host", b"api.github.com"),
            (b"authorization", f"token {TOKEN}".encode()),
            (b"user-agent", b"ao-agent-orchestrator/scm-github"),
        ]
        if etag is not None:
            headers.append((b"if-none-match", etag.encode()))
        self.writer.write(self.conn.send(h11.Request(method="GET", target=target, headers=headers)))
        self.writer.write(self.conn.send(h11.EndOfMessage()))
        status, got = 0, {}
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                self.conn.receive_data(await self.reader.read(65536))
            elif isinstance(event, h11.Response):
                status, got = event.status_code, dict(event.headers)
            elif isinstance(event, h11.EndOfMessage):
                self.conn.start_next_cycle()
                return status, got

    def close(self) -> None:
        self.writer.close()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def latency(emulator_port: int, front_port: int, trust: ssl.SSLContext, n: int) -> None:
    direct = await Client.direct(emulator_port)
    through = await Client.through(front_port, trust)
    _, headers = await direct.get(GUARD)
    etag = headers[b"etag"].decode()
    kinds = (("304 guard", GUARD, etag, 304), ("200 /rate_limit", RATE, None, 200))
    for label, target, tag, want in kinds:
        times: dict[str, list[float]] = {"direct": [], "front": []}
        for client in (direct, through):  # warm both
            for _ in range(50):
                await client.get(target, tag)
        for _ in range(max(1, n // BLOCK)):
            for name, client in (("direct", direct), ("front", through)):
                for _ in range(BLOCK):
                    start = time.perf_counter()
                    status, _ = await client.get(target, tag)
                    times[name].append((time.perf_counter() - start) * 1000)
                    assert status == want, status
        d50, d99 = pct(times["direct"], 50), pct(times["direct"], 99)
        f50, f99 = pct(times["front"], 50), pct(times["front"], 99)
        print(
            f"latency {label}: direct p50 {d50:.2f} ms p99 {d99:.2f} ms; through the front"
            f" p50 {f50:.2f} ms p99 {f99:.2f} ms; added p50 {f50 - d50:.2f} ms"
            f" p99 {f99 - d99:.2f} ms ({len(times['front'])} each)"
        )
    direct.close()
    through.close()
    fresh: list[float] = []
    for _ in range(100):
        start = time.perf_counter()
        client = await Client.through(front_port, trust)
        await client.get(RATE)
        fresh.append((time.perf_counter() - start) * 1000)
        client.close()
    p50 = pct(fresh, 50)
    print(f"new connection through the front (CONNECT + TLS + 1 request): p50 {p50:.2f} ms")


async def throughput(label: str, connect: object, clients: int, seconds: float) -> None:
    opened = [await connect() for _ in range(clients)]  # type: ignore[operator]
    done = 0
    stop = time.perf_counter() + seconds

    async def loop(client: Client) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            status, _ = await client.get(RATE)
            assert status == 200, status
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop(c) for c in opened))
    elapsed = time.perf_counter() - start
    for client in opened:
        client.close()
    rate = done / elapsed
    print(f"throughput {label}: {rate:,.0f} req/s ({clients} connections, {elapsed:.1f} s)")


def libraries(emulator_port: int) -> None:
    import httpcore
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    n = 1000
    url = f"http://127.0.0.1:{emulator_port}{RATE}"
    headers = [("host", "api.github.com"), ("authorization", f"token {TOKEN}")]

    async def raw() -> None:
        client = await Client.direct(emulator_port)
        for _ in range(n):
            await client.get(RATE)
        client.close()

    async def pool() -> None:
        async with httpcore.AsyncConnectionPool() as p:
            for _ in range(n):
                await p.request("GET", url, headers=headers)

    async def client() -> None:
        async with httpx.AsyncClient() as c:
            for _ in range(n):
                await c.get(url, headers=headers)

    candidates = (("h11 on an asyncio stream", raw), ("httpcore pool", pool), ("httpx", client))
    for label, run in candidates:
        best = min(_cpu(lambda run=run: uvloop.run(run())) for _ in range(3))
        print(f"library {label}: {best / n * 1e6:.0f} µs of CPU per kept-alive request")
    ec_ms = _cpu(lambda: [ec.generate_private_key(ec.SECP256R1()) for _ in range(50)]) / 50 * 1e3
    rsa_ms = _cpu(lambda: [rsa.generate_private_key(65537, 2048) for _ in range(5)]) / 5 * 1e3
    print(f"library key minting: ECDSA P-256 {ec_ms:.2f} ms, RSA 2048 {rsa_ms:.0f} ms")


def _cpu(work: object) -> float:
    start = time.process_time()
    work()  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--upstream", choices=("tcp", "unix"), default="tcp")
    parser.add_argument("--libraries", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ghbench-bench-front-") as tmp:
        root = Path(tmp)
        socket_path = root / "emu.sock"
        emulator = start_emulator_process(
            root / "emulator", tokens=[TOKEN], repos=["acme/todo"], uds=socket_path
        )
        # thousands of requests a minute: past GitHub's secondary limits, which are not
        # what is measured here
        control = {CONTROL_KEY_HEADER: emulator.control_key}
        httpx.post(f"{emulator.url}/_ghbench/secondary", json={"enabled": False}, headers=control)
        upstream = emulator.url if args.upstream == "tcp" else f"unix:{socket_path}"
        front = start_front(
            FrontSettings(
                mode="emulate",
                state_dir=str(root / "front"),
                upstream=upstream,
                trace=str(root / "trace.jsonl"),
            )
        )
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f}; upstream {args.upstream}")
            if args.libraries:
                libraries(emulator.port)
            trust = ssl.create_default_context(cafile=str(front.ca_cert))
            trust.set_alpn_protocols(["http/1.1"])
            uvloop.run(latency(emulator.port, front.port, trust, args.requests))
            direct = lambda: Client.direct(emulator.port)  # noqa: E731
            uvloop.run(throughput("direct", direct, args.clients, args.seconds))
            uvloop.run(
                throughput(
                    "through the front",
                    lambda: Client.through(front.port, trust),
                    args.clients,
                    args.seconds,
                )
            )
            counts = front.status()
            print(
                f"front: {counts.exchanges:,} exchanges, {counts.rows_written:,} rows written,"
                f" {counts.rows_lost} lost; load average after: {os.getloadavg()[0]:.2f}"
            )
            assert counts.rows_written == counts.exchanges and not counts.rows_lost
        finally:
            front.stop()
            emulator.stop()


if __name__ == "__main__":
    main()
