"""The flag table: one row per setting, and what each driver takes."""

from __future__ import annotations

import msgspec
import pytest

from ghbench.pages.history import FORMATS
from ghbench.runspec.build import BUDGET_PARTS, CELL_PARTS, SETTINGS
from ghbench.runspec.flag import KIND_BACKENDS, REQUIRED
from ghbench.runspec.flags import FLAGS, HISTORY_FORMATS, flag_for, flags_of, takes
from ghbench.runspec.names import DRIVER_KIND_NAMES, KINDS_OF
from ghbench.runspec.spec import RunSpec
from ghbench.workload.profiles import DEFAULT_PROFILE


def test_one_row_per_name_and_per_setting() -> None:
    names = [name for f in FLAGS for name in f.names]
    assert len(names) == len(set(names))
    assert len({f.dest for f in FLAGS}) == len(FLAGS)
    assert set(KIND_BACKENDS) == set(DRIVER_KIND_NAMES)
    assert sorted(k for kinds in KINDS_OF.values() for k in kinds) == sorted(DRIVER_KIND_NAMES)


@pytest.mark.parametrize("name", ["--driver", "--tick", "--agents", "--out", "--format"])
def test_the_shared_flags_are_declared_once_with_one_meaning(name: str) -> None:
    (row,) = [f for f in FLAGS if name in f.names]
    assert len(row.commands) >= 3


def test_every_run_setting_a_flag_sets_is_a_field_of_the_spec() -> None:
    fields = {f.name for f in msgspec.structs.fields(RunSpec)}
    assert {f.dest for f in FLAGS if f.dest in SETTINGS} - CELL_PARTS - BUDGET_PARTS <= fields


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


def test_a_row_told_apart_by_kind_defaults_to_the_specs_default_in_every_command() -> None:
    """``check_kind`` reads a setting that is not RunSpec's default as given."""
    split = [f for f in FLAGS if f.takes is not None and f.split("ao", "github")]
    assert {f.dest for f in split} == {"ao_layout", "ao_config"}
    for row in split:
        for command in row.commands:
            assert row.commands[command] in (REQUIRED, getattr(RunSpec(), row.dest)), command


def test_the_trackers_formats_are_the_pages_own() -> None:
    assert HISTORY_FORMATS == FORMATS
    fmt = flag_for("fmt")
    assert set(fmt.choices_for("matrix plan")) == {"text", "json", "github-actions"}
    assert set(HISTORY_FORMATS) <= set(fmt.choices_for("report"))
    assert fmt.help_for("matrix plan") != fmt.help


def test_a_command_has_the_rows_that_name_it_in_table_order() -> None:
    rows = flags_of("measure")
    assert [r.name for r in rows][:2] == ["--driver", "--ao"]
    assert all("measure" in r.commands for r in rows)
    assert flag_for("sessions").required("measure") and not flag_for("sessions").required("demo")
