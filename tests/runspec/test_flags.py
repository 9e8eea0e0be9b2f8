"""The flag table: one row per setting, and what each driver takes."""

from __future__ import annotations

import msgspec
import pytest

from ghbench.runspec.build import SETTINGS
from ghbench.runspec.flags import DRIVER_BACKENDS, FLAGS, flag_for, flags_of, takes
from ghbench.runspec.names import DRIVER_NAMES
from ghbench.runspec.spec import RunSpec
from ghbench.workload.profiles import DEFAULT_PROFILE


def test_one_row_per_name_and_per_setting() -> None:
    names = [name for f in FLAGS for name in f.names]
    assert len(names) == len(set(names))
    assert len({f.dest for f in FLAGS}) == len(FLAGS)
    assert set(DRIVER_BACKENDS) == set(DRIVER_NAMES)


@pytest.mark.parametrize("name", ["--driver", "--tick", "--agents", "--out"])
def test_the_shared_flags_are_declared_once_with_one_meaning(name: str) -> None:
    (row,) = [f for f in FLAGS if name in f.names]
    assert len(row.commands) >= 3


def test_every_run_setting_a_flag_sets_is_a_field_of_the_spec() -> None:
    fields = {f.name for f in msgspec.structs.fields(RunSpec)}
    assert {f.dest for f in FLAGS if f.dest in SETTINGS} - {
        "scenario",
        "topology",
        "sessions",
    } <= fields


def test_one_default_driver_and_the_table_default_profile() -> None:
    assert {flag_for("driver").default(c) for c in flag_for("driver").commands} == {"workload"}
    assert flag_for("driver").default("setup") == RunSpec().driver
    assert flag_for("profile").default("simulate") == DEFAULT_PROFILE


def test_which_driver_takes_what() -> None:
    assert takes("tick", "workload", "github") and not takes("tick", "ao", "github")
    assert takes("ao_command", "ao", "emulator") and not takes("ao_command", "workload", "emulator")
    assert takes("transport", "workload", "emulator") and not takes(
        "transport", "workload", "simulated"
    )
    # in real time AO launches the agents; in virtual time the model's sessions run them
    assert takes("agents", "ao", "github") and not takes("agents", "workload", "github")
    assert takes("agents", "workload", "simulated")
    assert takes("seed", "ao", "github")  # no driver column: every run takes it


@pytest.mark.parametrize(
    ("dest", "needs"),
    [
        ("tick", "--driver workload"),
        ("ao_command", "--driver ao"),
        ("transport", "--backend emulator|github with --driver workload"),
        ("agents", "--backend simulated or --driver ao"),
        ("repos", "--backend github"),
        ("session_ids", "--backend simulated"),
        ("duration_scale", "--backend emulator|github"),
    ],
)
def test_a_refusal_names_what_the_flag_needs(dest: str, needs: str) -> None:
    assert flag_for(dest).needs() == needs


def test_a_command_has_the_rows_that_name_it_in_table_order() -> None:
    rows = flags_of("measure")
    assert [r.name for r in rows][:2] == ["--driver", "--ao"]
    assert all("measure" in r.commands for r in rows)
    assert flag_for("sessions").required("measure") and not flag_for("sessions").required("demo")
