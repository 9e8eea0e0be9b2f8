"""GraphQL throughput: AO's 25-alias ``BatchPRs`` query over loopback.

Target: >= 300 queries/s on 2 cores. Serves an in-memory emulator with uvicorn
(``EmulatorServer``) in a child process, so the clients do not share its GIL, and posts
the same batch from ``--clients`` threads, each with its own pooled httpx client. Not a
test: run it by hand, on a quiet machine:

    .venv/bin/python bench/bench_graphql.py --seconds 5 --clients 4
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import threading
import time
from pathlib import Path

import httpx

# appended: tests/emulator/graphql/ is a test package that must not hide graphql-core
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests" / "emulator"))

from graphql_queries import batch_query

from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer

TOKEN = "ghp_bench00000000000000000000000000000000"


def seeded_emulator() -> Emulator:
    emulator = Emulator(seed=1)
    emulator.set_limit("graphql", 10_000_000)
    emulator.set_secondary(enabled=False)
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    for n in range(25):
        number = emulator.create_pull("acme/todo", f"feat/{n}", title=f"PR {n}", author="octo")
        emulator.set_ci("acme/todo", "success", pr=number)
    return emulator


def serve(urls: multiprocessing.Queue[str]) -> None:
    """Child process: serve until terminated (SIGTERM from the parent)."""
    with EmulatorServer(seeded_emulator()) as server:
        urls.put(server.url)
        threading.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    query, variables = batch_query([("acme", "todo", n) for n in range(1, 26)])
    body = json.dumps({"query": query, "variables": variables}).encode()
    counts = [0] * args.clients
    urls: multiprocessing.Queue[str] = multiprocessing.Queue()
    child = multiprocessing.Process(target=serve, args=(urls,), daemon=True)
    child.start()
    try:
        url = urls.get(timeout=30)
        headers = {"Authorization": f"token {TOKEN}", "Content-Type": "application/json"}

        def worker(index: int, deadline: float) -> None:
            with httpx.Client(base_url=url, headers=headers) as client:
                while time.perf_counter() < deadline:
                    response = client.post("/graphql", content=body)
                    assert response.status_code == 200 and b'"errors"' not in response.content
                    counts[index] += 1

        with httpx.Client(base_url=url, headers=headers) as warm:
            warm.post("/graphql", content=body)  # parse/validate/plan caches
        started = time.perf_counter()
        deadline = started + args.seconds
        threads = [threading.Thread(target=worker, args=(i, deadline)) for i in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        child.terminate()  # SIGTERM, then a deadline, then SIGKILL
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
    total = sum(counts)
    print(
        f"{total} BatchPRs(25) queries in {elapsed:.2f} s: {total / elapsed:.0f}/s "
        f"({args.clients} clients, loopback)"
    )


if __name__ == "__main__":
    main()
