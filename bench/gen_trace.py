"""Generate a deterministic AO-schema trace for benchmarks.

    python bench/gen_trace.py OUT.jsonl [--rows 1000000] [--seed 7]

The rows look like a long HEAD-era AO run against many sessions: mostly ETag-gated
guard calls (304s), some 200s that refill caches, GraphQL batches carrying their
query text and cost, opaque ``gh pr``/``gh issue`` rows without headers, a few
failures, and hourly rate-limit reset windows for ``core`` and ``graphql``.
About 470 bytes a row; 1,000,000 rows make about 470 MB. Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

START_EPOCH_MS = 1_776_348_000_000  # 2026-04-16T14:00:00Z
REPOS = ("acme/todo", "acme/api", "acme/web", "acme/infra")
BATCH_QUERY = (
    'query BatchPRs { pr0: repository(owner: "acme", name: "todo-app") { pullRequest'
    "(number: 12) { number state title isDraft mergeable reviewDecision headRefOid "
    "commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 20) "
    "{ nodes { __typename } } } } } } } } rateLimit { cost remaining resetAt } }"
)
THREADS_QUERY = (
    "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name)"
    "{pullRequest(number:$number){reviewThreads(first:100){nodes{isResolved comments"
    "(first:1){nodes{author{login} body}}}}}} rateLimit{cost remaining resetAt}}"
)

# (operation, component, weight)
MIX: tuple[tuple[str, str, int], ...] = (
    ("gh.api.guard-pr-list", "scm-github-batch", 20),
    ("gh.api.guard-commit-status", "scm-github-batch", 20),
    ("gh.api.guard-review-comments", "scm-github-batch", 14),
    ("gh.api.graphql-batch", "scm-github-batch", 3),
    ("gh.api.graphql", "scm-github", 5),
    ("gh.pr.list", "scm-github", 20),
    ("gh.pr.view", "scm-github", 19),
    ("gh.issue.view", "tracker-github", 3),
    ("gh.api.repos", "scm-github", 2),
)


class Budget:
    """One rate-limit bucket with hourly fixed windows."""

    def __init__(self, limit: int, first_reset_s: int) -> None:
        self.limit = limit
        self.reset_s = first_reset_s
        self.remaining = limit

    def charge(self, now_ms: int, cost: int) -> tuple[int, int]:
        while now_ms // 1000 >= self.reset_s:
            self.reset_s += 3600
            self.remaining = self.limit
        self.remaining = max(0, self.remaining - cost)
        return self.remaining, self.reset_s


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def rows(n: int, seed: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    ops = [m[:2] for m in MIX]
    weights = [m[2] for m in MIX]
    core = Budget(5000, START_EPOCH_MS // 1000 + 1800)
    graphql = Budget(5000, START_EPOCH_MS // 1000 + 2400)
    shas = [_hex(rng, 40) for _ in range(64)]
    etags = [f'"{_hex(rng, 16)}"' for _ in range(64)]
    now_ms = START_EPOCH_MS
    for _ in range(n):
        now_ms += rng.randint(5, 200)
        operation, component = rng.choices(ops, weights)[0]
        repo = rng.choice(REPOS)
        pr = rng.randint(1, 60)
        duration = round(rng.lognormvariate(6.6, 0.4), 3)
        row: dict[str, Any] = {
            "timestamp": _iso(now_ms),
            "component": component,
            "operation": operation,
        }
        if operation.startswith("gh.api."):
            _api_row(rng, row, operation, repo, pr, shas, etags, core, graphql, now_ms)
        else:
            _opaque_row(rng, row, operation, repo, pr)
        row["durationMs"] = duration
        if "ok" not in row:
            row["ok"] = True
        yield row


def _api_row(  # noqa: PLR0917
    rng: random.Random,
    row: dict[str, Any],
    operation: str,
    repo: str,
    pr: int,
    shas: list[str],
    etags: list[str],
    core: Budget,
    graphql: Budget,
    now_ms: int,
) -> None:
    if operation in ("gh.api.graphql-batch", "gh.api.graphql"):
        query = BATCH_QUERY if operation == "gh.api.graphql-batch" else THREADS_QUERY
        row["args"] = ["api", "graphql", "-f", f"query={query}", "-i"]
        row["endpoint"] = "graphql"
        row["method"] = "GET"
        cost = rng.randint(1, 3) if operation == "gh.api.graphql" else rng.randint(1, 19)
        remaining, reset_s = graphql.charge(now_ms, cost)
        _headers(row, 200, "graphql", 5000, remaining, reset_s, None)
        row["graphqlCost"] = cost
        row["graphqlRemaining"] = remaining
        row["graphqlResetAt"] = _iso(reset_s * 1000)[:-5] + "Z"
        row["stdoutBytes"] = rng.randint(2000, 40000)
        row["stderrBytes"] = 0
        return
    paths = {
        "gh.api.guard-pr-list": f"repos/{repo}/pulls?state=open&sort=updated&direction=desc"
        "&per_page=1",
        "gh.api.guard-commit-status": f"repos/{repo}/commits/{rng.choice(shas)}/check-runs"
        "?per_page=1",
        "gh.api.guard-review-comments": f"repos/{repo}/pulls/{pr}/comments",
        "gh.api.repos": f"repos/{repo}/pulls/{pr}",
    }
    endpoint = paths[operation]
    etag = rng.choice(etags)
    row["args"] = ["api", "--method", "GET", endpoint, "-i", "-H", f"If-None-Match: {etag}"]
    row["endpoint"] = endpoint
    row["method"] = "GET"
    roll = rng.random()
    status = 304 if roll < 0.86 else 200 if roll < 0.995 else rng.choice((502, 403, 404))
    remaining, reset_s = core.charge(now_ms, 0 if status == 304 else 1)
    _headers(row, status, "core", 5000, remaining, reset_s, etag)
    row["stdoutBytes"] = 412 if status == 304 else rng.randint(800, 9000)
    if status != 200:
        row["ok"] = False
        row["exitCode"] = 1
        row["stderrBytes"] = 13 if status == 304 else 60
    else:
        row["stderrBytes"] = 0


def _headers(  # noqa: PLR0917
    row: dict[str, Any],
    status: int,
    resource: str,
    limit: int,
    remaining: int,
    reset_s: int,
    etag: str | None,
) -> None:
    reasons = {200: "OK", 304: "Not Modified", 403: "Forbidden", 404: "Not Found"}
    row["statusLine"] = f"HTTP/1.1 {status} {reasons.get(status, 'Bad Gateway')}"
    row["httpStatus"] = status
    if etag is not None:
        row["etag"] = etag
    row["rateLimitLimit"] = limit
    row["rateLimitRemaining"] = remaining
    row["rateLimitReset"] = reset_s
    row["rateLimitResource"] = resource


def _opaque_row(
    rng: random.Random, row: dict[str, Any], operation: str, repo: str, pr: int
) -> None:
    if operation == "gh.pr.list":
        branch = f"feat/issue-{rng.randint(1, 400)}"
        args = ["pr", "list", "--repo", repo, "--head", branch, "--json", "number,url"]
        row["args"] = [*args, "--limit", "1"]
    elif operation == "gh.pr.view":
        row["args"] = ["pr", "view", str(pr), "--repo", repo, "--json", "state,title,url"]
    else:
        row["args"] = ["issue", "view", str(pr), "--repo", repo, "--json", "title,body,state"]
    if rng.random() < 0.3:  # only ghInDir calls carry a cwd
        row["cwd"] = f"/home/dev/wt/ta-{pr}"
    row["stdoutBytes"] = rng.randint(40, 3000)
    row["stderrBytes"] = 0
    if rng.random() < 0.01:
        row["ok"] = False
        row["exitCode"] = 1
        row["stderrBytes"] = 88


def _iso(epoch_ms: int) -> str:
    from datetime import UTC, datetime

    dt = datetime.fromtimestamp(epoch_ms // 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{epoch_ms % 1000:03d}Z"


def write_trace(path: Path, n: int, seed: int = 7) -> Path:
    """Write ``n`` rows to ``path`` (which must not exist yet) and return it."""
    encoder = msgspec.json.Encoder()
    with open(path, "xb") as fh:
        buf = bytearray()
        for row in rows(n, seed):
            encoder.encode_into(row, buf, -1)
            buf += b"\n"
            if len(buf) > 1 << 20:
                fh.write(buf)
                buf.clear()
        fh.write(buf)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="path of the trace to write (must not exist)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    ns = parser.parse_args(argv)
    if ns.out.exists():
        print(f"error: {ns.out} already exists; remove it or choose another path", file=sys.stderr)
        return 2
    write_trace(ns.out, ns.rows, ns.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
