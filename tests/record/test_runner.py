"""``ghbench record`` over the real gh against the real emulator.

Every comparison runs the same gh command plainly and through ``ghbench record``;
the rows are checked against the emulator's ledger, the ground truth of what was
charged.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.trace.schema import TraceRow
from tools import GhBuild

pytestmark = pytest.mark.gh

DEADLINE_S = 60
# test_rows_match_the_emulator_ledger's cache hits: the second `gh api --cache`, and the
# PR feature detection gh ran before (2.23: the first merge's; 2.102: pr checks', both
# queries, for each merge)
CACHE_HITS = {
    "2.23.0": [("gh.api.repos", None), ("gh.pr.merge", "PullRequest_fields")],
    "2.102.0": [("gh.api.repos", None)]
    + [("gh.pr.merge", "PullRequest_fields"), ("gh.pr.merge", "PullRequest_fields2")] * 2,
}
SUMMARY = re.compile(rb"ghbench record: [^\n]*\n\Z")
# What differs between two runs of one command: the emulator numbers its responses
# (X-Github-Request-Id), and uvicorn stamps each with the wall clock's Date, whose
# second can tick between the plain run and the recorded one.
PER_RUN_HEADERS = re.compile(rb"(?mi)^(x-github-request-id|date): [^\r\n]*")


def run(
    argv: list[str], env: Mapping[str, str], cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        argv, env=dict(env), cwd=cwd, input=stdin, capture_output=True, timeout=DEADLINE_S
    )


def record_argv(trace: Path, *command: str, component: str | None = None) -> list[str]:
    flags = ["--component", component] if component else []
    return [
        sys.executable,
        "-m",
        "ghbench",
        "record",
        "--trace",
        str(trace),
        *flags,
        "--",
        *command,
    ]


def read_rows(path: Path) -> list[TraceRow]:
    return [msgspec.json.decode(line, type=TraceRow) for line in path.read_bytes().splitlines()]


def without_summary(stderr: bytes) -> bytes:
    """The recorded command's stderr: ghbench record adds exactly one summary line."""
    m = SUMMARY.search(stderr)
    assert m is not None, stderr
    return stderr[: m.start()]


@pytest.fixture
def env(gh_env: Mapping[str, str]) -> dict[str, str]:
    merged = {**os.environ, **gh_env}  # gh_env's TMPDIR keeps gh's disk cache per test
    for name in ("GH_DEBUG", "DEBUG", "GHBENCH_RECORD_SINKS", "GHBENCH_REAL_GH"):
        merged.pop(name, None)
    return merged


@pytest.fixture
def pulls(emulator_server: Any) -> list[int]:
    emu = emulator_server.emulator
    return [emu.create_pull("acme/todo", f"feat/record-{i}") for i in range(3)]


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    return tmp_path / "out" / "trace.jsonl"


def assert_same_as_plain(
    command: list[str], env: Mapping[str, str], trace: Path, cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    plain = run(command, env, cwd, stdin)
    recorded = run(record_argv(trace, *command), env, cwd, stdin)
    assert recorded.returncode == plain.returncode
    # `gh api -i` shows the headers: two runs differ in PER_RUN_HEADERS and only there
    assert PER_RUN_HEADERS.sub(b"", recorded.stdout) == PER_RUN_HEADERS.sub(b"", plain.stdout)
    assert without_summary(recorded.stderr) == plain.stderr
    return plain


def test_pr_view_rows_have_status_and_rate_limit(
    env: dict[str, str], pulls: list[int], trace: Path, tmp_path: Path
) -> None:
    command = ["gh", "pr", "view", str(pulls[0]), "--repo", "acme/todo", "--json", "state"]
    plain = assert_same_as_plain(command, env, trace, tmp_path)
    assert plain.returncode == 0 and b"OPEN" in plain.stdout
    rows = read_rows(trace)
    assert rows
    for i, row in enumerate(rows):
        assert row.httpStatus == 200
        assert row.operation == "gh.pr.view"
        assert row.component == "record" and row.origin == "record"
        assert row.requestIndex == i
        assert row.rateLimitResource == "graphql"
        assert row.rateLimitLimit is not None and row.rateLimitRemaining is not None
        assert row.rateLimitReset is not None
        assert row.ok is True
    assert rows[0].graphqlOperation == "PullRequestByNumber"
    assert len({r.invocationId for r in rows}) == 1


def test_404_is_identical_and_recorded_as_a_failure(
    env: dict[str, str], trace: Path, tmp_path: Path
) -> None:
    plain = assert_same_as_plain(["gh", "api", "repos/acme/todo/pulls/9999"], env, trace, tmp_path)
    assert plain.returncode == 1 and b"HTTP 404" in plain.stderr
    [row] = read_rows(trace)
    assert (row.httpStatus, row.ok, row.exitCode, row.endpoint, row.method) == (
        404,
        False,
        1,
        "repos/acme/todo/pulls/9999",
        "GET",
    )


@pytest.mark.slow
def test_api_include_304_is_identical(
    env: dict[str, str], pulls: list[int], trace: Path, tmp_path: Path
) -> None:
    endpoint = f"repos/acme/todo/pulls/{pulls[0]}"
    # the first read starts GitHub's mergeability job (mergeable: null), the next has it
    run(["gh", "api", endpoint], env, tmp_path)
    first = run(["gh", "api", "-i", endpoint], env, tmp_path)
    etag = re.search(rb"(?im)^etag: (.+?)\r?$", first.stdout)
    assert etag is not None
    command = ["gh", "api", "-i", "-H", f"If-None-Match: {etag.group(1).decode()}", endpoint]
    plain = assert_same_as_plain(command, env, trace, tmp_path)
    assert plain.returncode == 1 and plain.stdout.startswith(b"HTTP/1.1 304")
    [row] = read_rows(trace)
    assert (row.httpStatus, row.ok, row.exitCode) == (304, False, 1)
    assert row.etag is not None and row.rateLimitResource == "core"


@pytest.mark.parametrize(
    "command",
    [
        "gh pr view 999 --repo acme/todo",  # a GraphQL error
        "gh issue view abc --repo acme/todo",  # a usage error, no request
        "gh api graphql -f query='{{ bogus }}'",
        "gh pr checks {pr} --repo acme/todo",
        "gh pr view --json number,state",  # in a git checkout: gh echoes its git calls
    ],
)
def test_more_commands_are_identical(
    env: dict[str, str], pulls: list[int], trace: Path, tmp_path: Path, command: str
) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    git = "git init -q -b feat/record-0 && git remote add origin https://github.localhost/acme/todo.git"
    subprocess.run(["sh", "-c", git], cwd=checkout, env=env, check=True, timeout=DEADLINE_S)
    assert_same_as_plain(["sh", "-c", command.format(pr=pulls[0])], env, trace, checkout)


def test_stdin_reaches_gh(env: dict[str, str], trace: Path, tmp_path: Path) -> None:
    body = json.dumps({"query": "query Who { viewer { login } }"}).encode()
    assert_same_as_plain(["gh", "api", "graphql", "--input", "-"], env, trace, tmp_path, body)
    [row] = read_rows(trace)
    assert (row.graphqlOperation, row.method, row.httpStatus) == ("Who", "POST", 200)


@pytest.mark.slow
def test_nested_commands_are_all_captured(
    env: dict[str, str], pulls: list[int], trace: Path, tmp_path: Path
) -> None:
    script = (
        "gh api repos/acme/todo >/dev/null; "
        f'sh -c "gh pr view {pulls[1]} --repo acme/todo --json state >/dev/null"; '
        "echo done"
    )
    proc = run(record_argv(trace, "bash", "-c", script, component="agents"), env, tmp_path)
    assert proc.returncode == 0 and proc.stdout == b"done\n"
    rows = read_rows(trace)
    assert {r.operation for r in rows} == {"gh.api.repos", "gh.pr.view"}
    assert len({r.invocationId for r in rows}) == 2
    assert {r.component for r in rows} == {"agents"}


def test_a_command_that_trims_its_environment_is_still_traced(
    env: dict[str, str], trace: Path, tmp_path: Path
) -> None:
    script = "env -u GHBENCH_RECORD_SINKS -u GHBENCH_REAL_GH gh api repos/acme/todo --jq .name"
    proc = run(record_argv(trace, "sh", "-c", script), env, tmp_path)
    assert proc.returncode == 0 and proc.stdout == b"todo\n"
    assert [r.operation for r in read_rows(trace)] == ["gh.api.repos"]


@pytest.mark.slow
def test_a_nested_record_writes_to_both_traces(
    env: dict[str, str], trace: Path, tmp_path: Path
) -> None:
    inner = tmp_path / "inner.jsonl"
    command = ["gh", "api", "repos/acme/todo", "--jq", ".name"]
    nested = record_argv(inner, *command, component="inner")
    proc = run(record_argv(trace, *nested), env, tmp_path)
    assert proc.returncode == 0 and proc.stdout == b"todo\n"
    [outer_row], [inner_row] = read_rows(trace), read_rows(inner)
    assert (outer_row.component, inner_row.component) == ("record", "inner")
    assert outer_row.invocationId == inner_row.invocationId


def test_a_stale_outer_sink_is_ignored(env: dict[str, str], trace: Path, tmp_path: Path) -> None:
    stale = tmp_path / "stale.jsonl"
    env = {**env, "GHBENCH_RECORD_SINKS": json.dumps([[str(stale), "old", str(tmp_path / "gone")]])}
    proc = run(record_argv(trace, "gh", "api", "repos/acme/todo", "--jq", ".name"), env, tmp_path)
    assert proc.returncode == 0
    assert len(read_rows(trace)) == 1
    assert not stale.exists()


def _remaining(env: Mapping[str, str], cwd: Path) -> dict[str, int]:
    """Remaining points per resource, from gh itself (rate_limit costs nothing)."""
    proc = run(["gh", "api", "rate_limit"], env, cwd)
    assert proc.returncode == 0, proc.stderr
    resources = json.loads(proc.stdout)["resources"]
    return {name: int(bucket["remaining"]) for name, bucket in resources.items()}


@pytest.mark.slow
def test_rows_match_the_emulator_ledger(
    emulator_server: Any,
    env: dict[str, str],
    pulls: list[int],
    trace: Path,
    tmp_path: Path,
    *,
    gh_build: GhBuild,
) -> None:
    emu = emulator_server.emulator
    before = _remaining(env, tmp_path)
    charged_before = len(emu.ledger_entries())
    query = "query Budget { rateLimit { cost remaining resetAt } viewer { login } }"
    script = "; ".join(
        [
            f"gh pr view {pulls[0]} --repo acme/todo --json state,title",
            f"gh issue view {pulls[0]} --repo acme/todo --json title || true",
            "gh pr list --repo acme/todo --json number",
            "gh api 'repos/acme/todo/pulls?per_page=1' --paginate --jq '.[].number'",
            "gh api repos/acme/todo/pulls/9999 || true",
            f"gh api graphql -f query='{query}'",
            "gh api repos/acme/todo --cache 1h",
            "gh api repos/acme/todo --cache 1h",
            f"gh pr checks {pulls[0]} --repo acme/todo || true",
            f"gh pr merge {pulls[1]} --repo acme/todo --squash",
            f"gh pr merge {pulls[2]} --repo acme/todo --squash",
        ]
    )
    proc = run(record_argv(trace, "sh", "-c", script), env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    ledger = emu.ledger_entries()[charged_before:]
    rows = read_rows(trace)
    # gh's disk cache answered the second --cache call and the feature detection it
    # had done before: rows marked, nothing charged (the ledger checks below). Now and
    # then gh 2.102 (which sends its two feature queries side by side) finds one of them
    # missing from what an earlier command cached, and the first merge sends it again,
    # charged like any other; the last merge finds both.
    hits = Counter((r.operation, r.graphqlOperation or "") for r in rows if r.cacheHit)
    expected = Counter((op, q or "") for op, q in CACHE_HITS[gh_build.version])
    assert hits <= expected and hits[("gh.api.repos", "")] == 1
    merges = [r.invocationId for r in rows if r.operation == "gh.pr.merge"]
    last = [r for r in rows if r.invocationId == merges[-1] and r.cacheHit]
    features = {q for op, q in expected if op == "gh.pr.merge"}
    assert {r.graphqlOperation for r in last} == features
    assert any(r.graphqlCost is not None for r in rows)
    resources = {e.resource for e in ledger}
    assert resources >= {"core", "graphql"}
    for resource in resources:
        costs = [e.cost for e in ledger if e.resource == resource]
        charged = [
            r for r in rows if r.rateLimitResource == resource and r.httpStatus not in (304, None)
        ]
        assert len(charged) == len(costs), resource
        # each row shows the bucket right after its own charge (requests gh sends side by
        # side, gh 2.102's two feature queries, reach the ledger in either order)
        running = before[resource]
        after_charge: dict[int, int] = {}
        for cost in costs:
            running -= cost
            after_charge[running] = cost
        seen = sorted((r.rateLimitRemaining or 0 for r in charged), reverse=True)
        assert seen == list(after_charge), resource
        for row in charged:
            if row.graphqlCost is not None:
                assert row.graphqlCost == after_charge[row.rateLimitRemaining or 0]
        assert before[resource] - running == sum(costs)


@pytest.mark.slow
def test_the_token_is_never_written(
    emulator_server: Any, env: dict[str, str], trace: Path, tmp_path: Path
) -> None:
    token = emulator_server.token
    script = (
        f"gh api -H 'Authorization: token {token}' repos/acme/todo >/dev/null; "
        f"gh api 'repos/acme/todo?access_token={token}' >/dev/null; "
        f"gh api repos/acme/todo -f note={token} -X GET >/dev/null || true"
    )
    proc = run(record_argv(trace, "sh", "-c", script), env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = trace.read_bytes()
    assert len(data.splitlines()) == 3
    assert token.encode() not in data
    assert token.encode() not in proc.stderr


@pytest.mark.slow
def test_an_unwritable_trace_warns_once_the_command_carries_on_and_record_fails(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A trace that fails only when written (a full device): the command is served, and
    record's exit says the trace is incomplete. One that cannot be a trace at all (under
    a file, into a binary) is refused before the command runs
    (tests/harness/test_bad_input.py)."""
    trace = Path("/dev/full")
    script = "gh api repos/acme/todo --jq .full_name; gh api repos/acme/todo --jq .full_name"
    proc = run(record_argv(trace, "sh", "-c", script), env, tmp_path)
    assert proc.stdout == b"acme/todo\nacme/todo\n"
    assert proc.stderr.count(b"cannot write trace") == 1
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == (
        b"error: trace rows could not be written to /dev/full: the trace is incomplete;"
        b" free space (or choose another --trace) and record again"
    )


@pytest.mark.parametrize(
    ("debug_env", "refused"),
    [
        ({"GH_DEBUG": "api"}, False),
        ({"GH_DEBUG": "1"}, False),
        ({"GH_DEBUG": "1"}, True),  # a transport error line is part of GH_DEBUG=1
        ({"DEBUG": "api"}, False),  # the legacy variable, read when GH_DEBUG is unset
    ],
)
@pytest.mark.slow
def test_the_users_own_gh_debug_still_reaches_them(
    env: dict[str, str], trace: Path, tmp_path: Path, debug_env: dict[str, str], refused: bool
) -> None:
    shows_headers = "api" in debug_env.values()
    env = {**env, **debug_env}
    if refused:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            closed = f"http://127.0.0.1:{sock.getsockname()[1]}"
        env |= {"HTTP_PROXY": closed, "HTTPS_PROXY": closed, "http_proxy": closed}
    command = ["gh", "api", "repos/acme/todo", "--jq", ".full_name"]
    plain = run(command, env, tmp_path)
    recorded = run(record_argv(trace, *command), env, tmp_path)
    assert recorded.returncode == plain.returncode == (1 if refused else 0)
    assert recorded.stdout == plain.stdout == (b"" if refused else b"acme/todo\n")

    def normal(stderr: bytes) -> bytes:
        # times, durations and per-request counters differ between two runs (the Date
        # header is uvicorn's wall clock: its second can tick between the two runs)
        stderr = re.sub(rb"(?m)^(\* Request (?:at|took)) .*$", rb"\1 T", stderr)
        return re.sub(
            rb"(?mi)^(< (?:date|x-github-request-id|x-ratelimit-remaining|x-ratelimit-used):) .*$",
            rb"\1 V",
            stderr,
        )

    assert normal(without_summary(recorded.stderr)) == normal(plain.stderr)
    assert plain.stderr.count(b"* Request took") == 1
    assert (b"> GET /repos/acme/todo HTTP/1.1" in plain.stderr) is shows_headers
    assert len(read_rows(trace)) == 1


@pytest.mark.slow
def test_default_trace_is_a_new_file_under_ghbench_out(env: dict[str, str], tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "ghbench", "record", "--", "gh", "api", "repos/acme/todo"]
    first = run(argv, env, tmp_path)
    second = run(argv, env, tmp_path)
    assert first.returncode == second.returncode == 0
    traces = sorted((tmp_path / "ghbench-out").glob("gh-trace-record-*.jsonl"))
    assert len(traces) == 2
    assert all(len(read_rows(t)) == 1 for t in traces)
    assert b"1 row appended to ghbench-out/gh-trace-record-" in first.stderr
