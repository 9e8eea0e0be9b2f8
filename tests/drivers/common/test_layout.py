from dataclasses import dataclass
from pathlib import Path

from ghbench.drivers.common.layout import Below


@dataclass(frozen=True)
class _World:
    root: Path
    work_dir: Path
    home = Below("home")
    registry = Below("sessions.json", base="work_dir")


def test_each_path_is_below_its_instances_directory() -> None:
    world = _World(Path("/r"), Path("/w"))
    assert world.home == Path("/r/home")
    assert world.registry == Path("/w/sessions.json")
    assert _World(Path("/other"), Path("/w")).home == Path("/other/home")


def test_on_the_class_it_is_the_layout_entry_itself() -> None:
    entry = _World.home
    assert isinstance(entry, Below)
    assert (entry.name, entry.base) == ("home", "root")
