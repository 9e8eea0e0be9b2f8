"""Write ghbench's example trace: ``src/ghbench/data/example-trace.jsonl``.

    .venv/bin/python scripts/make_example_trace.py [OUT] [--seed 16]

A small, deterministic AO-shaped run: 5 sessions with open PRs on one repo, polled
every 30 s from 14:15:00Z for 17 minutes (2 minutes of warmup, then a 15-minute
window ending 14:32:00Z). It covers what a scorecard has to handle:
- ETag guards: ``gh.api.guard-pr-list`` (mostly 304, ``ok: false``, exit 1, as AO
  records them), ``guard-commit-status`` and ``guard-review-comments``;
- ``gh.api.graphql-batch`` rows with ``graphqlCost`` after a guard sees a change, and
  review-thread ``gh.api.graphql`` queries;
- opaque ``gh.pr.view`` / ``gh.pr.list`` rows (no status; their GraphQL points show up
  only in later rows' ``remaining``);
- a core reset at 14:24:13Z, so the window straddles two core reset windows;
- points spent by a consumer that leaves no row (an agent's own ``gh``), which
  ``insights`` reports as unattributed;
- two ``benchmark-control`` rows, which every metric excludes.
Same seed, same bytes. The file is committed; rerun this only to change it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import msgspec

from ghbench.timefmt import iso_ms, parse_iso
from ghbench.trace.schema import TraceRow

REPO = "acme/todo-app"
SESSIONS = 5
TICK_S = 30
START = parse_iso("2026-04-16T14:15:00Z")
TICKS = 34  # 17 minutes
CORE_RESETS = (parse_iso("2026-04-16T14:24:13Z"), parse_iso("2026-04-16T15:24:13Z"))
GRAPHQL_RESET = parse_iso("2026-04-16T15:02:00Z")
LIMIT = 5000
NEWLINE = b"\n"
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src/ghbench/data/example-trace.jsonl"


class Buckets:
    """The two budgets, charged in completion order, with core refilling at its reset."""

    def __init__(self) -> None:
        self.core = 4_812
        self.core_reset = CORE_RESETS[0]
        self.graphql = 4_406
        self.now = START

    def charge(self, when: float, core: int = 0, graphql: int = 0) -> None:
        if when >= self.core_reset:
            self.core, self.core_reset = LIMIT, CORE_RESETS[1]
        self.core = max(0, self.core - core)
        self.graphql = max(0, self.graphql - graphql)


def _headers(b: Buckets, resource: str) -> dict[str, Any]:
    remaining, reset = (b.core, b.core_reset) if resource == "core" else (b.graphql, GRAPHQL_RESET)
    return {
        "rateLimitLimit": LIMIT,
        "rateLimitRemaining": remaining,
        "rateLimitReset": int(reset),
        "rateLimitResource": resource,
    }


def _rest(
    rng: random.Random, b: Buckets, when: float, *, operation: str, endpoint: str, changed: bool
) -> TraceRow:
    status = 200 if changed else 304
    b.charge(when, core=1 if changed else 0)
    etag = f'W/"{rng.getrandbits(64):016x}"'
    return TraceRow(
        timestamp=iso_ms(when),
        component="scm-github-batch" if operation.startswith("gh.api.guard") else "scm-github",
        operation=operation,
        args=["api", "--method", "GET", endpoint, "-i", "-H", f"If-None-Match: {etag}"],
        endpoint=endpoint,
        method="GET",
        ok=changed,
        exitCode=None if changed else 1,
        durationMs=float(rng.randint(380, 1_100)),
        stdoutBytes=rng.randint(900, 6_000) if changed else 412,
        stderrBytes=0 if changed else 13,
        statusLine="HTTP/2.0 200 OK" if changed else "HTTP/2.0 304 Not Modified",
        httpStatus=status,
        etag=etag,
        **_headers(b, "core"),
    )


def _graphql(rng: random.Random, b: Buckets, when: float, operation: str, cost: int) -> TraceRow:
    b.charge(when, graphql=cost)
    query = 'query BatchPRs { pr0: repository(owner: "acme", name: "todo-app") { ... } }'
    return TraceRow(
        timestamp=iso_ms(when),
        component="scm-github-batch" if operation.endswith("batch") else "scm-github",
        operation=operation,
        args=["api", "graphql", "-i", "-f", f"query={query}"],
        endpoint="graphql",
        method="GET",
        ok=True,
        durationMs=float(rng.randint(900, 2_400)),
        stdoutBytes=rng.randint(4_000, 30_000),
        stderrBytes=0,
        statusLine="HTTP/2.0 200 OK",
        httpStatus=200,
        graphqlCost=cost,
        graphqlRemaining=b.graphql,
        graphqlResetAt=iso_ms(GRAPHQL_RESET).replace(".000Z", "Z"),
        **_headers(b, "graphql"),
    )


def _opaque(rng: random.Random, b: Buckets, when: float, operation: str, pr: int) -> TraceRow:
    b.charge(when, graphql=1)  # gh pr subcommands are GraphQL-backed, invisible here
    verb = operation.rsplit(".", maxsplit=1)[-1]
    args = ["pr", verb, str(pr), "--repo", REPO, "--json", "state"]
    if verb == "list":
        args = ["pr", "list", "--repo", REPO, "--head", f"feat/issue-{pr}", "--limit", "1"]
    return TraceRow(
        timestamp=iso_ms(when),
        component="scm-github",
        operation=operation,
        args=args,
        ok=True,
        durationMs=float(rng.randint(600, 1_500)),
        stdoutBytes=rng.randint(30, 400),
        stderrBytes=0,
    )


def _control(when: float) -> TraceRow:
    return TraceRow(
        timestamp=iso_ms(when),
        component="benchmark-control",
        operation="gh.api.rate_limit",
        args=["api", "rate_limit"],
        endpoint="rate_limit",
        method="GET",
        ok=True,
        durationMs=210.0,
    )


def rows(seed: int) -> list[TraceRow]:
    rng = random.Random(seed)
    b = Buckets()
    out: list[TraceRow] = []
    prs = list(range(41, 41 + SESSIONS))
    head_sha = {pr: f"{rng.getrandbits(160):040x}" for pr in prs}
    pulls = f"repos/{REPO}/pulls?state=open&sort=updated&direction=desc&per_page=1"
    for tick in range(TICKS):
        t = START + tick * TICK_S + rng.uniform(0.4, 1.5)
        changed = tick == 0 or rng.random() < 0.12
        out.append(
            _rest(rng, b, t, operation="gh.api.guard-pr-list", endpoint=pulls, changed=changed)
        )
        if changed:
            t += rng.uniform(1.0, 2.5)
            out.append(_graphql(rng, b, t, "gh.api.graphql-batch", rng.randint(1, 3)))
            if tick < 4:  # cold caches: PR state by number until the batch has it
                for pr in prs[:2]:
                    t += rng.uniform(0.6, 1.4)
                    out.append(_opaque(rng, b, t, "gh.pr.view", pr))
        else:
            for pr in prs:
                t += rng.uniform(0.3, 0.9)
                status = f"repos/{REPO}/commits/{head_sha[pr]}/check-runs?per_page=1"
                out.append(
                    _rest(
                        rng,
                        b,
                        t,
                        operation="gh.api.guard-commit-status",
                        endpoint=status,
                        changed=rng.random() < 0.04,
                    )
                )
        pr = prs[tick % SESSIONS]
        if tick % 4 == 0:  # review comments at most once per 2 minutes per PR
            t += rng.uniform(0.3, 0.8)
            fresh = rng.random() < 0.2
            comments = f"repos/{REPO}/pulls/{pr}/comments"
            out.append(
                _rest(
                    rng,
                    b,
                    t,
                    operation="gh.api.guard-review-comments",
                    endpoint=comments,
                    changed=fresh,
                )
            )
            if fresh:
                t += rng.uniform(0.8, 1.6)
                out.append(_graphql(rng, b, t, "gh.api.graphql", 1))
        if tick % 6 == 3:
            t += rng.uniform(0.5, 1.0)
            out.append(_opaque(rng, b, t, "gh.pr.list", pr))
        if tick % 5 == 2:  # an agent's own gh: spends points, leaves no row
            b.charge(t + 0.2, graphql=rng.randint(2, 6), core=1)
        if tick in (4, 30):  # the harness's /rate_limit snapshots, excluded from all math
            out.append(_control(START + tick * TICK_S + 0.05))
    out.sort(key=lambda r: r.timestamp)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=16)
    ns = parser.parse_args(argv)
    encoder = msgspec.json.Encoder()
    data = b"".join(encoder.encode(r) + b"\n" for r in rows(ns.seed))
    ns.out.write_bytes(data)
    print(f"wrote {ns.out} ({data.count(NEWLINE)} rows)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
