"""ghbench.record.emit: one finished gh invocation (gh 2.102's debug log, recorded in
tests/record/fixtures) into rows in every sink's trace: components, session and
project, tokens scrubbed, a trace that cannot be written warned of once."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from ghbench.clock import VirtualClock
from ghbench.record.contract import ENV_PROJECT, ENV_SESSION, ENV_SINKS, Sink, encode_sinks
from ghbench.record.debuglog import DebugMode, split_debug_log
from ghbench.record.emit import record_invocation, token_values
from ghbench.record.exchange import Exchange
from ghbench.trace.schema import TraceRow

FIXTURES = Path(__file__).parent / "fixtures"
TOKEN = "ghp_" + "s3cr3t" * 6


def _exchanges(stem: str) -> list[Exchange]:
    data = (FIXTURES / f"{stem}.debug.stderr").read_bytes()
    return split_debug_log(data, DebugMode.OFF)[0]


def _rows(path: Path) -> list[TraceRow]:
    return [msgspec.json.decode(line, type=TraceRow) for line in path.read_bytes().splitlines()]


def test_token_values_are_longest_first_and_ignore_short_ones() -> None:
    env = {
        "GH_TOKEN": "ghp_short_but_ok",
        "GITHUB_TOKEN": "ghp_short_but_ok_longer",
        "GH_ENTERPRISE_TOKEN": "x",
    }
    assert token_values(env) == ["ghp_short_but_ok_longer", "ghp_short_but_ok"]


def test_every_sink_gets_the_rows_under_its_own_component(tmp_path: Path) -> None:
    sinks = [
        Sink(str(tmp_path / "a.jsonl"), "record", str(tmp_path)),
        Sink(str(tmp_path / "b.jsonl"), "agents", str(tmp_path)),
        Sink(str(tmp_path / "c.jsonl"), "record", str(tmp_path)),
    ]
    env = {ENV_SINKS: encode_sinks(sinks), ENV_SESSION: "ta-1", ENV_PROJECT: "", "GH_TOKEN": TOKEN}
    record_invocation(
        ["api", "-H", f"Authorization: token {TOKEN}", "user"],
        0,
        _exchanges("pr_view"),
        env,
        VirtualClock(),
    )
    a, b, c = (_rows(Path(s.trace)) for s in sinks)
    assert a and len(a) == len(b) == len(c)
    assert {r.component for r in a + c} == {"record"} and {r.component for r in b} == {"agents"}
    assert {(r.sessionId, r.projectId) for r in a} == {("ta-1", None)}  # "" is unset
    assert len({r.invocationId for r in a + b + c}) == 1  # one invocation, every trace
    assert TOKEN not in (tmp_path / "a.jsonl").read_text()


@pytest.mark.parametrize(
    ("returncode", "exit_code", "signal"), [(1, 1, None), (-15, None, "SIGTERM")]
)
def test_how_gh_ended_is_on_every_row(
    returncode: int, exit_code: int | None, signal: str | None, tmp_path: Path
) -> None:
    trace = tmp_path / "t.jsonl"
    env = {ENV_SINKS: encode_sinks([Sink(str(trace), "record", str(tmp_path))])}
    record_invocation(["pr", "view", "1"], returncode, _exchanges("pr_view"), env, VirtualClock())
    assert {(r.exitCode, r.signal) for r in _rows(trace)} == {(exit_code, signal)}


def test_no_sink_or_no_exchange_writes_nothing(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    env = {ENV_SINKS: encode_sinks([Sink(str(trace), "record", str(tmp_path))])}
    record_invocation(["pr", "view"], 0, [], env, VirtualClock())
    record_invocation(["pr", "view"], 0, _exchanges("pr_view"), {ENV_SINKS: "junk"}, VirtualClock())
    assert not trace.exists()


def test_a_trace_that_cannot_be_written_is_warned_of_once(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "gone" / "t.jsonl"
    env = {ENV_SINKS: encode_sinks([Sink(str(missing), "record", str(tmp_path))])}
    for _ in range(3):  # three gh calls of one record run
        record_invocation(["pr", "view"], 0, _exchanges("pr_view"), env, VirtualClock())
    err = capfd.readouterr().err
    assert err.count(f"ghbench record: cannot write trace {missing}") == 1
    assert "the command carries on" in err
    # the run is over (its state dir gone): no marker can be left, and no warning either
    over = {ENV_SINKS: encode_sinks([Sink(str(missing), "record", str(tmp_path / "x"))])}
    record_invocation(["pr", "view"], 0, _exchanges("pr_view"), over, VirtualClock())
    assert capfd.readouterr().err == ""
    assert not os.path.exists(tmp_path / "x")
