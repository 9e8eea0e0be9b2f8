"""Regenerate ``tests/analysis/fixtures/compare``: model scorecards, four seeds a side.

    .venv/bin/python tests/analysis/make_compare_fixtures.py

``base/`` is the pre-b1 profile and ``cand/`` the bench-era one, both S2-T1-5 with a
30 s warmup and a 5 min window; the ``trace`` path is cleared so the files do not name
a temporary directory. They are inputs to the golden tests, so a change to the model
does not change compare's golden output until this script is run again.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec

from ghbench.artifacts.models import encode_artifact, load_scorecard

FIXTURES = Path(__file__).parent / "fixtures" / "compare"
SIDES = {"base": "pre-b1", "cand": "bench-era"}
CELL = ["--scenario", "S2", "--topology", "T1", "--sessions", "5", "--warmup", "30s"]


def main() -> None:
    for side, profile in SIDES.items():
        target = FIXTURES / side
        target.mkdir(parents=True, exist_ok=True)
        for seed in range(1, 5):
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "ghbench",
                        "simulate",
                        *CELL,
                        "--duration",
                        "5m",
                        "--profile",
                        profile,
                        "--seed",
                        str(seed),
                        "--out",
                        tmp,
                        "--json",
                    ],
                    check=True,
                    capture_output=True,
                )
                (card,) = Path(tmp).glob("scorecard-*.json")
                artifact = msgspec.structs.replace(load_scorecard(card), trace=None)
            (target / f"scorecard-run{seed}.json").write_bytes(encode_artifact(artifact))


if __name__ == "__main__":
    main()
