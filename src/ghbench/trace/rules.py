"""Which trace lines are rows, and what their fields become: the one rule set of the reader.

Every consumer of a trace (``report``, ``measure``, ``summarize``, ``analyze``, the
matrix) reads it through ``ghbench.trace.reader``, which runs the SQL written here
over DuckDB's newline-delimited JSON scan. Nothing else decides whether a line counts.

A non-blank line is a row when it is a JSON object (DuckDB's parser: a line that is
malformed, truncated, not valid UTF-8, nested deeper than it follows, or not an object
is skipped) and:

- its ``timestamp`` is an RFC 3339 time string, ``YYYY-MM-DDTHH:MM:SS`` with an optional
  fraction and an optional ``Z`` or ``±HH:MM`` offset (none: UTC), within years 1 to
  9999 once the offset is applied; it is kept in whole milliseconds;
- every field the reader asked for is absent, ``null``, or of its ``TraceRow`` type,
  checked strictly: a string field holds a JSON string, an integer field a JSON integer
  within ±(2^63 − 1) (``"12"``, ``1.5`` and ``1.0`` are not integers), a boolean
  ``true`` or ``false``, ``durationMs`` a finite number (``1e999`` and ``NaN`` are not),
  ``rateLimitReset`` an epoch second in years 1 to 9999, ``args`` a list of strings.

Which fields are checked follows the columns a reader builds (``COLUMN_FIELDS``): a
field nothing reads cannot change a figure, so a row whose unread field is wrong-typed
is kept. ``args`` is read only for ``repo`` and only on rows whose endpoint does not
name the repository. Unknown fields are never looked at. DuckDB keeps the first of two
duplicate keys.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from ghbench.trace.frame import CATEGORICAL_COLUMNS, COLUMNS
from ghbench.trace.schema import TraceRow

__all__ = ["COLUMN_FIELDS", "FIELD_KINDS", "Kind", "Selection", "fields_for", "quote"]

INT64_MAX = 2**63 - 1  # -2**63 is the frame's missing-value marker, so it is refused too
# rateLimitReset is epoch seconds, and every time is one of years 1 to 9999 (UTC)
RESET_RANGE_S = (-62_135_596_800, 253_402_300_799)
TIME_RANGE_MS = (RESET_RANGE_S[0] * 1000, RESET_RANGE_S[1] * 1000 + 999)
# RFC 3339's date-time (the offset optional, as ISO 8601 allows), inside its JSON quotes
_TIME_SHAPE = (
    r'"\d{4}-\d\d-\d\dT([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?"'
)
_SHOWN = 60  # characters of an offending value a warning quotes
# toISOString()'s shape, the one JavaScript and ghbench's writer give every row, is read
# by a fixed-width pattern and strptime: a third of the cost of the regular expression
# and the general cast, which now read only the other shapes. strptime alone takes a
# field narrower than its width ("1" for a month) but no sign, space or extra digit, so
# within the pattern's widths it accepts what _TIME_SHAPE accepts, as the same instant.
_COMMON_SHAPE = "'\"____-__-__T__:__:__.___Z\"'"  # SQL literals
_COMMON_FORMAT = "'\"%Y-%m-%dT%H:%M:%S.%gZ\"'"


class Kind(Enum):
    """A field's JSON type, as ``TraceRow`` declares it."""

    TEXT = "a string"
    INTEGER = "an integer"
    NUMBER = "a finite number"
    BOOLEAN = "true or false"
    TEXTS = "a list of strings"


def _kind(annotation: object) -> Kind:
    options = [t for t in typing.get_args(annotation) if t is not types.NoneType] or [annotation]
    (base,) = options
    kinds = {str: Kind.TEXT, int: Kind.INTEGER, float: Kind.NUMBER, bool: Kind.BOOLEAN}
    return Kind.TEXTS if base == list[str] else kinds[base]


FIELD_KINDS: dict[str, Kind] = {
    name: _kind(hint)
    for name, hint in typing.get_type_hints(TraceRow).items()
    if name in TraceRow.__struct_fields__
}

# The trace fields each frame column is built from (``repo``: the endpoint, else args).
COLUMN_FIELDS: dict[str, tuple[str, ...]] = {
    "ts_ms": ("timestamp",),
    "duration_ms": ("durationMs",),
    "ok": ("ok",),
    "exit_code": ("exitCode",),
    "http_status": ("httpStatus",),
    "rate_limit_limit": ("rateLimitLimit",),
    "rate_limit_remaining": ("rateLimitRemaining",),
    "rate_limit_reset": ("rateLimitReset",),
    "graphql_cost": ("graphqlCost",),
    "graphql_remaining": ("graphqlRemaining",),
    "rate_limit_call": ("endpoint",),
    "operation": ("operation",),
    "component": ("component",),
    "resource": ("rateLimitResource",),
    "session_id": ("sessionId",),
    "method": ("method",),
    "endpoint": ("endpoint",),
    "repo": ("endpoint", "args"),
    "origin": ("origin",),
    "rate_limited": ("rateLimited",),
}
assert set(COLUMN_FIELDS) == set(COLUMNS)


def fields_for(columns: Collection[str]) -> tuple[str, ...]:
    """The trace fields ``columns`` are built from, in schema order (timestamp always)."""
    unknown = set(columns) - set(COLUMNS)
    if unknown:
        raise ValueError(f"unknown trace frame column(s): {', '.join(sorted(unknown))}")
    wanted = {"timestamp"}.union(*(COLUMN_FIELDS[c] for c in columns))
    return tuple(f for f in TraceRow.__struct_fields__ if f in wanted)


def quote(text: str) -> str:
    """``text`` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _t(field: str) -> str:
    """The column holding the field's JSON text (DuckDB's serialisation; NULL: absent)."""
    return f"t_{field}"


# DuckDB's JSON text is compact: a list of strings is exactly this
_CHARACTERS = r"(?:[^\"\\]|\\.)*"  # inside a JSON string's quotes
_STRING = f'"{_CHARACTERS}"'
_TEXTS = rf"\[({_STRING}(,{_STRING})*)?\]"
# When a present field (its JSON text ``{t}``, its cast ``{v}``) has its type. The
# integer cast rounds 1.5 and reads 1e3, so an integer's text must hold no . or e.
_TYPE_OK: dict[Kind, str] = {
    Kind.TEXT: "starts_with({t}, '\"')",
    Kind.INTEGER: f"{{v}} > {-INT64_MAX - 1} AND NOT (contains({{t}}, '.') OR"
    " contains({t}, 'e') OR contains({t}, 'E'))",
    Kind.NUMBER: "isfinite({v})",
    Kind.BOOLEAN: "{t} IN ('true', 'false')",
    Kind.TEXTS: f"regexp_full_match({{t}}, {quote(_TEXTS)})",
}
_CAST = {Kind.INTEGER: "BIGINT", Kind.NUMBER: "DOUBLE"}
# frame column values from a well-typed field (``{t}`` its text, ``{v}`` its cast)
_VALUES: dict[str, str] = {
    "ts_ms": "v_timestamp",
    "duration_ms": "coalesce({v}, 'NaN'::DOUBLE)",
    "ok": "(CASE {t} WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE -1 END)::TINYINT",
    # the JSON text of ``frame.RATE_LIMIT_ENDPOINT`` (a JSON string, its quotes included)
    "rate_limit_call": (
        "(CASE WHEN regexp_full_match(coalesce({t}, ''), '\"/?rate_limit(\\?.*)?\"')"
        " THEN 1 ELSE 0 END)::TINYINT"
    ),
}
_INTEGER_VALUE = f"coalesce({{v}}, {-INT64_MAX - 1})"  # missing: the frame's NA
_REPO_ENDPOINT = quote(r"^repos/([^/?]+)/([^/?]+)")
_ENDPOINT_PATH = "ltrim(json_extract_string(t_endpoint, '$'), '/')"
# the first ``--repo R``, ``-R R`` or ``--repo=R`` of args (JSON text of a list of
# strings): the leftmost match is the first element; the value stays JSON text
# (``option`` is empty when nothing matched)
_ARGS_REPO = quote(rf'[\[,]("(?:--repo|-R)","|"--repo=)({_CHARACTERS})"')


@dataclass(frozen=True)
class Selection:
    """The SQL of one read: which fields are judged and which columns come out.

    Layers over DuckDB's scan: each field's JSON text (``t_<field>``); the casts, the
    repository an endpoint names (``endpoint_repo``) and each categorical column's
    label as JSON text (``l_<column>``) and code among the labels the reader registered
    (``c_<column>``); each check that skips a line (``bad_<n>``); then the output, per
    non-blank line in file order: each numeric column, each categorical column's code
    (``code_<column>``, -1 for none) and ``note``: NULL for a row, the reason for a
    skipped line, or for a row holding a label the reader did not register, ``LABELS``
    and a JSON array of them (null where the label is known).
    """

    columns: frozenset[str]
    fields: tuple[str, ...]
    whole: bool = False  # whole rows: every known field, args always checked

    @classmethod
    def of(cls, columns: Collection[str]) -> Selection:
        wanted = frozenset(columns) | {"ts_ms"}
        return cls(wanted, fields_for(wanted))

    @classmethod
    def whole_rows(cls) -> Selection:
        return cls(frozenset(), TraceRow.__struct_fields__, whole=True)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(c for c in CATEGORICAL_COLUMNS if c in self.columns)

    @property
    def numbers(self) -> tuple[str, ...]:
        return tuple(c for c in COLUMNS if c in self.columns and c not in CATEGORICAL_COLUMNS)

    def labels(self, path: str, max_line_bytes: int, rows: int) -> str:
        """Each categorical column's distinct labels (JSON texts) in the first ``rows``."""
        picks = ", ".join(f"list(DISTINCT l_{c})" for c in self.categories)
        return f"SELECT {picks} FROM ({self._typed(path, max_line_bytes, {})} LIMIT {rows})"

    def query(self, path: str, max_line_bytes: int, enums: dict[str, str]) -> str:
        """The frame's columns and each line's note; ``enums`` names the ENUM type of
        registered labels of each categorical column that has one."""
        out = []
        for column in self.numbers:
            (field,) = COLUMN_FIELDS[column]
            template = _VALUES.get(column, _INTEGER_VALUE)
            out.append(f"{template.format(t=_t(field), v=f'v_{field}')} AS {column}")
        late, uncoded = [], []  # each column's label when it has no code; whether it has
        for column in self.categories:
            if column in enums:
                out.append(f"coalesce(enum_code(c_{column})::INTEGER, -1) AS code_{column}")
                late.append(f"CASE WHEN c_{column} IS NULL THEN l_{column} END")
                uncoded.append(f"(c_{column} IS NULL AND l_{column} IS NOT NULL)")
            else:
                out.append(f"-1 AS code_{column}")
                late.append(f"l_{column}")
                uncoded.append(f"l_{column} IS NOT NULL")
        labels = "NULL"
        if late:
            listed = f"to_json([{', '.join(late)}])"
            labels = f"CASE WHEN {' OR '.join(uncoded)} THEN 'LABELS' || {listed} END"
        out.append(f"{self._reason(otherwise=labels)} AS note")
        return f"SELECT {', '.join(out)} FROM ({self._judged(path, max_line_bytes, enums)})"

    def rows_query(self, path: str, max_line_bytes: int) -> str:
        """Each field's JSON text and the line's note (why it is skipped, or NULL)."""
        texts = ", ".join(_t(f) for f in self.fields)
        note = self._reason(otherwise="NULL")
        return f"SELECT {texts}, {note} AS note FROM ({self._judged(path, max_line_bytes, {})})"

    def _scan(self, path: str, max_line_bytes: int) -> str:
        typed = ", ".join(f"{quote(f)}: 'JSON'" for f in self.fields)
        texts = ", ".join(f'CAST("{f}" AS VARCHAR) AS {_t(f)}' for f in self.fields)
        return (
            f"SELECT {texts} FROM read_json({quote(path)}, format = 'newline_delimited',"
            f" records = true, ignore_errors = true, maximum_object_size = {max_line_bytes},"
            f" columns = {{{typed}}})"
        )

    def _typed(self, path: str, max_line_bytes: int, enums: dict[str, str]) -> str:
        # the time inside the quotes (a text that is no time fails the cast)
        common = (
            f"CASE WHEN t_timestamp LIKE {_COMMON_SHAPE}"
            f" THEN epoch_us(TRY_STRPTIME(t_timestamp, {_COMMON_FORMAT})) END"
        )
        cast = "epoch_us(TRY_CAST(t_timestamp[2:-2] AS TIMESTAMPTZ))"
        cols = ["*", f"{common} AS us_common", f"coalesce(us_common, {cast}) AS us_timestamp"]
        for field in self.fields:
            kind = FIELD_KINDS[field]
            if kind in _CAST:
                cols.append(f"TRY_CAST({_t(field)} AS {_CAST[kind]}) AS v_{field}")
        if "endpoint" in self.fields:
            found = f"regexp_extract({_ENDPOINT_PATH}, {_REPO_ENDPOINT}, ['owner', 'name'])"
            cols.append(f"nullif({found}.owner || '/' || {found}.name, '/') AS endpoint_repo")
        scan = f"SELECT {', '.join(cols)} FROM ({self._scan(path, max_line_bytes)})"
        # to the millisecond below it, as JavaScript's Date reads it (// truncates)
        below = "(us_timestamp - (us_timestamp % 1000 + 1000) % 1000) // 1000"
        labelled = ["*", f"{below} AS v_timestamp"]
        for column in self.categories:
            label = self._label(column)
            labelled.append(f"{label} AS l_{column}")
            if column in enums:
                labelled.append(f"TRY_CAST({label} AS {enums[column]}) AS c_{column}")
        return f"SELECT {', '.join(labelled)} FROM ({scan})"

    def _label(self, column: str) -> str:
        """The JSON text of the string a categorical column holds for the row (NULL:
        none; DuckDB's serialisation, the same for the same string)."""
        if column == "repo":
            found = f"regexp_extract(t_args, {_ARGS_REPO}, ['option', 'value'])"
            from_args = f"CASE WHEN {found}.option <> '' THEN '\"' || {found}.value || '\"' END"
            return f"coalesce(to_json(endpoint_repo)::VARCHAR, {from_args})"
        (field,) = COLUMN_FIELDS[column]
        return f"(CASE WHEN starts_with({_t(field)}, '\"') THEN {_t(field)} END)"

    def _judged(self, path: str, max_line_bytes: int, enums: dict[str, str]) -> str:
        bad = ", ".join(
            f"coalesce({check}, false) AS bad_{n}" for n, (check, _) in enumerate(self._checks())
        )
        return f"SELECT *, {bad} FROM ({self._typed(path, max_line_bytes, enums)})"

    def _reason(self, *, otherwise: str) -> str:
        """The first check a line fails, told, or ``otherwise``."""
        whens = " ".join(f"WHEN bad_{n} THEN {why}" for n, (_, why) in enumerate(self._checks()))
        return f"CASE {whens} ELSE {otherwise} END"

    def _checks(self) -> list[tuple[str, str]]:
        """(condition under which the line is no row, why) in the order they are told."""
        shown = f"left(t_timestamp, {_SHOWN})"
        low, high = TIME_RANGE_MS
        checks = [
            (
                "t_timestamp IS NULL",
                "'not a JSON object with a timestamp (malformed, truncated or not a trace row)'",
            ),
            (
                # CASE, not AND: DuckDB evaluates both sides of an AND on every row
                f"CASE WHEN us_common IS NULL THEN"
                f" NOT regexp_full_match(t_timestamp, {quote(_TIME_SHAPE)}) END",
                f"'timestamp ' || {shown} || ' is not an RFC 3339 time'",
            ),
            (
                f"NOT coalesce(v_timestamp BETWEEN {low} AND {high}, false)",
                f"'timestamp ' || {shown} || ' is not a valid time in years 1 to 9999 (UTC)'",
            ),
        ]
        for field in self.fields:
            if field == "timestamp":
                continue
            kind = FIELD_KINDS[field]
            t, v = _t(field), f"v_{field}"
            present = f"{t} IS NOT NULL"
            if field == "args" and not self.whole:  # for repo only: where no endpoint names it
                present += " AND endpoint_repo IS NULL"
            shown = f"left({t}, {_SHOWN})"
            ok = _TYPE_OK[kind].format(t=t, v=v)
            why = f"'wrong type: {field} is ' || {shown} || ', not {kind.value}'"
            checks.append((f"{present} AND NOT coalesce({ok}, false)", why))
            if field == "rateLimitReset":
                low_s, high_s = RESET_RANGE_S
                why = f"'rateLimitReset ' || {shown} || ' is not a time in years 1 to 9999'"
                checks.append((f"{present} AND {v} NOT BETWEEN {low_s} AND {high_s}", why))
        return checks
