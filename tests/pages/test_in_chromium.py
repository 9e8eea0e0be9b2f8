"""Every page type as Chromium renders it: nothing requested from any host, the numbers
shown are the JSON's, and it fits a phone's width and a printed page's.

The pages come from the real commands (``simulate`` with agents, ``report --example``,
``compare --html``, ``capacity``, a three-cell ``matrix run``), each held to the JSON
document it was rendered from: the scorecard artifact, ``compare --json``, ``capacity
--json`` and ``baseline.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tooling.pagebrowser import PHONE_WIDTH, PageBrowser

from .pagecheck import check_figures, external_references, figures

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Rendered:
    kind: str
    page: Path
    doc: Any  # the JSON the page was rendered from


def _ghbench(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode in ok, proc.stderr
    return proc.stdout


def _scorecard_page(out: Path) -> Rendered:
    (page,) = out.glob("report-*.html")
    (card,) = out.glob("scorecard-*.json")
    return Rendered("scorecard", page, json.loads(card.read_text()))


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rendered]:
    root = tmp_path_factory.mktemp("pages")
    quick = ("--sessions", "5", "--warmup", "1m", "--duration", "5m")
    _ghbench(
        "simulate", "--scenario", "S3", "--agents", "claude-code", *quick, "--out", str(root / "a")
    )
    _ghbench("simulate", *quick, "--profile", "ao-bench-1e73a505", "--out", str(root / "b"))
    _ghbench("report", "--example", "--out", str(root / "report"))
    compared = _ghbench(
        "compare",
        str(root / "b"),
        str(root / "a"),
        "--allow-different-cells",
        "--json",
        "--fail",
        "graphqlPointsPerHr>+10%",
        "--fail",
        "secondaryLimits.concurrency.peak>80",
        "--html",
        str(root / "compare.html"),
        ok=(0, 3),
    )
    capacity = _ghbench(
        "capacity",
        "--scenario",
        "S2",
        "--warmup",
        "30s",
        "--duration",
        "2m",
        "--max-sessions",
        "40",
        "--out",
        str(root / "cap"),
        "--json",
    )
    _ghbench("matrix", "run", "--cells", "S2-T1-1,S2-T1-5,S2-T1-10", "--out", str(root / "mx"))
    cap = json.loads(capacity)
    return {
        "scorecard": _scorecard_page(root / "a"),
        "report": _scorecard_page(root / "report"),
        "compare": Rendered("compare", root / "compare.html", json.loads(compared)),
        "capacity": Rendered("capacity", Path(cap["page"]), cap),
        "matrix": Rendered(
            "matrix",
            root / "mx" / "baseline.html",
            json.loads((root / "mx" / "baseline.json").read_text()),
        ),
    }


KINDS = ["scorecard", "report", "compare", "capacity", "matrix"]


@pytest.mark.parametrize("name", KINDS)
def test_the_page_requests_nothing_and_shows_the_json_numbers(
    name: str, pages: dict[str, Rendered], browser: PageBrowser
) -> None:
    rendered = pages[name]
    text = rendered.page.read_text()
    assert external_references(text) == []
    loaded = browser.load(rendered.page)
    assert loaded.requests == (rendered.page.resolve().as_uri(),)
    assert f'data-page="{rendered.kind}"' in loaded.dom
    shown = figures(loaded.dom)
    assert check_figures(shown, rendered.doc) >= 10
    assert shown == figures(text)  # the browser shows what was written, all of it


@pytest.mark.parametrize("name", KINDS)
def test_the_page_fits_a_phone_and_a_printed_sheet(
    name: str, pages: dict[str, Rendered], browser: PageBrowser
) -> None:
    page = pages[name].page
    assert browser.load(page, width=PHONE_WIDTH).overflow == 0
    assert browser.load(page, width=700, media="print").overflow == 0


def test_the_scorecard_page_says_the_verdict_first_and_who_spent(
    pages: dict[str, Rendered], browser: PageBrowser
) -> None:
    rendered = pages["scorecard"]
    dom = browser.load(rendered.page).dom
    verdict, scorecard, burn, who = (
        dom.index(marker)
        for marker in ('class="verdict', 'id="scorecard"', 'id="burn"', 'id="who"')
    )
    assert verdict < scorecard < burn < who
    split = rendered.doc["insights"]["spendSplit"]
    assert split["agents"]["calls"] > 0
    for session in split["agentSessions"]:
        assert f"<code>{session['key']}</code>" in dom
    for resource in ("graphql", "core"):
        assert f'data-resource="{resource}"' in dom


def test_a_reference_to_a_host_would_be_seen(
    pages: dict[str, Rendered], browser: PageBrowser, tmp_path: Path
) -> None:
    """The request check can fail: a page that fetches is caught, its policy bypassed."""
    text = pages["report"].page.read_text()
    page = tmp_path / "fetches.html"
    page.write_text(text.replace("</main>", '<img src="https://example.com/x.png"></main>'))
    loaded = browser.load(page)
    assert "https://example.com/x.png" in loaded.requests
