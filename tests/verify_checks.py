"""What every ``capacity --verify`` answer must hold, whichever driver ran its counts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["verified_counts"]


Budgets = dict[str, float]  # a probe's budgets: name -> used


def verified_counts(verify: dict[str, Any]) -> Iterator[tuple[Budgets, Budgets, dict[str, Any]]]:
    """Each count's model and real budgets and its cell's scorecard, once checked: its
    verdict is the counts', the model and the real run were read for the same budgets,
    the real run polled, and its cell has the count's sessions."""
    assert verify["agree"] == all(c["agree"] for c in verify["counts"])
    for count in verify["counts"]:
        model = {b["name"]: b["used"] for b in count["model"]["budgets"]}
        real = {b["name"]: b["used"] for b in count["real"]["budgets"]}
        assert model.keys() == real.keys()
        assert real["pollCycle"] > 0 and real["concurrency"] >= 1
        cell = Path(verify["artifacts"]) / f"sessions-{count['sessions']}" / "cell"
        (path,) = cell.glob("scorecard-*.json")
        card = json.loads(path.read_text())
        assert card["sessionCount"] == count["sessions"]
        yield model, real, card
