"""Node.js clients through the front: the preload file, and where it is.

Node routes ``fetch()`` and its ``http``/``https`` global agents through ``HTTPS_PROXY``
by itself only from 22.21 and 24.5 on, and only when ``NODE_USE_ENV_PROXY=1``
(24.0-24.4: ``fetch()`` alone). ``node_preload.cjs``, shipped in this package, does
the same on the versions that lack it (Debian's Node 20 among them) and stands aside
where Node does it; ``env.client_environment`` gives clients both (docs/record.md).

The preload is used where the package is installed; it is written (to the front's
state directory) only when the package is not a directory on disk (a zip import).
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["PRELOAD", "preload_file"]

PRELOAD = "node_preload.cjs"


def preload_file(state_dir: Path, packaged: Traversable | None = None) -> Path:
    """The preload's path on disk: the package's own file (``packaged``: where the
    package has it), else a copy in ``state_dir``."""
    if packaged is None:
        packaged = files("ghbench.front") / PRELOAD
    if isinstance(packaged, Path) and packaged.is_file():
        return packaged
    state_dir.mkdir(parents=True, exist_ok=True)
    copy = state_dir / PRELOAD
    text = packaged.read_bytes()
    if not copy.is_file() or copy.read_bytes() != text:
        partial = copy.with_name(f".{PRELOAD}.partial")
        partial.write_bytes(text)
        partial.replace(copy)
    return copy
