"""Measure the reader's main path of the built chapters (issue: a learner's book).

The main path is what a reader sees on a chapter page without opening anything: prose,
captions and visible code. Folded material is excluded: ``<details>`` (hidden cell
inputs, "Going deeper" boxes and dropdowns), togglebutton dropdowns, and the page's
navigation. Cell outputs are not prose and are not counted as words.

    python tools/main_path.py [_build/html] [--json]

Per chapter: prose words, visible code lines, visible code lines over 88 characters,
visible ``glue(`` calls, e-notation numbers in prose.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = re.compile(r"ch\d\d-[\w-]+\.html$")
E_NOTATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?e[+-]?\d+\b")
LONGEST_LINE = 88


def folded(soup: BeautifulSoup) -> None:
    """Remove, in place, everything a reader must click to see."""
    for node in soup.select("details, div.dropdown, div.toggle, .toggle-hidden"):
        node.decompose()


def measure(page: Path) -> dict:
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article.bd-article") or soup.body
    folded(article)
    for node in article.select(".headerlink, .tag_remove-input .cell_input"):
        node.decompose()
    code_lines = []
    for cell in article.select("div.cell_input"):
        code_lines += cell.get_text().rstrip("\n").split("\n")
        cell.decompose()
    for node in article.select("div.cell_output, div.output, script, style"):
        node.decompose()
    # Literal code blocks in prose (not cells) are code too.
    for block in article.select("div.highlight, pre"):
        code_lines += block.get_text().rstrip("\n").split("\n")
        block.decompose()
    # Mathematics is not counted as words: a formula is read, not skimmed word by word.
    for node in article.select(".math"):
        node.decompose()
    prose_math = text = article.get_text(" ")
    return {
        "words": len(text.split()),
        "code_lines": len(code_lines),
        "long_lines": sum(len(line) > LONGEST_LINE for line in code_lines),
        "glue_calls": sum("glue(" in line for line in code_lines),
        "e_notation": E_NOTATION.findall(prose_math),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pages = sorted(
        p for p in (Path(args.site) / "book").glob("*.html") if CHAPTER.search(p.name)
    )
    results = {page.stem: measure(page) for page in pages}
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        return 0
    print(
        f"{'chapter':32} {'words':>6} {'code':>5} {'>88':>4} {'glue':>5} {'e-not':>5}"
    )
    for name, r in results.items():
        print(
            f"{name:32} {r['words']:6} {r['code_lines']:5} {r['long_lines']:4} "
            f"{r['glue_calls']:5} {len(r['e_notation']):5}"
        )
    total = {
        k: sum(r[k] if isinstance(r[k], int) else len(r[k]) for r in results.values())
        for k in ("words", "code_lines", "long_lines", "glue_calls", "e_notation")
    }
    print(
        f"{'total':32} {total['words']:6} {total['code_lines']:5} "
        f"{total['long_lines']:4} {total['glue_calls']:5} {total['e_notation']:5}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
