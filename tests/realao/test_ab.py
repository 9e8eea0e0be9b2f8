"""``ghbench ab`` with real AO builds: alternate runs on one setup, compared (AO's two
TypeScript builds; AO's daemon, 0.10.3 against 0.12.6).

The bench-era build counts a Guard 1 304 (gh's exit code 1) as "changed" and runs a
GraphQL batch every tick; main's guards hold on 304s. So on the same setup, every run
of bench must spend more GraphQL than every run of main. And a build whose trace stays
empty (AO with its tracer variable removed) is refused by the smoke check.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PROJECT, UserWorld

# AO polls every 30 s, from its start. main is steady from its third tick (the first
# refreshes everything; the second still finds its check-runs ETags new): a 65 s warmup
# puts the window on ticks 4 and on, where main's guards hold and bench's 304s still
# trigger a batch every tick.
WINDOWS = ["--warmup", "65s", "--duration", "40s", "--smoke", "5s"]
SMOKE_ONLY = ["--warmup", "5s", "--duration", "5s", "--smoke", "5s"]


def _common(world: UserWorld) -> list[str]:
    return [
        "--project", PROJECT, "--sessions", "2", "--issues", "1,2", "--driver", "ao",
        "--github", "emulator", "--config", str(world.config), "--poll-interval", "2s",
        "--timeout", "4m", "--out", "out",
    ]  # fmt: skip


def test_bench_build_spends_more_graphql_than_main_in_every_run(
    user_world: UserWorld, ao_main: Path, ao_bench: Path
) -> None:
    proc = user_world.ghbench(
        "ab", *_common(user_world), "--a-ao", str(ao_main), "--b-ao", str(ao_bench),
        "--runs", "2", *WINDOWS, timeout=1200,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    (run_dir,) = (user_world.root / "out").glob("ab-*")
    batches: dict[str, list[int]] = {}
    gql: dict[str, list[float]] = {}
    for label in ("a", "b"):
        cards = sorted((run_dir / label).rglob("scorecard-*.json"))
        assert len(cards) == 2
        docs = [json.loads(c.read_text()) for c in cards]
        assert not any(d["incomplete"] for d in docs)
        batches[label] = [d["scorecard"]["graphqlBatchCount"] for d in docs]
        gql[label] = [d["insights"]["consumption"]["graphql"]["perHr"] or 0.0 for d in docs]
    assert batches["a"] == [0, 0], batches  # main: every guard held
    assert min(batches["b"]) > 0, batches  # bench: a batch on every tick
    assert min(gql["b"]) > max(gql["a"]), gql
    compare = json.loads((run_dir / "compare.json").read_text())
    assert compare  # the comparison of B against A was written beside the runs


def test_the_smoke_run_refuses_a_build_whose_trace_stays_empty(
    user_world: UserWorld, ao_main: Path, tmp_path: Path
) -> None:
    silent = tmp_path / "silent-ao"  # AO main, but its tracer variable removed
    entry = ao_main / "packages" / "cli" / "dist" / "index.js"
    silent.write_text(f'#!/bin/sh\nunset AO_GH_TRACE_FILE\nexec node {entry} "$@"\n')
    silent.chmod(0o755)
    proc = user_world.ghbench(
        "ab", *_common(user_world), "--a-ao", str(ao_main), "--b-ao", str(silent),
        "--runs", "1", *SMOKE_ONLY, timeout=900,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr[-3000:]
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: build b (silent-ao) traced no GitHub call"), last
    (run_dir,) = (user_world.root / "out").glob("ab-*")
    (smoke_a,) = (run_dir / "smoke" / "a").glob("gh-trace-bench-*.jsonl")
    assert smoke_a.read_text().strip()  # build a's smoke run traced its polls


def test_the_daemon_of_today_against_npms_last_on_one_setup(
    user_world: UserWorld, ao_daemon: Path, ao_daemon_012: Path
) -> None:
    """``ab`` of AO 0.10.3 (A) against 0.12.6 (B) from the user's checkout: one setup
    (0.10.3's), which 0.12.6 measures on a copy of its database (it migrates its copy,
    never the database 0.10.3 reads); both windows are the daemons' own calls, their
    guards named alike."""
    proc = user_world.ghbench(
        "ab", "--driver", "ao", "--a-ao", str(ao_daemon), "--b-ao", str(ao_daemon_012),
        "--project", PROJECT, "--sessions", "2", "--issues", "1,2", "--github", "emulator",
        "--poll-interval", "2s", "--timeout", "4m", "--runs", "1", "--warmup", "5s",
        "--duration", "31s", "--smoke", "10s", "--out", "../../out",
        cwd=user_world.checkout, timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = user_world.root / "out"
    (run_dir,) = out.glob("ab-*")
    for label in ("a", "b"):
        (card,) = [json.loads(c.read_text()) for c in (run_dir / label).glob("scorecard-*")]
        assert not card["incomplete"], card.get("incompleteReason")
        operations = card["insights"]["operations"]
        assert "gh.api.guard-commit-status" in {op["key"] for op in operations}
    world = out / "state" / "ao-daemon" / PROJECT
    assert (world / "sessions.line").read_text().strip() == "0.10"
    assert (world / "data" / "ao.db").is_file() and (world / "data-0.12" / "ao.db").is_file()
    assert json.loads((run_dir / "compare.json").read_text())
