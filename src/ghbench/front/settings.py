"""The front's typed settings, counts and control messages.

The parent (``process.Front``) and the front's process (``serve``) speak JSON lines
over the child's stdin and stdout: the settings first, then one ``Command`` per line,
each answered by one ``Reply`` line. The pipe is private to the two processes, so
nothing else can switch a trace or read a count, and its end-of-file tells the front
that its parent is gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import msgspec

from ghbench.errors import UsageError
from ghbench.trace.writer import TraceLoss

__all__ = [
    "Cause",
    "Command",
    "FrontCounts",
    "FrontMode",
    "FrontSettings",
    "Ready",
    "Reply",
    "Upstream",
    "parse_upstream",
]

FrontMode = Literal["emulate", "forward"]


class FrontSettings(msgspec.Struct, frozen=True, kw_only=True):
    """How to run one front.

    ``mode``: ``emulate`` answers GitHub's hosts from the emulator at ``upstream``
    and refuses every other host; ``forward`` sends GitHub's requests on unchanged,
    to GitHub itself or to ``upstream`` when given, and tunnels other hosts untouched.
    ``upstream``: ``http://HOST:PORT``, ``https://HOST[:PORT]`` or ``unix:/PATH`` (a
    unix socket spoken to in plain HTTP). ``state_dir``: where the CA's files go.
    ``trace``: the JSONL trace rows are appended to, or None (untraced, e.g. setup).
    ``agent_trace``: where rows of a client with a session go instead (an
    orchestrator's agents, beside its own trace); None: into ``trace`` too.
    ``session_from``: environment variables naming a client's session (AO's
    ``AO_SESSION_ID``): when a client's proxy credential names none, the session is the
    first of these set in the environment of the local process that connected.
    ``component``: the component of rows whose client the User-Agent table does not
    know. ``keep_ca``: keep the CA's key in ``state_dir`` when the front stops, and use a
    kept CA still valid for ``ca_lifetime`` instead of minting one (otherwise no key
    outlives the front, nor stays on disk while it runs). ``ca_lifetime``: seconds the
    CA must stay valid (a margin is added). ``secret``: the proxy credential's password
    clients must send (``start_front`` makes one per front when None).
    ``head_timeout``: seconds a client may take to send a request head, or to finish
    TLS after its CONNECT. ``max_connections``: client connections served at once (more
    are answered 503). ``workers``: processes serving clients on the same port (0: one
    per core, at most 4). ``port``: 0 picks a free one.
    """

    mode: FrontMode
    state_dir: str
    upstream: str | None = None
    trace: str | None = None
    agent_trace: str | None = None
    session_from: tuple[str, ...] = ()
    component: str = "front"
    keep_ca: bool = False
    ca_lifetime: float = 24 * 3600.0
    secret: str | None = None
    head_timeout: float = 10.0
    max_connections: int = 4096
    workers: int = 0
    port: int = 0


class FrontCounts(msgspec.Struct, kw_only=True):
    """What reached the front since its trace was last set (or since it started).

    ``exchanges``: HTTP exchanges with GitHub's hosts (each one a row when traced);
    ``refused``: requests for hosts the front does not serve, refused with a row;
    ``tunnelled``: tunnels passed through untouched (forward: GitHub's other hosts and
    the upstream); ``failed_handshakes``: clients that did not complete TLS with the
    front (a TLS alert, most often: the CA is not trusted; or no TLS at all);
    ``abandoned``: tunnels a client closed, or left idle, before any TLS;
    ``unauthorized``: requests without the front's proxy credential (407, no row);
    ``client_aborts``: exchanges whose client left before its whole answer arrived;
    ``upstream_errors``: exchanges the front answered 502 because the emulator or
    GitHub could not be reached; ``rows_written`` / ``rows_lost``: rows that reached
    the trace, and rows that could not be written (a full disk), ``losses`` the same
    per trace with why; ``warnings``: one line per cause, with how often it was
    seen (300 clients failing alike are one line), e.g. which variable a client needs.
    """

    exchanges: int = 0
    refused: int = 0
    tunnelled: int = 0
    failed_handshakes: int = 0
    abandoned: int = 0
    unauthorized: int = 0
    client_aborts: int = 0
    upstream_errors: int = 0
    rows_written: int = 0
    rows_lost: int = 0
    losses: list[TraceLoss] = msgspec.field(default_factory=list)
    warnings: list[str] = msgspec.field(default_factory=list)

    @property
    def reached(self) -> bool:
        """True when any client reached the front at all."""
        contacts = self.exchanges + self.refused + self.tunnelled + self.failed_handshakes
        return contacts + self.abandoned > 0


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """One control request: ``status``; ``trace`` (switch to ``path``, None: untraced,
    and the agents' rows to ``agent_path``); ``close`` (answer, then stop)."""

    op: Literal["status", "trace", "close"]
    path: str | None = None
    agent_path: str | None = None


_EXAMPLES = 3  # clients a warning seen from many names


class Cause(msgspec.Struct, kw_only=True):
    """One warning's cause: its line, how often it was seen, a few of the clients."""

    key: str
    message: str
    seen: int = 0
    examples: list[str] = msgspec.field(default_factory=list)

    def add(self, seen: int, examples: list[str]) -> None:
        self.seen += seen
        for example in examples:
            if example not in self.examples and len(self.examples) < _EXAMPLES:
                self.examples.append(example)

    def line(self) -> str:
        if self.seen == 1:
            return f"{self.message} ({self.examples[0]})" if self.examples else self.message
        named = f"; e.g. {', '.join(self.examples)}" if self.examples else ""
        return f"{self.message} (seen {self.seen:,} times{named})"


class Reply(msgspec.Struct, frozen=True, kw_only=True):
    """The counts of the segment a command ended (``trace``, ``close``) or of the
    current one (``status``); ``error`` when the command could not be done. A worker's
    reply to the front's first process carries its warnings' ``causes`` (merged there,
    then rendered as ``counts.warnings``)."""

    counts: FrontCounts
    error: str | None = None
    causes: list[Cause] = msgspec.field(default_factory=list)


class Ready(msgspec.Struct, frozen=True, kw_only=True):
    """The front's first line on stdout: where it listens and its CA's files."""

    port: int
    ca_cert: str
    bundle: str


@dataclass(frozen=True)
class Upstream:
    """Where requests are sent: a TCP address (TLS or not) or a unix socket."""

    scheme: str  # http | https
    host: str
    port: int
    socket: str | None = None

    def describe(self) -> str:
        if self.socket is not None:
            return f"unix:{self.socket}"
        return f"{self.scheme}://{self.host}:{self.port}"


def parse_upstream(text: str, flag: str = "--upstream") -> Upstream:
    """``http://HOST:PORT``, ``https://HOST[:PORT]`` or ``unix:/PATH``; UsageError
    naming ``flag`` otherwise."""
    if text.startswith("unix:"):
        path = text[len("unix:") :]
        if not path.startswith("/"):
            raise UsageError(f"{flag} {text}: give the unix socket's absolute path (unix:/PATH)")
        return Upstream("http", "localhost", 0, path)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(
            f"{flag} {text!r} is not a server's address; give http://HOST:PORT or https://HOST"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise UsageError(
            f"{flag} {text}: give the server's address only (scheme, host, port), no path"
        )
    default = 443 if parts.scheme == "https" else 80
    return Upstream(parts.scheme, parts.hostname, port or default)
