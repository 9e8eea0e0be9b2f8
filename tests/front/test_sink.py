"""ghbench.front.sink: where the front's rows go phase by phase (the agents' rows to
their own trace), what it counted, warnings one line per cause, and a trace that
cannot be written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.front.sink import TraceSink
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import TraceLoss

from .front_helpers import TOKEN, client_env, run, running_front


def _row(operation: str, session: str | None = None) -> TraceRow:
    return TraceRow(timestamp="2026-12-06T10:00:00Z", operation=operation, sessionId=session)


def _operations(path: Path) -> list[str | None]:
    lines = path.read_bytes().splitlines()
    return [msgspec.json.decode(line, type=TraceRow).operation for line in lines]


def test_a_sessions_rows_go_to_the_agents_trace_and_the_rest_to_the_trace(tmp_path: Path) -> None:
    trace, agents = tmp_path / "trace.jsonl", tmp_path / "agents.jsonl"
    sink = TraceSink(str(trace), str(agents))
    sink.write(_row("rest.user"))
    sink.write(_row("rest.repos.pulls", session="ta-1"))
    sink.close()
    assert (_operations(trace), _operations(agents)) == (["rest.user"], ["rest.repos.pulls"])
    assert sink.counts.rows_written == 2


def test_without_an_agents_trace_every_row_goes_to_the_trace(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    sink = TraceSink(str(trace))
    sink.write(_row("rest.user", session="ta-1"))
    sink.write(_row("rest.user"))
    sink.close()
    assert _operations(trace) == ["rest.user", "rest.user"]


def test_untraced_rows_go_nowhere_and_are_not_counted(tmp_path: Path) -> None:
    sink = TraceSink(None, str(tmp_path / "agents.jsonl"))  # no trace: no agents' either
    sink.write(_row("rest.user", session="ta-1"))
    assert not sink.traced and sink.counts.rows_written == sink.counts.rows_lost == 0
    assert not (tmp_path / "agents.jsonl").exists()


def test_a_switch_ends_the_phase_with_its_report_and_starts_counting_afresh(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    sink = TraceSink(str(first))
    sink.counts.exchanges = 2
    sink.write(_row("rest.user"))
    sink.warn(("ca", "curl"), "curl does not trust the CA", "curl/8.0")
    ended = sink.switch(str(second))
    assert (ended.counts.exchanges, ended.counts.rows_written, ended.error) == (2, 1, None)
    assert ended.counts.warnings == ["curl does not trust the CA (curl/8.0)"]
    sink.write(_row("rest.rate_limit"))
    now = sink.report()
    assert (now.counts.exchanges, now.counts.rows_written, now.counts.warnings) == (0, 1, [])
    sink.close()
    assert (_operations(first), _operations(second)) == (["rest.user"], ["rest.rate_limit"])


def test_a_cause_seen_many_times_is_one_warning() -> None:
    sink = TraceSink(None)
    for n in range(300):
        sink.warn(("ca", "gh"), "gh does not trust the CA: set SSL_CERT_FILE", f"ta-{n % 5}")
    sink.warn(("ca", "git"), "git does not trust the CA")
    report = sink.report()
    assert report.counts.warnings == [
        "gh does not trust the CA: set SSL_CERT_FILE (seen 300 times; e.g. ta-0, ta-1, ta-2)",
        "git does not trust the CA",
    ]
    assert [c.seen for c in report.causes] == [300, 1]


def test_a_trace_that_cannot_be_opened_loses_its_rows_and_says_why(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir" / "trace.jsonl"
    sink = TraceSink(str(missing))
    assert sink.traced and sink.error is not None and str(missing) in sink.error
    sink.write(_row("rest.user"))
    sink.write(_row("rest.user"))
    report = sink.report()
    assert (report.counts.rows_written, report.counts.rows_lost) == (0, 2)
    assert [(loss.trace, loss.rows) for loss in report.counts.losses] == [(str(missing), 2)]
    assert report.counts.warnings == [
        f"cannot write the trace {missing} (No such file or directory); rows are being lost"
    ]


def test_a_switch_to_a_trace_that_cannot_be_opened_says_so_in_its_reply(tmp_path: Path) -> None:
    sink = TraceSink(None)
    reply = sink.switch(str(tmp_path / "no-such-dir" / "t.jsonl"))
    assert reply.error is not None and "no-such-dir" in reply.error
    assert sink.switch(None).error is None  # untraced again: nothing to fail


@pytest.mark.slow
@pytest.mark.needs("curl")
def test_rows_that_cannot_be_written_are_counted_lost(emulator_server: Any, tmp_path: Path) -> None:
    full = Path("/dev/full")  # every write fails: no space left on device
    with running_front(tmp_path / "front", emulator_server.url, trace=full) as front:
        env = client_env(front, tmp_path, TOKEN)
        for _ in range(2):
            proc = run(["curl", "-sS", "-o", "/dev/null", "https://api.github.com/rate_limit"], env)
            assert proc.returncode == 0, proc.stderr  # the client is served all the same
        counts = front.stop()
    assert (counts.exchanges, counts.rows_written, counts.rows_lost) == (2, 0, 2)
    # typed, for the window's scorecard: which trace, how many, why
    assert counts.losses == [TraceLoss(trace=str(full), rows=2, reason="No space left on device")]
    # one line, however many of the front's workers failed to write (each says so once)
    [warning] = counts.warnings
    assert warning.startswith(
        "cannot write the trace /dev/full (No space left on device); rows are being lost"
    )
