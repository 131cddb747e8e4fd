"""Command line: ``python3 -m gen {render,mpfr-ref} ...``.

Every user error prints one line, ``gen: error: <config>: <what is wrong>``,
and exits with status 2 having written nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import VERSION, config, kernel, render
from .render.writer import write_atomic
from .errors import GenError


def _progress(quiet: bool):
    live = not quiet and sys.stderr.isatty()

    def report(message: str) -> None:
        if live:
            print(f"\r\033[K{message}", end="", file=sys.stderr, flush=True)
    return report


def cmd_render(args: argparse.Namespace) -> int:
    cfgs = []
    for path in args.configs:
        try:
            cfgs.append(config.load(path))
        except GenError as exc:
            print(f"gen: error: {path}: {exc}", file=sys.stderr)
            return 2
    if len(cfgs) == 1:
        results: list = []
        try:
            results.append(kernel.build(cfgs[0], _progress(args.quiet)))
        except GenError as exc:
            results.append(exc)
    else:
        results = kernel.build_many(cfgs)
    built = []
    for path, result in zip(args.configs, results):
        if isinstance(result, GenError):
            if not args.quiet and sys.stderr.isatty():
                print(file=sys.stderr)
            print(f"gen: error: {path}: {result}", file=sys.stderr)
            return 2
        built.append(result)
    outputs = [(k, render.render(k, args.out)) for k in built]
    if not args.quiet and sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)
    for k, files in outputs:
        folder = Path(args.out) / k.cfg.name
        previous = {p.name for p in folder.iterdir() if p.is_file()} if folder.is_dir() else set()
        written = write_atomic(folder, files, prune=previous)
        if not args.quiet:
            state = f"wrote {', '.join(written)}" if written else "unchanged"
            print(f"{folder}: {state}", file=sys.stderr)
    return 0


def cmd_mpfr_ref(args: argparse.Namespace) -> int:
    try:
        cfg = config.load(args.config)
    except GenError as exc:
        print(f"gen: error: {args.config}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render.mpfr_reference(cfg))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m gen", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("render", help="build kernels from configs and write generated/<name>/")
    p.add_argument("configs", nargs="+", help="kernel config files (TOML)")
    p.add_argument("--out", default="generated", help="output folder (default: generated)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("mpfr-ref", help="print the function as MPFR C code, for the checker")
    p.add_argument("config")
    p.set_defaults(func=cmd_mpfr_ref)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
