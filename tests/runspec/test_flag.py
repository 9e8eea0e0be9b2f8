"""ghbench.runspec.flag: what one row of the flag table says (its names in a command,
its default, whether it is required) and who takes it, as a refusal names them; on
hand-made rows and on the table's own."""

from __future__ import annotations

import pytest

from ghbench.runspec.flag import KIND_BACKENDS, REQUIRED, Flag, backend_words
from ghbench.runspec.flags import flag_for

ROW = Flag(
    ("--speed", "--rate"),
    "speed",
    "number",
    "How fast.",
    {"replay": 1.0, "lab": REQUIRED},
    aliases={"replay": ("--pace",)},
    help_in={"lab": "How fast the lab replays."},
    takes={"workload": KIND_BACKENDS["workload"]},
)


def test_a_rows_names_default_and_help_in_each_command() -> None:
    assert ROW.name == "--speed"
    assert ROW.names_in("replay") == ("--speed", "--rate", "--pace")
    assert ROW.names_in("lab") == ("--speed", "--rate")
    assert (ROW.default("replay"), ROW.required("replay")) == (1.0, False)
    assert (ROW.default("lab"), ROW.required("lab")) == (None, True)
    assert ROW.help_for("lab") != ROW.help_for("replay") == "How fast."
    assert repr(REQUIRED) == "REQUIRED"


def test_who_takes_a_row() -> None:
    assert ROW.taken("workload", "simulated") and not ROW.taken("ao", "github")
    assert not ROW.split("workload", "github")
    assert ROW.needs() == "--driver workload"
    every = Flag(("--seed",), "seed", "int", "A seed.", {"simulate": 0})
    assert every.taken("ao", "github") and every.taken_by("ao-daemon", "simulated")


def test_the_backends_in_words() -> None:
    assert backend_words({"github", "emulator"}) == "--backend emulator|github"
    assert backend_words(frozenset({"simulated"})) == "--backend simulated"
    words = {frozenset({"emulator", "github"}): "--verify"}
    assert backend_words({"emulator", "github"}, words) == "--verify"


def test_what_only_one_kind_of_ao_acts_on() -> None:
    """AO's daemon and its TypeScript builds are one --driver ao, told apart by what --ao
    names: the table says what each acts on."""
    layout, config = flag_for("ao_layout"), flag_for("ao_config")
    assert layout.taken("ao", "github") and layout.split("ao", "github")
    assert layout.taken_by("ao-typescript", "github") and not layout.taken_by("ao-daemon", "github")
    assert config.taken_by("workload", "emulator") and not config.taken_by("ao-daemon", "emulator")
    for dest in ("ao_command", "agents", "duration_scale", "repos", "tick"):
        assert not flag_for(dest).split("ao", "github"), dest


@pytest.mark.parametrize(
    ("dest", "needs"),
    [
        ("tick", "--driver workload"),
        ("ao_command", "--driver ao"),
        ("transport", "--backend emulator|github with --driver workload"),
        ("agents", "--backend simulated or --driver ao"),
        ("session_ids", "--backend simulated"),
        ("duration_scale", "--backend emulator|github"),
        ("ao_layout", "a TypeScript build of AO (--driver ao, --ao a checkout)"),
        (
            "ao_config",
            "--driver workload or a TypeScript build of AO (--driver ao, --ao a checkout)",
        ),
    ],
)
def test_a_refusal_names_what_the_flag_needs(dest: str, needs: str) -> None:
    assert flag_for(dest).needs() == needs
