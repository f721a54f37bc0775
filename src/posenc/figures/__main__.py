"""`python -m posenc.figures OUTDIR [NAME ...]`: write the book's figures, in English into
OUTDIR and in Chinese (the Chinese edition's drawings) into OUTDIR/zh_CN.

This is what `make figures` runs.
"""

import argparse
import sys

import matplotlib

matplotlib.use("Agg")  # files only; never open a window

from . import names, write_all  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m posenc.figures", description=__doc__
    )
    parser.add_argument(
        "outdir", help="folder to write NAME.svg, NAME.png, NAME.pdf and NAME.phone.svg into "
        "(and the Chinese ones into its zh_CN/)"
    )
    parser.add_argument("names", nargs="*", help="figures to write (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(names()))
    if unknown:
        parser.error(f"unknown figure(s) {unknown}; known: {names()}")
    written = write_all(args.outdir, args.names or None)
    figures = len({path.name.split(".")[0] for path in written})
    print(f"wrote {len(written)} files for {figures} figures to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
