"""The trace row: AO's camelCase names, only ``timestamp`` required, unknown fields
tolerated on read, unset fields left out on write, and whose call a row is."""

from __future__ import annotations

import msgspec
import pytest

from ghbench.trace.schema import AGENT, KNOWN_FIELDS, TraceRow, from_agent


def test_a_row_reads_aos_names_and_tolerates_what_it_does_not_know() -> None:
    line = (
        b'{"timestamp":"2026-04-16T14:00:00.000Z","operation":"gh.pr.view","httpStatus":200,'
        b'"rateLimitRemaining":4999,"args":["pr","view"],"someFutureField":{"x":1}}'
    )
    row = msgspec.json.decode(line, type=TraceRow)
    assert (row.operation, row.httpStatus, row.rateLimitRemaining) == ("gh.pr.view", 200, 4999)
    assert row.args == ["pr", "view"] and row.endpoint is None


def test_only_the_fields_set_are_written() -> None:
    row = TraceRow(timestamp="2026-04-16T14:00:00.000Z", ok=False, exitCode=0)
    assert msgspec.json.encode(row) == (
        b'{"timestamp":"2026-04-16T14:00:00.000Z","ok":false,"exitCode":0}'  # false and 0 kept
    )


def test_a_row_without_a_timestamp_is_refused() -> None:
    with pytest.raises(msgspec.ValidationError, match="timestamp"):
        msgspec.json.decode(b'{"operation":"gh.pr.view"}', type=TraceRow)
    with pytest.raises(msgspec.ValidationError, match="httpStatus"):
        msgspec.json.decode(b'{"timestamp":"t","httpStatus":"200"}', type=TraceRow)


def test_the_known_fields_are_the_rows_in_order() -> None:
    assert KNOWN_FIELDS[0] == "timestamp" and len(set(KNOWN_FIELDS)) == len(KNOWN_FIELDS)
    assert {"rateLimitResource", "graphqlCost", "origin", "rateLimited"} <= set(KNOWN_FIELDS)


@pytest.mark.parametrize(
    ("origin", "component", "agents"),
    [
        (AGENT, None, True),  # the agents' model
        ("record", AGENT, True),  # an AO agent's gh, traced by ghbench's shim
        (None, "scm-github", False),
        ("ao", "agent-orchestrator", False),  # a prefix is not the name
    ],
)
def test_whose_call_a_row_is(origin: str | None, component: str | None, agents: bool) -> None:
    row = TraceRow(timestamp="t", origin=origin, component=component)
    assert from_agent(row) is agents
