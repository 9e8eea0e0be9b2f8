"""build_row fills rows as AO does; TraceWriter appends safely and never raises."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import msgspec
import pytest

from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceWriter, build_row, scrub_text

T0 = parse_iso("2026-04-16T14:17:01.000Z")
HEAD_304 = 'HTTP/1.1 304 Not Modified\r\nEtag: W/"e1"\r\nX-Ratelimit-Limit: 5000\r\n'
HEAD_304 += "X-Ratelimit-Remaining: 4990\r\nX-Ratelimit-Reset: 1776350400\r\n"
HEAD_304 += "X-Ratelimit-Resource: core\r\n\r\n"


def _guard_row(**kw: object) -> TraceRow:
    args = ["api", "--method", "GET", "repos/acme/todo/pulls?state=open&per_page=1", "-i"]
    base: dict[str, object] = dict(
        args=args,
        started_at=T0,
        finished_at=T0 + 0.7466,
        exit_code=1,
        signal=None,
        stdout=HEAD_304,
        stderr="gh: HTTP 304\n",
        component="scm-github-batch",
        operation="gh.api.guard-pr-list",
    )
    base.update(kw)
    return build_row(**base)  # type: ignore[arg-type]


def test_build_row_for_a_304_guard_call() -> None:
    row = _guard_row()
    assert row.timestamp == "2026-04-16T14:17:01.747Z"
    assert row.operation == "gh.api.guard-pr-list"
    assert row.endpoint == "repos/acme/todo/pulls?state=open&per_page=1"
    assert row.method == "GET"
    assert row.ok is False
    assert row.exitCode == 1
    assert row.signal is None
    assert row.durationMs == pytest.approx(746.6)
    assert row.stdoutBytes == len(HEAD_304)
    assert row.stderrBytes == 13
    assert row.statusLine == "HTTP/1.1 304 Not Modified"
    assert (row.httpStatus, row.etag) == (304, 'W/"e1"')
    assert (row.rateLimitLimit, row.rateLimitRemaining, row.rateLimitReset) == (
        5000,
        4990,
        1776350400,
    )
    assert row.rateLimitResource == "core"
    assert row.graphqlCost is None


def test_success_omits_exit_code_and_undefined_fields() -> None:
    row = _guard_row(exit_code=0, stdout="[]", args=["pr", "list", "--repo", "a/b"], operation=None)
    assert row.ok is True
    assert row.exitCode is None
    assert row.operation == "gh.pr.list"
    assert row.endpoint is None and row.method is None and row.httpStatus is None
    encoded = msgspec.json.decode(msgspec.json.encode(row))
    assert "exitCode" not in encoded and "endpoint" not in encoded and "cwd" not in encoded


def test_signal_is_recorded_on_failure() -> None:
    row = _guard_row(exit_code=None, signal="SIGTERM")
    assert row.ok is False and row.signal == "SIGTERM" and row.exitCode is None


def test_graphql_cost_from_body_and_get_method() -> None:
    body = '{"data":{"rateLimit":{"cost":17,"remaining":4800,"resetAt":"2026-04-16T15:00:00Z"}}}'
    stdout = "HTTP/1.1 200 OK\r\nX-Ratelimit-Resource: graphql\r\n\r\n" + body
    row = _guard_row(
        args=["api", "graphql", "-f", "query=query { rateLimit { cost } }", "-i"],
        exit_code=0,
        stdout=stdout,
        operation="gh.api.graphql-batch",
    )
    assert row.method == "GET"
    assert row.endpoint == "graphql"
    assert (row.graphqlCost, row.graphqlRemaining, row.graphqlResetAt) == (
        17,
        4800,
        "2026-04-16T15:00:00Z",
    )
    assert row.rateLimitResource == "graphql"


def test_no_token_reaches_any_field() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2"
    row = _guard_row(
        args=["api", "--header=Authorization: token " + token, "-f", "token=" + token, "user"],
        cwd="/tmp/" + token,
        stdout="HTTP/1.1 200 OK\r\nEtag: " + token + "\r\n\r\n{}",
        secrets=["s3cret-value"],
        project_id="s3cret-value",
    )
    text = msgspec.json.encode(row).decode()
    assert token not in text
    assert "s3cret-value" not in text
    assert "[REDACTED]" in text


def test_scrub_text_keeps_plain_text() -> None:
    assert scrub_text("repos/acme/todo/pulls") == "repos/acme/todo/pulls"
    assert scrub_text("Authorization: token abc") == "Authorization: [REDACTED]"


def test_writer_appends_and_never_truncates(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"timestamp":"2026-04-16T14:00:00Z"}\n')
    with TraceWriter(path) as w:
        assert w.write(_guard_row())
        assert w.write(_guard_row(exit_code=0))
    lines = path.read_bytes().splitlines()
    assert len(lines) == 3
    assert lines[0] == b'{"timestamp":"2026-04-16T14:00:00Z"}'
    assert msgspec.json.decode(lines[1], type=TraceRow).httpStatus == 304


def _write_many(path: str, tag: str) -> None:
    with TraceWriter(path) as w:
        for i in range(300):
            w.write(_guard_row(operation=f"{tag}-{i}", cwd="x" * 3000))


def test_concurrent_writers_do_not_interleave(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_write_many, args=(str(path), t)) for t in ("a", "b", "c")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    lines = path.read_bytes().splitlines()
    assert len(lines) == 900
    ops = {msgspec.json.decode(line, type=TraceRow).operation for line in lines}
    assert len(ops) == 900


def test_unwritable_path_sets_failed_and_calls_back_once(tmp_path: Path) -> None:
    errors: list[OSError] = []
    w = TraceWriter(tmp_path, on_error=errors.append)  # a directory cannot be opened
    assert w.failed
    assert not w.write(_guard_row())
    assert not w.write(_guard_row())
    w.close()
    assert len(errors) == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_disk_full_does_not_raise() -> None:
    errors: list[OSError] = []
    w = TraceWriter("/dev/full", on_error=errors.append)
    assert not w.write(_guard_row())
    assert not w.write(_guard_row())
    w.close()
    assert w.failed and len(errors) == 1
