"""``ghbench capacity --verify --driver ao`` with AO 0.12.6: the count the model finds and
the next one, each run in real time by the real daemon on the emulator, beside the model
at the same timing.

As its user runs it: no config, the 0.12.6 binary under its release file's name, a
coding agent that pushes and runs today's gh (2.102). ``--budget-fraction 0.05`` puts the
answer of the ``ao-0.12.6`` profile at one session (at two the poll cycle binds), so the
real runs are one and two sessions; ``--verify-scale 0.05`` makes each a 6 s warmup and a
45 s window, which holds at least one of the daemon's 30 s polls (its interval is its
own: the real daemon is not told a poll interval, and the model polls at the same 30 s).
The model and the real run are not asserted to agree (the two counts sit on the boundary
by construction); what is asserted is that both counts ran with the real daemon (the
release it ran named in each scorecard, every row of its trace its own, taken at the
network) and were read the way the model's are.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import TODAYS_GH, UserWorld, close_user_world, make_user_world, processes_with_home
from verify_checks import verified_counts

COMMIT_0126 = "075de7a0195d84f1de8d8eaef03ad3b98871bee1"


def test_verify_runs_both_counts_with_the_real_daemon(tmp_path: Path, ao_daemon_012: Path) -> None:
    world: UserWorld = make_user_world(tmp_path, ao_config=False, gh=TODAYS_GH)
    try:
        proc = world.ghbench(
            "capacity", "--budget-fraction", "0.05", "--verify", "--verify-scale", "0.05",
            "--driver", "ao", "--ao", str(ao_daemon_012), "--no-plot", "--json",
            timeout=900,
        )  # fmt: skip
    finally:
        close_user_world(world)
    assert proc.returncode == 0, proc.stderr[-3000:]
    answer = json.loads(proc.stdout)
    assert answer["cell"]["profile"] == "ao-0.12.6"
    n = answer["sessions"]
    verify = answer["verify"]
    assert n >= 1 and [c["sessions"] for c in verify["counts"]] == [n, n + 1]
    assert verify["driver"] == "ao"
    # the daemon's own 30 s poll, not a scaled one; the runbook's S2 timing times 0.05
    assert (verify["warmupSeconds"], verify["windowSeconds"], verify["pollSeconds"]) == (
        6.0,
        45.0,
        30.0,
    )
    for _, _, card in verified_counts(verify):
        assert card["incomplete"] is False
        assert (card["gitSha"], card["branch"]) == (COMMIT_0126, "v0.12.6")  # the daemon ran
        rows = [json.loads(x) for x in Path(card["trace"]).read_text().splitlines() if x]
        assert rows and {(r["component"], r["origin"]) for r in rows} == {("scm-github", "front")}
    assert "verify: " in proc.stderr
    homes = list(world.root.rglob("state/ao-daemon/*/home"))
    assert len(homes) == 2  # one daemon world per count, and nothing of either left running
    assert all(processes_with_home(home) == [] for home in homes)
