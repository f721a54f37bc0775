"""`make bench`: every benchmark of the book in one run, one Markdown report, one JSON
file.

Sections (each a module of this folder with TITLE, measure() and markdown()):
1. build_times: the strict clean build against executing the chapters alone; a no-op
   rebuild; a rebuild after editing one cell; the slowest chapter (on a throw-away copy
   of the committed book);
2. page_weight: per chapter, execution time and page weight, from that copy's built
   HTML;
3. decay_numerics: the decay integral's closed form against QAWO and plain quad;
4. encoding_speed: posenc.sinusoidal and chapter 4's outer product against the seed's
   double loop.
Writes <out>/bench.md and <out>/bench.json; the report ends with which targets are met.
Exit status 0, or 1 with --check when a target is missed. The page timings drive Chromium with
tools/browser.py, as the browser tests do.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent / "tools")]  # tools/browser.py

import build_times  # noqa: E402
import decay_numerics  # noqa: E402
import encoding_speed  # noqa: E402
import page_weight  # noqa: E402

SECTIONS = ["build", "pages", "decay", "encoding"]


def run(sections: list[str]) -> dict:
    results = {}
    if "build" in sections or "pages" in sections:
        with tempfile.TemporaryDirectory(prefix="posenc-bench-") as tmp:
            book = Path(tmp)
            build_times.copy_committed(book)
            results["build"] = build_times.measure(book)
            results["pages"] = page_weight.measure(
                book / "_build" / "html", build_times.pages(book)
            )
    if "decay" in sections:
        results["decay"] = decay_numerics.measure()
    if "encoding" in sections:
        results["encoding"] = encoding_speed.measure()
    return results


def report(results: dict, started: str, seconds: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Run {started} on {platform.node()} ({platform.machine()}, Python "
        f"{platform.python_version()}), {seconds:.0f} s in all.",
        "",
    ]
    if "build" in results:
        lines += [f"## {build_times.TITLE}", "", build_times.markdown(results["build"])]
    if "pages" in results:
        columns = {}
        if "build" in results:
            columns = {
                "executing alone (s)": results["build"]["execution_alone_per_chapter"],
                "executing in the build (s)": results["build"][
                    "execution_in_build_per_chapter"
                ],
            }
        lines += [
            f"## {page_weight.TITLE}",
            "",
            page_weight.markdown(results["pages"], columns),
        ]
    if "decay" in results:
        lines += [
            f"## {decay_numerics.TITLE}",
            "",
            decay_numerics.markdown(results["decay"]),
        ]
    if "encoding" in results:
        lines += [
            f"## {encoding_speed.TITLE}",
            "",
            encoding_speed.markdown(results["encoding"]),
        ]
    lines += ["## Targets", "", "| target | met |", "|---|---|"]
    lines += [
        f"| {name} | {'yes' if met else '**NO**'} |"
        for section in results.values()
        for name, met in section["targets"].items()
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("_build/bench"))
    parser.add_argument(
        "--only",
        nargs="+",
        choices=SECTIONS,
        default=SECTIONS,
        help="run only these sections",
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a target is missed"
    )
    args = parser.parse_args(argv)
    started, start = time.strftime("%Y-%m-%d %H:%M"), time.perf_counter()
    results = run(args.only)
    text = report(results, started, time.perf_counter() - start)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(json.dumps(results, indent=2, default=str))
    (args.out / "bench.md").write_text(text)
    print(text)
    missed = [
        name
        for section in results.values()
        for name, met in section["targets"].items()
        if not met
    ]
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
