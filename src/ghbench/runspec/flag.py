"""What one row of the flag table is (``Flag``): a flag's names, what its text is, its
help, which commands take it with what default, and which kinds of driver act on it on
which GitHubs; and how a refusal says who takes it. The table itself:
``ghbench.runspec.flags``.

Pure data and pure functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ghbench.runspec.names import (
    DRIVER_KIND_NAMES,
    DRIVER_NAMES,
    KINDS_OF,
    RUN_BACKEND_NAMES,
    DriverKindName,
    DriverName,
    RunBackendName,
)

__all__ = [
    "EVERY_BACKEND",
    "KINDS",
    "KIND_BACKENDS",
    "KIND_NOTES",
    "KIND_NOUNS",
    "REAL_GITHUBS",
    "REQUIRED",
    "Flag",
    "Kind",
    "backend_words",
]

# the kinds of driver as a refusal names them, and the flags that choose each
KIND_NOUNS: Mapping[DriverKindName, str] = {
    "workload": "the workload model",
    "ao-daemon": "AO's daemon",
    "ao-typescript": "a TypeScript build of AO",
}
# what a refusal adds when a run's kind turns out not to take a flag
KIND_NOTES: Mapping[DriverKindName, str] = {
    "ao-daemon": ", which has no agent-orchestrator.yaml (its project is the checkout ghbench"
    " runs in) and a session store of its own",
}
_CHOSEN_BY: Mapping[DriverKindName, str] = {
    "workload": "--driver workload",
    "ao-daemon": "--driver ao, --ao a 0.10 or 0.12 build",
    "ao-typescript": "--driver ao, --ao a checkout",
}

# What a flag's text is; ``ghbench.commands.options`` has the click type of each.
#   text      as typed              choice    one of ``choices``
#   int       a whole number        number    a finite number in ``bounds``
#   duration  90s, 2m, 1h30m        switch    present or not
#   out       a directory written   file      a file read
#   profile   a model profile       agents    an agent profile, or none
#   many      repeatable text
Kind = Literal[
    "text",
    "choice",
    "int",
    "number",
    "duration",
    "switch",
    "out",
    "file",
    "profile",
    "agents",
    "many",
]
KINDS: tuple[Kind, ...] = get_args(Kind)


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()  # a command's default that says the flag must be given

REAL_GITHUBS: frozenset[RunBackendName] = frozenset({"emulator", "github"})
EVERY_BACKEND: frozenset[RunBackendName] = frozenset(RUN_BACKEND_NAMES)

# the GitHubs each kind of driver runs on (the --driver row's): virtual time has no
# orchestrator process
KIND_BACKENDS: Mapping[DriverKindName, frozenset[RunBackendName]] = {
    "ao-daemon": REAL_GITHUBS,
    "ao-typescript": REAL_GITHUBS,
    "workload": EVERY_BACKEND,
}
assert set(KIND_BACKENDS) == set(DRIVER_KIND_NAMES)
assert {k for kinds in KINDS_OF.values() for k in kinds} == set(DRIVER_KIND_NAMES)


@dataclass(frozen=True)
class Flag:
    """One flag: its names (the first is its name; after it, an old spelling still
    accepted), where its value goes, what it is (``kind``), and who takes it."""

    names: tuple[str, ...]
    # a RunSpec setting (``build.SETTINGS``) or the command's own parameter
    dest: str
    kind: Kind
    help: str
    # command (a group's subcommand as "matrix run") -> its default, or REQUIRED
    commands: Mapping[str, Any]
    choices: tuple[str, ...] = ()
    choices_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # narrower
    # int: at least the first, at most the second; number: above the first, at most the second
    bounds: tuple[float | None, float | None] = (None, None)
    zero: bool = True  # a duration may be 0
    metavar: str | None = None
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # a command's old names
    help_in: Mapping[str, str] = field(default_factory=dict)  # a command's own help
    unset: str = ""  # what a command's default of None means, shown as its default
    # the kinds of driver that act on it, each on the GitHubs it does so for; None: every
    # run. A typed value a run's driver would not act on is refused (the user expects it
    # to matter); virtual time (``simulated``) always runs the model.
    takes: Mapping[DriverKindName, frozenset[RunBackendName]] | None = None

    @property
    def name(self) -> str:
        return self.names[0]

    def names_in(self, command: str) -> tuple[str, ...]:
        return (*self.names, *self.aliases.get(command, ()))

    def help_for(self, command: str) -> str:
        return self.help_in.get(command, self.help)

    def default(self, command: str) -> Any:
        value = self.commands[command]
        return None if value is REQUIRED else value

    def required(self, command: str) -> bool:
        return self.commands[command] is REQUIRED

    def choices_for(self, command: str) -> tuple[str, ...]:
        return self.choices_in.get(command, self.choices)

    def taken_by(self, driver_kind: DriverKindName, backend: RunBackendName) -> bool:
        """Whether a run of ``driver_kind`` on ``backend`` acts on it."""
        return self.takes is None or backend in self.takes.get(driver_kind, frozenset())

    def taken(self, driver: DriverName, backend: RunBackendName) -> bool:
        """Whether a run of ``driver`` on ``backend`` may act on it: one of its kinds does."""
        return any(self.taken_by(kind, backend) for kind in KINDS_OF[driver])

    def split(self, driver: DriverName, backend: RunBackendName) -> bool:
        """Whether the kinds of ``driver`` disagree on it: only the run's kind can say."""
        return len({self.taken_by(kind, backend) for kind in KINDS_OF[driver]}) > 1

    def needs(self, words: Mapping[frozenset[RunBackendName], str] | None = None) -> str:
        """What a run needs for this flag to be taken, in flags: ``--driver workload``,
        ``--backend simulated or --driver ao``, ``a TypeScript build of AO (...)``."""
        assert self.takes is not None
        ways = _ways(self.takes)
        reached = {backend for _, backend in ways}
        if ways == {way for way in _ways(KIND_BACKENDS) if way[1] in reached}:
            return backend_words(reached, words)
        parts = []
        for driver in DRIVER_NAMES:
            for subject, kinds in _subjects(self.takes, driver):
                backends = self.takes[kinds[0]]
                alone = all(
                    {k for k, b in _ways(KIND_BACKENDS) if b == x} <= set(kinds) for x in backends
                )
                if all(backends == KIND_BACKENDS[k] for k in kinds):
                    parts.append(subject)
                elif alone:
                    parts.append(backend_words(backends, words))
                else:
                    parts.append(f"{backend_words(backends, words)} with {subject}")
        return " or ".join(sorted(parts))


def _subjects(
    takes: Mapping[DriverKindName, frozenset[RunBackendName]], driver: DriverName
) -> list[tuple[str, tuple[DriverKindName, ...]]]:
    """Who takes a flag among ``driver``'s kinds, as a refusal says it: the driver, when
    every kind of it takes it alike; else each kind that does."""
    kinds = KINDS_OF[driver]
    taking = tuple(k for k in kinds if k in takes)
    if taking == kinds and len({takes[k] for k in kinds}) == 1:
        return [(f"--driver {driver}", kinds)]
    return [(f"{KIND_NOUNS[k]} ({_CHOSEN_BY[k]})", (k,)) for k in taking]


def _ways(
    takes: Mapping[DriverKindName, frozenset[RunBackendName]],
) -> set[tuple[DriverKindName, RunBackendName]]:
    return {(kind, backend) for kind, backends in takes.items() for backend in backends}


def backend_words(
    backends: frozenset[RunBackendName] | set[RunBackendName],
    words: Mapping[frozenset[RunBackendName], str] | None = None,
) -> str:
    """``--backend emulator|github``, or how a command says it (``--verify``)."""
    chosen = frozenset(backends)
    if words and chosen in words:
        return words[chosen]
    return "--backend " + "|".join(b for b in ("simulated", "emulator", "github") if b in chosen)
