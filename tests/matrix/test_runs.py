"""The matrix's runs on disk: one file per run, numbered and never overwritten; read back
in order, with an error naming the file for anything it cannot read; and the capacity
answers stored beside them."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from ghbench.errors import ArtifactError
from ghbench.matrix.runs import (
    RUN_SCHEMA_VERSION,
    MatrixRun,
    capacity_path,
    load_capacities,
    load_run,
    load_runs,
    run_bytes,
    save_run,
)


def _run(cell: str = "S2-T1-1", **fields: object) -> MatrixRun:
    values: dict[str, object] = {
        "cell": cell,
        "status": "ok",
        "backend": "simulated",
        "driver": "workload",
        "operator": "t",
        "matrix_run": "m1",
        "started_at": "2026-05-01T10:00:00Z",
        "ended_at": "2026-05-01T10:05:00Z",
        "sessions": 1,
        **fields,
    }
    return MatrixRun(**values)  # type: ignore[arg-type]


def test_each_save_is_the_cells_next_run_and_never_overwrites(tmp_path: Path) -> None:
    first, path = save_run(tmp_path, _run())
    assert (first.run, path) == (1, tmp_path / "runs" / "S2-T1-1" / "run-001.json")
    assert path.read_bytes() == run_bytes(first)
    doc = json.loads(path.read_bytes())
    assert doc["schemaVersion"] == RUN_SCHEMA_VERSION and doc["matrixRun"] == "m1"
    assert list(doc) == sorted(doc)  # stable files: keys sorted
    # numbers follow the highest taken, whatever else lies in the folder
    (path.parent / "run-007.json").write_bytes(run_bytes(msgspec.structs.replace(first, run=7)))
    (path.parent / "run-x.json").write_text("not a run")
    (path.parent / "notes.txt").write_text("kept")
    second, second_path = save_run(tmp_path, _run(status="failed", reason="boom"))
    assert (second.run, second_path.name) == (8, "run-008.json")
    assert path.read_bytes() == run_bytes(first)  # the first is untouched
    other, _ = save_run(tmp_path, _run("S4-T1-1"))
    assert other.run == 1


def test_runs_read_back_by_cell_then_number(tmp_path: Path) -> None:
    assert load_runs(tmp_path) == []  # no runs/ yet
    for cell in ("S4-T1-1", "S2-T1-1", "S2-T1-1"):
        save_run(tmp_path, _run(cell))
    (tmp_path / "runs" / "stray.json").write_text("{}")  # not in a cell's folder
    (tmp_path / "runs" / "S2-T1-1" / "run-x.json").write_text("{}")
    assert [(r.cell, r.run) for r in load_runs(tmp_path)] == [
        ("S2-T1-1", 1),
        ("S2-T1-1", 2),
        ("S4-T1-1", 1),
    ]


def test_a_version_1_record_reads_without_warnings_or_budgets(tmp_path: Path) -> None:
    doc = json.loads(run_bytes(_run(run=3)))
    doc["schemaVersion"] = 1
    del doc["warnings"], doc["budgets"]
    path = tmp_path / "run-003.json"
    path.write_text(json.dumps(doc))
    run = load_run(path)
    assert (run.schema_version, run.run, run.warnings, run.budgets) == (1, 3, [], [])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"schemaVersion": 3}', "run record schemaVersion 3 is not supported"),
        ('{"schemaVersion": true}', "run record schemaVersion True is not supported"),
        ("[1]", "run record schemaVersion None is not supported"),
        ('{"schemaVersion": 2, "cell": 5}', "invalid run record"),
        ('{"schemaVersion": 2, "cell": "S2-T1-1", "status": "maybe"}', "invalid run record"),
    ],
)
def test_a_record_that_does_not_read_names_its_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "run-001.json"
    path.write_text(text)
    with pytest.raises(ArtifactError, match=message) as err:
        load_run(path)
    assert str(err.value).startswith(str(path))


def test_a_missing_record_is_an_artifact_error(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match=r"cannot read .*run-009\.json"):
        load_run(tmp_path / "run-009.json")


def test_attribution_is_missing_only_when_rows_carry_no_session() -> None:
    assert _run(rows=10, attributed_rows=0).attribution_missing
    assert _run(rows=10, attributed_rows=None).attribution_missing
    assert not _run(rows=10, attributed_rows=4).attribution_missing
    assert not _run(rows=0, attributed_rows=0).attribution_missing
    assert not _run().attribution_missing


def test_capacities_are_read_by_series_and_a_file_that_does_not_read_is_left_out(
    tmp_path: Path,
) -> None:
    assert load_capacities(tmp_path) == {}
    answer = {
        "sessions": 12,
        "limitingResource": "graphqlPointsPerHr",
        "budgetFraction": 0.8,
        "reachedMax": False,
        "pollCeilingSeconds": 60.0,
        "command": "ghbench capacity --scenario S2 --topology T1",
        "cell": {
            "scenario": "S2",
            "topology": "T1",
            "profile": "ao-0.12.6",
            "seed": 1,
            "warmupSeconds": 300.0,
            "windowSeconds": 1800.0,
        },
        "tried": [],  # the rest of capacity --json's object is kept in the file
    }
    path = capacity_path(tmp_path, "S2", "T1")
    assert path == tmp_path / "capacity" / "S2-T1.json"
    path.parent.mkdir()
    path.write_text(json.dumps(answer))
    (path.parent / "S3-T1.json").write_text("{half")
    (path.parent / "S4-T1.json").write_text(json.dumps({"sessions": "many"}))
    found = load_capacities(tmp_path)
    assert list(found) == [("S2", "T1")]
    series = found["S2", "T1"]
    assert (series.sessions, series.limiting_resource, series.cell.agents) == (
        12,
        "graphqlPointsPerHr",
        None,
    )
