"""Puts the repository's root on ``sys.path``: the bench scripts use ``tooling/``, which
is the repository's and not installed with ghbench. Imported for that effect."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
