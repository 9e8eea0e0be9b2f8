"""The spec's scorecard fields hold the values AO's own harness writes.

The oracle is AO's ``experiments/benchmark.mjs`` itself, taken from the bench-era
tarball in ``../shared/ao`` and run with node: ``benchmark.mjs report --trace T`` writes
a scorecard, and ``ghbench report --trace T --json`` must carry the same value in every
field of ``scorecard`` and ``resourceWindows``. The rounding helpers are held to node's
own ``toFixed`` and ``Math.round`` on the same doubles.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ao_sources import BENCH_TARBALL, extract_from_tarball, node_available
from ghbench.cli import main as ghbench_main
from ghbench.data import example_trace_path
from ghbench.scorecard.jsround import math_round, to_fixed
from ghbench.timefmt import iso_ms

BENCHMARK_MJS = "agent-orchestrator/experiments/benchmark.mjs"


@pytest.fixture(scope="module")
def benchmark_mjs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    node_available()
    return extract_from_tarball(BENCH_TARBALL, BENCHMARK_MJS, tmp_path_factory.mktemp("ao"))


def _ao_report(script: Path, trace: Path, warmup_end: str | None) -> dict[str, Any]:
    out_dir = script.parent / "out"
    before = set(out_dir.glob("*.json")) if out_dir.exists() else set()
    argv = ["node", str(script), "report", "--trace", str(trace)]
    if warmup_end is not None:
        argv += ["--warmup-end", warmup_end]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=script.parent, check=False)
    assert proc.returncode == 0, proc.stderr
    (written,) = set(out_dir.glob("*.json")) - before
    doc: dict[str, Any] = json.loads(written.read_text())
    written.unlink()
    return doc


def _ghbench_report(
    trace: Path, warmup_end: str | None, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    argv = ["report", "--trace", str(trace), "--json", "--out", str(tmp / "gb")]
    if warmup_end is not None:
        argv += ["--warmup-end", warmup_end]
    with pytest.raises(SystemExit) as exit_info:
        ghbench_main(argv)
    assert exit_info.value.code == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def _assert_same(ao: dict[str, Any], ours: dict[str, Any]) -> None:
    ao_card = {k: v for k, v in ao["scorecard"].items() if k != "resourceWindows"}
    assert ours["scorecard"] == ao_card
    # AO keeps resourceWindows both inside its scorecard and beside it
    assert ours["resourceWindows"] == ao["resourceWindows"] == ao["scorecard"]["resourceWindows"]


def _rows(seed: int, n: int) -> list[dict[str, Any]]:
    """AO-shaped rows (the kinds a real trace holds), completion times in order."""
    rng = random.Random(seed)
    t = 1_776_348_000.0
    core, gql = 4_990, 4_800
    reset_core, reset_gql = 1_776_350_000, 1_776_351_000
    rows: list[dict[str, Any]] = []
    for _ in range(n):
        t += rng.choice([0.0, 0.001, 0.25, 1.5, 7.0, 30.0])
        if t > reset_core:  # the bucket refills: a new reset window
            reset_core, core = reset_core + 3600, 5_000
        kind = rng.random()
        row: dict[str, Any] = {
            "timestamp": iso_ms(t),
            "component": "scm-github",
            "durationMs": rng.choice([rng.randint(80, 4000), rng.random() * 900]),
        }
        if kind < 0.45:
            status = rng.choice([304, 304, 304, 200, 500])
            core -= status == 200
            row |= {
                "component": "scm-github-batch",
                "operation": "gh.api.guard-pr-list",
                "ok": status == 200,
                "httpStatus": status,
                "rateLimitResource": "core",
                "rateLimitRemaining": core,
                "rateLimitReset": reset_core,
            }
            if status != 200:
                row["exitCode"] = 1
        elif kind < 0.6:
            gql -= rng.randint(1, 3)
            row |= {
                "component": "scm-github-batch",
                "operation": "gh.api.graphql-batch",
                "ok": True,
                "httpStatus": 200,
                "rateLimitResource": "graphql",
                "rateLimitRemaining": gql,
                "rateLimitReset": reset_gql,
                "graphqlCost": 1,
            }
        else:
            row |= {"operation": rng.choice(["gh.pr.view", "gh.pr.list"]), "ok": True}
        rows.append(row)
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("warmup_end", [None, "2026-04-16T14:17:00Z", "2026-04-16T14:20:00.500Z"])
def test_report_of_the_example_trace_equals_aos_report(
    benchmark_mjs: Path, warmup_end: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = example_trace_path()
    _assert_same(
        _ao_report(benchmark_mjs, trace, warmup_end),
        _ghbench_report(trace, warmup_end, tmp_path, capsys),
    )


@pytest.mark.parametrize("seed", range(6))
def test_report_of_ao_shaped_traces_equals_aos_report(
    benchmark_mjs: Path, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = _write(tmp_path / f"t{seed}.jsonl", _rows(seed, 40 + 60 * seed))
    _assert_same(
        _ao_report(benchmark_mjs, trace, None),
        _ghbench_report(trace, None, tmp_path, capsys),
    )


def test_edge_traces_equal_aos_report(
    benchmark_mjs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One row (a zero-length window), and only opaque rows (no headers anywhere)."""
    one = _rows(1, 1)
    opaque = [r for r in _rows(2, 30) if "httpStatus" not in r]
    for name, rows in (("one", one), ("opaque", opaque)):
        trace = _write(tmp_path / f"{name}.jsonl", rows)
        _assert_same(
            _ao_report(benchmark_mjs, trace, None),
            _ghbench_report(trace, None, tmp_path, capsys),
        )


def test_rounding_matches_nodes_on_the_same_doubles() -> None:
    node_available()
    rng = random.Random(7)
    values = [0.125, 0.625, 2.5, -2.5, 1.005, 2.675, 0.49999999999999994, 1e-7, 12345.55]
    values += [rng.uniform(0, 20_000) for _ in range(500)]
    values += [rng.randint(0, 10_000) / 1000 + 0.0005 for _ in range(500)]  # near-ties
    script = (
        "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(xs.map(x => [parseFloat(x.toFixed(1)),"
        " parseFloat(x.toFixed(2)), parseFloat(x.toFixed(3)), Math.round(x)])));"
    )
    proc = subprocess.run(
        ["node", "-e", script], input=json.dumps(values), capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(proc.stdout)
    got = [[to_fixed(x, 1), to_fixed(x, 2), to_fixed(x, 3), math_round(x)] for x in values]
    assert got == expected


@pytest.mark.parametrize(
    ("durations", "p95_p99"),
    [
        ([0.0] * 97 + [1690.0, 1715.0], (0, 1690)),  # p99: AO's doubles give 1690.4999…
        ([0.0] * 55 + [1690.0] + [1705.0] * 3, (1691, 1705)),  # p95: 1691.4999…
        ([5.0] * 10 + [1957.61, 1958.61, -3.0], (1958, 1958)),  # p99 1958.4999…; no -3
    ],
    ids=["p99-1690", "p95-1691", "p99-negative"],
)
def test_percentile_ties_equal_aos_report(
    benchmark_mjs: Path,
    durations: list[float],
    p95_p99: tuple[int, int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [
        {"timestamp": iso_ms(1_776_348_000 + i), "operation": "gh.pr.view", "durationMs": d}
        for i, d in enumerate(random.Random(len(durations)).sample(durations, len(durations)))
    ]
    trace = _write(tmp_path / "ties.jsonl", rows)
    ours = _ghbench_report(trace, None, tmp_path, capsys)
    _assert_same(_ao_report(benchmark_mjs, trace, None), ours)
    assert (ours["scorecard"]["p95DurationMs"], ours["scorecard"]["p99DurationMs"]) == p95_p99
