"""The kernel-folder facts the Makefile's rules need, one line on stdout:

    python3 -m kfolder cflags FOLDER
        the compiler flags a translation unit that includes the kernel in
        FOLDER needs (empty for most kernels);
    python3 -m kfolder adaptors GEN_DIR NAME...
        the NAMEs whose kernel folder under GEN_DIR ships Falcon adaptors,
        in the order given, separated by spaces;
    python3 -m kfolder fixed-point GEN_DIR NAME...
        the NAMEs whose kernel has the fixed-point interface (_eval and, for
        64-bit kernels, _expm_p63; the sidecar's "fixed_point"), likewise.

A bad folder or usage is a one-line error, exit 2."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from . import Kernel, KernelFolderError, load, load_path

USAGE = "usage: python3 -m kfolder cflags FOLDER | adaptors GEN_DIR NAME... | fixed-point GEN_DIR NAME..."
SELECTORS: dict[str, Callable[[Kernel], bool]] = {"adaptors": lambda k: k.falcon_adaptors, "fixed-point": lambda k: k.fixed_point}


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 2 and argv[0] == "cflags":
            print(" ".join(load_path(Path(argv[1])).cflags))
        elif len(argv) >= 2 and argv[0] in SELECTORS:
            gen_dir, wanted = Path(argv[1]), SELECTORS[argv[0]]
            print(" ".join(n for n in argv[2:] if wanted(load(gen_dir, n))))
        else:
            print(USAGE, file=sys.stderr)
            return 2
    except KernelFolderError as exc:
        print(f"kfolder: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
