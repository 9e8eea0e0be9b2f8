"""A screenshot of each page type for docs/pages/, made by ``make demo`` after the demo.

    .venv/bin/python scripts/page_screenshots.py [--demo DIR] [--docs docs/pages]

The scorecard page is the demo's own (the newest ``ghbench-out/demo-*``, or ``--demo``);
the compare, capacity and matrix pages come from quick virtual-time runs in a
temporary directory: two builds of the model compared (``compare --html``), a capacity
search, a three-cell matrix. Each is opened in Debian's headless Chromium
(``tooling.pagebrowser``) and shot whole: ``scorecard.png``, ``scorecard-phone.png``
(390 CSS pixels wide), ``compare.png``, ``capacity.png`` and ``matrix.png``. Without
Chromium it says so and writes none. It ends by naming the demo's page.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tooling/: the tests' and scripts' own, not installed

from tooling.pagebrowser import PHONE_WIDTH, PageBrowser  # noqa: E402

QUICK = ("--sessions", "10", "--warmup", "1m", "--duration", "10m")


def _ghbench(*args: str, ok: tuple[int, ...] = (0,)) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, check=False
    )
    if proc.returncode not in ok:
        sys.exit(f"error: ghbench {' '.join(args[:2])} failed: {proc.stderr.strip()}")


def _demo_page(given: Path | None) -> Path:
    if given is None:
        runs = sorted((ROOT / "ghbench-out").glob("demo-*"), key=lambda p: p.stat().st_mtime)
        if not runs:
            sys.exit("error: no ghbench-out/demo-* directory; run `make demo` (or pass --demo DIR)")
        given = runs[-1]
    pages = sorted(given.glob("report-*.html"), key=lambda p: p.stat().st_mtime)
    if not pages:
        sys.exit(f"error: {given} holds no report-*.html; run the demo again")
    return pages[-1]


def _made_pages(work: Path) -> dict[str, Path]:
    """The compare, capacity and matrix pages of quick virtual-time runs under ``work``."""
    _ghbench("simulate", *QUICK, "--profile", "ao-bench-1e73a505", "--out", str(work / "base"))
    _ghbench("simulate", *QUICK, "--profile", "ao-main-60e8c881", "--out", str(work / "head"))
    compare = work / "compare.html"
    _ghbench(
        "compare", str(work / "base"), str(work / "head"), "--html", str(compare),
        "--fail", "graphqlPointsPerHr>+10%", "--fail", "secondaryLimits.concurrency.peak>80",
        ok=(0, 3),
    )  # fmt: skip
    _ghbench(
        "capacity", "--scenario", "S2", "--warmup", "1m", "--duration", "5m",
        "--max-sessions", "200", "--out", str(work / "capacity"),
    )  # fmt: skip
    (capacity,) = (work / "capacity").glob("capacity-*.html")
    matrix = work / "matrix"
    _ghbench("matrix", "run", "--cells", "S2-T1-1,S2-T1-5,S2-T1-50,S2-T2-50", "--out", str(matrix))
    return {"compare": compare, "capacity": capacity, "matrix": matrix / "baseline.html"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--demo", type=Path, default=None, help="the demo's output directory")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "pages")
    args = parser.parse_args()
    demo = _demo_page(args.demo)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("note: no chromium (apt-get install chromium): no screenshots", file=sys.stderr)
    else:
        args.docs.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="ghbench-pages-") as tmp:
            pages = _made_pages(Path(tmp))
            shots = {
                "scorecard": (demo, 1000),
                "scorecard-phone": (demo, PHONE_WIDTH),
                **{name: (page, 1000) for name, page in pages.items()},
            }
            with PageBrowser(chromium) as browser:
                for name, (page, width) in shots.items():
                    png = args.docs / f"{name}.png"
                    png.write_bytes(browser.screenshot(page, width=width))
                    print(
                        f"screenshot: {png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}"
                    )
    print(f"report page: {demo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
