"""The GitHub front on loopback, against the emulator directly (not a test: figures go
to docs/performance.md).

    .venv/bin/python bench/bench_front.py [--rounds 3] [--seconds 4] [--curls 20]
                                          [--upstream tcp|unix] [--workers N] [--quick]
                                          [--libraries] [--hostile]

An emulator process and a front process (emulate mode, every exchange written to a
trace), as ``ghbench record --github emulator`` runs them. The clients are this process
(uvloop, h11, TLS with the run's CA, the front's proxy credential) and ``curl``. They
ask for AO's ETag guard (``GET /repos/acme/todo/pulls?...per_page=1`` with
``If-None-Match``: a 304) and ``GET /rate_limit`` (a 200 with a body), both free, so
no budget runs out. Every measurement alternates direct and through the front,
``--rounds`` times, so both see the same machine (other jobs share its 2 cores):

1. latency at 8 concurrent kept-alive clients: p50 and p99 of each side, and what the
   front adds (the client's own TLS included);
2. throughput at 32 kept-alive clients, back to back for ``--seconds``: requests/s;
3. a new connection per request (direct: TCP; through the front: CONNECT, TLS, one
   request, as each ``gh`` or ``curl`` run makes): one at a time, the latency one such
   run sees (added p50 and p99); 8 at a time, requests/s;
4. ``curl`` run ``--curls`` times each way: its wall time, straight to the emulator
   (plain HTTP) and through the front (``HTTPS_PROXY`` and the run's CA bundle);
5. the front's counts: every exchange a row, none lost.

The load average is printed before and after each part. ``--hostile``: first the
hostile battery of the front's abuse tests (``tooling.front_abuse``: pipelined, idle,
oversized, aborted and 300 distrusting agents' clients, and a stranger), then how fast
the front answers right after it: a kept-alive request and a new connection's, p50 and
worst of 50 each (target: under 50 ms). ``--libraries``: the choices
behind the front, measured: CPU per exchange of parsing and framing with h11 and with
llhttp; per kept-alive request of h11 on a stream, httpcore's pool and httpx against
the emulator; minting an ECDSA P-256 key against an RSA 2048 one.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import secrets
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import h11
import httpx
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tooling/

import contextlib

from tooling.front_abuse import TOKEN, hostile_battery

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.process import start_emulator_process
from ghbench.front import Front, FrontSettings, start_front

GUARD = "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1"
RATE = "/rate_limit"


class Client:
    """One kept-alive connection: directly to the emulator, or through the front."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = h11.Connection(h11.CLIENT)

    @classmethod
    async def direct(cls, port: int) -> Client:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    @classmethod
    async def through(cls, front: Front, trust: ssl.SSLContext) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        # (an older front, measured with this script for a before/after, has no secret)
        secret = getattr(front.settings, "secret", None)
        credential = base64.b64encode(f"-:{secret}".encode()).decode()
        writer.write(
            b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n"
            b"Proxy-Authorization: Basic " + credential.encode() + b"\r\n\r\n"
        )
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


Connect = Callable[[], Awaitable[Client]]
Report = Callable[[list[float], list[float], float], str]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


async def _etag(emulator_port: int) -> str:
    client = await Client.direct(emulator_port)
    _, headers = await client.get(GUARD)
    client.close()
    return headers[b"etag"].decode()


async def kept_alive(connect: Connect, clients: int, seconds: float, etag: str) -> list[float]:
    """``clients`` connections asking back to back for ``seconds``: each request's ms."""
    opened = [await connect() for _ in range(clients)]
    for client in opened:  # warm: the first request of a connection is not measured
        await client.get(RATE)
    times: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop(client: Client) -> None:
        turn = 0
        while time.perf_counter() < stop:
            target, tag, want = (GUARD, etag, 304) if turn % 2 else (RATE, None, 200)
            turn += 1
            start = time.perf_counter()
            status, _ = await client.get(target, tag)
            times.append((time.perf_counter() - start) * 1000)
            assert status == want, status

    await asyncio.gather(*(loop(c) for c in opened))
    for client in opened:
        client.close()
    return times


async def fresh(connect: Connect, clients: int, seconds: float) -> list[float]:
    """A new connection per request, ``clients`` at a time: each one's ms."""
    times: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop() -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            client = await connect()
            status, _ = await client.get(RATE)
            client.close()
            times.append((time.perf_counter() - start) * 1000)
            assert status == 200, status

    await asyncio.gather(*(loop() for _ in range(clients)))
    return times


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and its children (the front's workers)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    ticks = 0
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def alternate(
    label: str,
    run: Callable[[str], list[float]],
    report: Report,
    *,
    rounds: int,
    seconds: float,
    front_pid: int,
) -> None:
    """Both sides ``rounds`` times; the front's CPU per request (which the load
    hardly changes) beside the figures."""
    sides: dict[str, list[float]] = {"direct": [], "front": []}
    before = load()
    cpu = 0.0
    for _ in range(rounds):
        for side in ("direct", "front"):
            start = cpu_seconds(front_pid)
            sides[side] += run(side)
            if side == "front":
                cpu += cpu_seconds(front_pid) - start
    figures = report(sides["direct"], sides["front"], seconds * rounds)
    per = cpu / max(1, len(sides["front"])) * 1000
    print(f"{label} (load {before} -> {load()}): {figures}; the front's CPU {per:.2f} ms/request")


def latency_report(direct: list[float], front: list[float], _seconds: float) -> str:
    d50, d99, f50, f99 = pct(direct, 50), pct(direct, 99), pct(front, 50), pct(front, 99)
    return (
        f"direct p50 {d50:.2f} p99 {d99:.2f} ms; front p50 {f50:.2f} p99 {f99:.2f} ms;"
        f" added p50 {f50 - d50:.2f} ms, p99 {f99 - d99:.2f} ms ({len(direct):,}/{len(front):,})"
    )


def rate_report(direct: list[float], front: list[float], seconds: float) -> str:
    added = pct(front, 50) - pct(direct, 50)
    return (
        f"direct {len(direct) / seconds:,.0f} req/s, front {len(front) / seconds:,.0f} req/s;"
        f" p50 direct {pct(direct, 50):.2f} ms, front {pct(front, 50):.2f} ms, added {added:.2f} ms"
    )


def curl_runs(emulator_port: int, front: Front, runs: int) -> None:
    """``curl`` as a user's script runs it: each way ``runs`` times, alternating."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tempfile.gettempdir()}
    auth = ["-H", f"Authorization: token {TOKEN}"]
    direct = ["curl", "-sSf", "-o", "/dev/null", *auth, f"http://127.0.0.1:{emulator_port}{RATE}"]
    through = ["curl", "-sSf", "-o", "/dev/null", *auth, f"https://api.github.com{RATE}"]
    through_env = base | front.client_env(base)
    times: dict[str, list[float]] = {"direct": [], "front": []}
    before = load()
    for _ in range(runs):
        for side, argv, env in (("direct", direct, base), ("front", through, through_env)):
            start = time.perf_counter()
            subprocess.run(argv, env=env, check=True)
            times[side].append((time.perf_counter() - start) * 1000)
    d, f = statistics.median(times["direct"]), statistics.median(times["front"])
    print(
        f"curl (load {before} -> {load()}): straight to the emulator {d:.1f} ms, through the"
        f" front {f:.1f} ms (medians of {runs}); {f - d:+.1f} ms"
    )


def libraries(emulator_port: int) -> None:
    import httpcore
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    from ghbench.front.http1 import MessageReader, request_head, response_head

    n = 1000
    request = (
        b"GET /repos/acme/todo/pulls?per_page=1 HTTP/1.1\r\nHost: api.github.com\r\n"
        b"User-Agent: GitHub CLI 2.102.0\r\nAuthorization: token x\r\nAccept: */*\r\n"
        b'If-None-Match: W/"abc"\r\n\r\n'
    )
    response = (
        b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\netag: W/"abc"\r\n'
        b"x-ratelimit-limit: 5000\r\nx-ratelimit-remaining: 4999\r\nx-ratelimit-reset: 1\r\n"
        b"x-ratelimit-used: 1\r\nx-ratelimit-resource: core\r\ncontent-length: 2\r\n\r\n{}"
    )

    def with_h11() -> None:
        for _ in range(n):
            server, client = h11.Connection(h11.SERVER), h11.Connection(h11.CLIENT)
            server.receive_data(request)
            head = server.next_event()
            assert isinstance(head, h11.Request)
            server.next_event()
            client.send(h11.Request(method=head.method, target=head.target, headers=head.headers))
            client.send(h11.EndOfMessage())
            client.receive_data(response)
            answer = client.next_event()
            assert isinstance(answer, h11.Response)
            body = client.next_event()
            server.send(h11.Response(status_code=answer.status_code, headers=answer.headers))
            assert isinstance(body, h11.Data)
            server.send(h11.Data(data=body.data))
            server.send(h11.EndOfMessage())

    def with_llhttp() -> None:
        for _ in range(n):
            requests, answers = MessageReader(), MessageReader(response=True)
            requests.feed(request)
            head = requests.events.popleft()
            request_head(head.method, head.target, head.headers)  # type: ignore[union-attr]
            answers.feed(response)
            answer = answers.events.popleft()
            response_head(answer.status, answer.reason, answer.headers)  # type: ignore[union-attr]

    for label, parse in (("h11", with_h11), ("llhttp (httptools)", with_llhttp)):
        best = min(_cpu(parse) for _ in range(3))
        print(f"library {label}: {best / n * 1e6:.0f} µs of CPU per exchange parsed and framed")

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


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def hostile(emulator_url: str, front: Front, trust: ssl.SSLContext) -> None:
    """The battery, then how fast the front still answers."""
    big = base64.b64encode(secrets.token_hex(3 << 20).encode()).decode()
    put = httpx.put(
        f"{emulator_url}/repos/acme/todo/contents/big.txt",
        headers={"authorization": f"token {TOKEN}"},
        json={"message": "a big file", "content": big},
        timeout=120,
    )
    put.raise_for_status()
    before, start = load(), time.perf_counter()
    expected = hostile_battery(
        front.port,
        front.settings.secret,
        front.ca_cert,
        big_target="/repos/acme/todo/contents/big.txt",
    )
    took = time.perf_counter() - start

    async def after() -> tuple[list[float], list[float]]:
        kept, new = [], []
        client = await Client.through(front, trust)
        for _ in range(50):
            begun = time.perf_counter()
            await client.get(RATE)
            kept.append((time.perf_counter() - begun) * 1000)
        client.close()
        for _ in range(50):
            begun = time.perf_counter()
            one = await Client.through(front, trust)
            await one.get(RATE)
            one.close()
            new.append((time.perf_counter() - begun) * 1000)
        return kept, new

    kept, new = uvloop.run(after())
    counts = front.status()
    print(
        f"hostile battery (load {before} -> {load()}): {sum(expected.values()):,} rows expected"
        f" in {took:.1f} s; {counts.failed_handshakes} failed handshakes, {counts.abandoned}"
        f" abandoned, {counts.unauthorized} unauthorized, {counts.client_aborts} left"
        f" mid-answer, {len(counts.warnings)} warning lines; then kept-alive p50"
        f" {pct(kept, 50):.2f} ms, worst {max(kept):.2f} ms; new connection p50"
        f" {pct(new, 50):.2f} ms, worst {max(new):.2f} ms"
    )


def measure(args: argparse.Namespace, emulator_port: int, front: Front) -> None:
    trust = ssl.create_default_context(cafile=str(front.ca_cert))
    trust.set_alpn_protocols(["http/1.1"])
    etag = uvloop.run(_etag(emulator_port))
    connect: dict[str, Connect] = {
        "direct": lambda: Client.direct(emulator_port),
        "front": lambda: Client.through(front, trust),
    }
    seconds, rounds = args.seconds, args.rounds
    if args.hostile:
        hostile(f"http://127.0.0.1:{emulator_port}", front, trust)

    def kept(clients: int) -> Callable[[str], list[float]]:
        return lambda side: uvloop.run(kept_alive(connect[side], clients, seconds, etag))

    parts: list[tuple[str, Callable[[str], list[float]], Report]] = [
        ("8 kept-alive clients", kept(8), latency_report),
        ("32 kept-alive clients", kept(32), rate_report),
        (
            "a new connection per request, one at a time",
            lambda side: uvloop.run(fresh(connect[side], 1, seconds)),
            latency_report,
        ),
        (
            "a new connection per request, 8 at a time",
            lambda side: uvloop.run(fresh(connect[side], 8, seconds)),
            rate_report,
        ),
    ]
    for label, run, report in parts:
        alternate(label, run, report, rounds=rounds, seconds=seconds, front_pid=front.pid)
    curl_runs(emulator_port, front, args.curls)
    counts = front.status()
    print(
        f"front: {counts.exchanges:,} exchanges, {counts.rows_written:,} rows written,"
        f" {counts.rows_lost} lost"
    )
    rows = counts.exchanges + counts.refused + counts.failed_handshakes
    rows += getattr(counts, "abandoned", 0)
    assert counts.rows_written == rows and not counts.rows_lost, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--curls", type=int, default=20)
    parser.add_argument("--upstream", choices=("tcp", "unix"), default="tcp")
    parser.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    parser.add_argument("--workers", type=int, default=0, help="the front's (0: one per core)")
    parser.add_argument("--libraries", action="store_true")
    parser.add_argument("--hostile", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.curls = 1, 1.0, 3
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
                **({"workers": args.workers} if args.workers else {}),
            )
        )
        try:
            print(f"{os.cpu_count()} cores, load average {load()}; upstream {args.upstream}")
            if args.libraries:
                libraries(emulator.port)
            measure(args, emulator.port, front)
        finally:
            front.stop()
            emulator.stop()


if __name__ == "__main__":
    main()
