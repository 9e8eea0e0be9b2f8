"""Emulator throughput and latency (not a test: figures go to docs/performance.md).

    .venv/bin/python bench/bench_emulator.py [--quick]

1. in-process ``Emulator.handle``: the 304 path and the 200 path (requests/s);
2. over loopback, server in its own process (uvicorn), pooled httpx clients:
   conditional GETs answered 304 (requests/s);
3. 50 concurrent clients (2 processes x 25 threads), paced and back to back: p50/p99;
4. 25-alias GraphQL batches (AO's BatchPRs shape) per second;
5. fairness (issue 12 case 7): one client's cheap ``GET /rate_limit`` every 10 ms,
   alone and while hostile clients (another user) send, back to back, a 20,000-alias
   query (~480 KB), 200 introspections in one query, 100,000 fields, and 50,000
   directives: p50/p99/max of the cheap requests, and what the hostile ones got.
Clients run in spawned processes so the client side is not one GIL.
The machine is shared, so run it when nothing else is busy and report the spread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ghbench.clock import VirtualClock
from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.emulator.process import start_emulator_process

TOKEN = "ghp_bench000000000000000000000000000000000"
HOSTILE_TOKEN = "ghp_hostile00000000000000000000000000000000"
GUARD = "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1"
AUTH = {"Authorization": f"token {TOKEN}"}


def batch_query(numbers: list[int]) -> str:
    fields = (
        "number state isDraft mergeable headRefOid updatedAt reviewDecision "
        "commits(last: 1) { nodes { commit { statusCheckRollup { state } } } }"
    )
    aliases = " ".join(
        f"pr{i}: pullRequest(number: {n}) {{ {fields} }}" for i, n in enumerate(numbers)
    )
    repo = f'repository(owner: "acme", name: "todo") {{ {aliases} }}'
    return f"query BatchPRs {{ {repo} rateLimit {{ cost remaining }} }}"


def in_process(n: int) -> None:
    emulator = Emulator(clock=VirtualClock(), seed=1)
    emulator.create_user("octo", [TOKEN])
    emulator.seed({"repos": [{"name": "acme/todo", "issues": 30, "pulls": 30, "ci": "success"}]})
    emulator.set_limit("core", 10**9)
    emulator.set_secondary(enabled=False)
    first = emulator.handle(EmuRequest("GET", GUARD, headers=AUTH))
    conditional = dict(AUTH, **{"If-None-Match": first.headers["etag"]})
    for label, headers in (("304 path", conditional), ("200 path", AUTH)):
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            emulator.handle(EmuRequest("GET", GUARD, headers=headers))
        elapsed = time.perf_counter() - start
        # CPU time per request too: on a shared machine it moves far less than wall time
        used = (time.process_time() - cpu) / n * 1e6
        print(
            f"in-process {label}: {n / elapsed:,.0f} req/s ({elapsed / n * 1e6:.0f} µs each, "
            f"{used:.0f} µs of CPU)"
        )


def _client_proc(args: tuple[str, int, int, float, str | None, str | None]) -> list[float]:
    """One client process: ``threads`` pooled httpx clients, each sending ``per_thread``
    requests ``interval`` s apart (0: back to back). Returns the latencies in seconds."""
    url, threads, per_thread, interval, etag, query = args
    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads)

    def work() -> None:
        headers = dict(AUTH)
        if etag:
            headers["If-None-Match"] = etag
        mine = []
        with httpx.Client(base_url=url, headers=headers) as client:
            barrier.wait()
            next_at = time.perf_counter()
            for _ in range(per_thread):
                if interval:
                    next_at += interval
                start = time.perf_counter()
                if query is None:
                    r = client.get(GUARD)
                    assert r.status_code == 304, r.status_code
                else:
                    r = client.post("/graphql", json={"query": query})
                    assert r.status_code == 200 and b'"errors"' not in r.content, r.text[:300]
                mine.append(time.perf_counter() - start)
                if interval:
                    time.sleep(max(0.0, next_at - time.perf_counter()))
        with lock:
            latencies.extend(mine)

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies


def _run_clients(
    url: str,
    processes: int,
    threads: int,
    per_thread: int,
    interval: float,
    *,
    etag: str | None = None,
    query: str | None = None,
) -> tuple[float, list[float]]:
    """(requests/s, sorted latencies) for ``processes`` x ``threads`` concurrent clients."""
    import multiprocessing

    jobs = [(url, threads, per_thread, interval, etag, query)] * processes
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        pool.apply(time.sleep, (0,))  # start the workers before timing
        start = time.perf_counter()
        results = pool.map(_client_proc, jobs)
        elapsed = time.perf_counter() - start
    latencies = sorted(x for r in results for x in r)
    return len(latencies) / elapsed, latencies


def _pct(latencies: list[float], q: float) -> float:
    return latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000


def over_loopback(n: int, tmp: Path) -> None:
    config = tmp / "bench.yaml"
    config.write_text(
        "limits: {core: [100000000, 3600], graphql: [100000000, 3600]}\n"
        "secondary: {enabled: false}\n"
    )
    with start_emulator_process(None, tokens=[TOKEN], repos=["acme/todo"], config=config) as proc:
        url = proc.url
        with httpx.Client(base_url=url, headers=AUTH) as c:
            c.post(
                "/_ghbench/seed",
                json={"repos": [{"name": "acme/todo", "pulls": 25, "ci": "success"}]},
                headers={CONTROL_KEY_HEADER: proc.control_key},
            )
            etag = c.get(GUARD).headers["etag"]
            numbers = [p["number"] for p in c.get("/repos/acme/todo/pulls?per_page=25").json()]
        rates = [_run_clients(url, 2, 4, n // 8, 0.0, etag=etag)[0] for _ in range(3)]
        print(
            f"loopback 304 conditional GETs, 2 processes x 4 pooled clients, back to back: "
            f"{statistics.median(rates):,.0f} req/s (runs: {', '.join(f'{r:,.0f}' for r in rates)})"
        )
        for interval in (0.1, 0.05, 0.0):
            rate, lat = _run_clients(url, 2, 25, max(20, n // 100), interval, etag=etag)
            label = f"each every {interval * 1000:.0f} ms" if interval else "back to back"
            print(
                f"loopback 50 concurrent clients ({label}): {rate:,.0f} req/s, "
                f"p50 {_pct(lat, 0.5):.1f} ms, p99 {_pct(lat, 0.99):.1f} ms"
            )
        query = batch_query(numbers[:25])
        rate, lat = _run_clients(url, 2, 2, max(50, n // 40), 0.0, query=query)
        print(
            f"loopback 25-alias GraphQL batches, 4 clients: {rate:,.0f} batches/s, "
            f"p50 {_pct(lat, 0.5):.1f} ms"
        )


# -- 5. fairness ------------------------------------------------------------------------
_INTROSPECTION = (
    "__schema { types { name kind fields(includeDeprecated: true) { name "
    "args { name type { name kind ofType { name } } } type { name kind ofType { name kind } } } } }"
)
HOSTILE = {
    "20,000 aliases": lambda: (
        "query { " + " ".join(f"a{i}: viewer {{ login }}" for i in range(20_000)) + " }"
    ),
    "200 introspections": lambda: (
        "query { " + " ".join(f"s{i}: {_INTROSPECTION}" for i in range(200)) + " }"
    ),
    "100,000 fields": lambda: "query { viewer { " + "login " * 100_000 + "} }",
    "50,000 directives": lambda: "query { viewer " + "@include(if: true) " * 50_000 + "{ login } }",
}


def _cheap_proc(args: tuple[str, float, float]) -> list[float]:
    """``GET /rate_limit`` every ``interval`` s for ``duration`` s; the latencies."""
    url, duration, interval = args
    latencies = []
    with httpx.Client(base_url=url, headers=AUTH, timeout=60) as client:
        client.get("/rate_limit")  # the connection, before timing
        end = time.perf_counter() + duration
        next_at = time.perf_counter()
        while time.perf_counter() < end:
            start = time.perf_counter()
            assert client.get("/rate_limit").status_code == 200
            latencies.append(time.perf_counter() - start)
            next_at += interval
            time.sleep(max(0.0, next_at - time.perf_counter()))
    return latencies


def _hostile_proc(args: tuple[str, str, float]) -> list[tuple[int, str, float]]:
    """Send the hostile query ``name`` back to back for ``duration`` s."""
    url, name, duration = args
    body = json.dumps({"query": HOSTILE[name]()})
    headers = {"Authorization": f"token {HOSTILE_TOKEN}", "content-type": "application/json"}
    out = []
    with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
        end = time.perf_counter() + duration
        while time.perf_counter() < end:
            start = time.perf_counter()
            r = client.post("/graphql", content=body)
            first = (r.json().get("errors") or [{}])[0].get("message", "data")[:40]
            out.append((r.status_code, first, time.perf_counter() - start))
    return out


def fairness(tmp: Path, duration: float) -> None:
    import multiprocessing

    config = tmp / "fair.yaml"
    config.write_text(
        "limits: {core: [100000000, 3600], graphql: [100000000, 3600]}\n"
        "secondary: {enabled: false}\n"
        f"users: {{hostile: [{HOSTILE_TOKEN}]}}\n"
    )
    scenarios: list[tuple[str, list[str]]] = [("alone", [])]
    scenarios += [(f"2 clients sending {name}", [name, name]) for name in HOSTILE]
    scenarios.append(("4 clients, one of each", list(HOSTILE)))
    with start_emulator_process(None, tokens=[TOKEN], repos=["acme/todo"], config=config) as proc:
        ctx = multiprocessing.get_context("spawn")
        for label, hostile in scenarios:
            with ctx.Pool(1 + len(hostile)) as pool:
                pool.map(time.sleep, [0] * (1 + len(hostile)))  # workers up before timing
                attacks = [
                    pool.apply_async(_hostile_proc, ((proc.url, name, duration + 2),))
                    for name in hostile
                ]
                if hostile:
                    time.sleep(1.0)  # the attack under way before the cheap client starts
                cheap = sorted(pool.apply(_cheap_proc, ((proc.url, duration, 0.01),)))
                answers = [a for attack in attacks for a in attack.get()]
            got = sorted({(status, first) for status, first, _ in answers})
            took = max((t for _, _, t in answers), default=0.0)
            print(
                f"fairness, {label}: cheap GET /rate_limit x{len(cheap)}: p50 "
                f"{_pct(cheap, 0.5):.1f} ms, p99 {_pct(cheap, 0.99):.1f} ms, max "
                f"{cheap[-1] * 1000:.1f} ms"
                + (f"; hostile x{len(answers)} (longest {took:.2f} s): {got}" if hostile else ""),
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (a smoke run)")
    parser.add_argument("--fairness", action="store_true", help="only the fairness runs (5)")
    args = parser.parse_args()
    n = 2000 if args.quick else 10000
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        if not args.fairness:
            in_process(n)
            over_loopback(n, Path(tmp))
        fairness(Path(tmp), 5.0 if args.quick else 15.0)


if __name__ == "__main__":
    main()
