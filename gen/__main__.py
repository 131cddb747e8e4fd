"""Command line: ``python3 -m gen {render,mpfr-ref} ...``.

Every failure prints one line and exits with status 2 having written
nothing: ``gen: error: <config>: <what is wrong>`` for a config, ``gen:
error: <path>: ...`` for a folder or a file the system refuses.  A bug of
the generator itself prints ``gen: internal error: ...`` and exits with 3
(FXP_GEN_TRACEBACK=1 shows the traceback instead).  Each kernel folder is
replaced all at once (toolkit.files.replace_folder), and never when it
holds files the generator did not write.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

import kfolder
from toolkit.files import FolderError, check_replaceable, replace_folder

from . import config, fingerprint, kernel, progress, render
from .errors import GenError


def _built(paths: list[str]) -> list[kernel.Kernel]:
    """Every config loaded, then built (GenError names the config at fault)."""
    cfgs = []
    for path in paths:
        try:
            cfgs.append(config.load(path))
        except GenError as exc:
            raise GenError(f"{path}: {exc}") from None
    names = [c.name for c in cfgs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise GenError(f"{paths[names.index(twice[0])]}: name: {twice[0]!r} is the name of another config too")
    if len(cfgs) == 1:
        try:
            return [kernel.build(cfgs[0])]
        except GenError as exc:
            raise GenError(f"{paths[0]}: {exc}") from None
    progress.report(f"building {len(cfgs)} kernels, one per process")
    results = kernel.build_many(cfgs)
    for path, result in zip(paths, results):
        if isinstance(result, GenError):
            raise GenError(f"{path}: {result}")
    return results


def cmd_render(args: argparse.Namespace) -> int:
    out = Path(args.out)
    with progress.Reporter() if not args.quiet else contextlib.nullcontext():
        built = _built(args.configs)
    outputs = [(k.cfg.name, render.render(k, args.out)) for k in built]
    for name, files in outputs:      # refuse before writing anything
        check_replaceable(out / name, files, kfolder.layout(name).written())
    for name, files in outputs:
        changed = replace_folder(out / name, files, kfolder.layout(name).written())
        if not args.quiet:
            print(f"{out / name}: {'written' if changed else 'unchanged'}", file=sys.stderr)
    return 0


def cmd_mpfr_ref(args: argparse.Namespace) -> int:
    try:
        cfg = config.load(args.config)
    except GenError as exc:
        raise GenError(f"{args.config}: {exc}") from None
    sys.stdout.write(render.mpfr_reference(cfg))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python3 -m gen", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version",
                        version=f"fxp-kernels generator and templates sha256 {fingerprint.short()}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("render", help="build kernels from configs and write <out>/<name>/")
    p.add_argument("configs", nargs="+", help="kernel config files (TOML)")
    p.add_argument("--out", default="generated", help="output folder (default: generated)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("mpfr-ref", help="print the function as MPFR C code, for the checker")
    p.add_argument("config")
    p.set_defaults(func=cmd_mpfr_ref)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (GenError, FolderError) as exc:
        print(f"gen: error: {exc}", file=sys.stderr)
    except OSError as exc:
        where = exc.filename2 or exc.filename or "output"
        print(f"gen: error: {where}: {exc.strerror or exc}; nothing written", file=sys.stderr)
    except (MemoryError, RecursionError) as exc:
        print(f"gen: error: out of memory or recursion ({type(exc).__name__}); nothing written", file=sys.stderr)
    except Exception as exc:       # a bug: say so in one line, unless asked for the traceback
        if os.environ.get("FXP_GEN_TRACEBACK"):
            raise
        print(f"gen: internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:200]} "
              "(FXP_GEN_TRACEBACK=1 shows where)", file=sys.stderr)
        return 3
    return 2


if __name__ == "__main__":
    sys.exit(main())
