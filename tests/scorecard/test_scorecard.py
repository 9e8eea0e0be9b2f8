"""``write_scorecard``: the spec's file name inside a directory, a number appended when
it is taken, never over an existing file, and the artifact read back whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.artifacts.models import ScorecardArtifact, load_scorecard
from ghbench.errors import ArtifactError
from ghbench.scorecard import scorecard_stem, write_scorecard
from ghbench.timefmt import parse_iso

EXAMPLE = Path(__file__).resolve().parents[1] / "golden" / "scorecard-example.json"


@pytest.fixture(scope="module")
def card() -> ScorecardArtifact:
    return load_scorecard(EXAMPLE)


def test_the_stem_is_the_scenario_and_the_unix_seconds_it_was_measured(
    card: ScorecardArtifact,
) -> None:
    seconds = int(parse_iso(card.measured_at))
    assert scorecard_stem(card) == f"scorecard-{card.scenario_id}-{seconds}"


def test_in_a_directory_the_spec_name_then_a_numbered_one(
    card: ScorecardArtifact, tmp_path: Path
) -> None:
    first = write_scorecard(card, tmp_path)
    second = write_scorecard(card, tmp_path)
    stem = scorecard_stem(card)
    assert (first.name, second.name) == (f"{stem}.json", f"{stem}-2.json")
    assert load_scorecard(second) == card
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])


def test_a_file_is_never_written_over(card: ScorecardArtifact, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    assert write_scorecard(card, path) == path
    before = path.read_bytes()
    with pytest.raises(ArtifactError):
        write_scorecard(card, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine.json"]  # no temporary left
