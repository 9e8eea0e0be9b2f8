"""docs/emulator.md's endpoint tables are generated from the route table and the
GraphQL schema against GitHub's descriptions; a stale table fails here."""

from __future__ import annotations

import pytest
from emulator_coverage import BEGIN, END
from github_descriptions import GRAPHQL_SDL, OPENAPI, graphql_sdl, load_script, openapi


@pytest.mark.slow
def test_the_endpoint_tables_in_docs_are_current() -> None:
    openapi()  # skip (fail under CI) when the npm packages are missing
    graphql_sdl()
    script = load_script("gen_emulator_docs")
    doc = script.DOC.read_text(encoding="utf-8")
    assert BEGIN in doc and END in doc
    assert script.render(doc, OPENAPI, GRAPHQL_SDL) == doc, "run scripts/gen_emulator_docs.py"
