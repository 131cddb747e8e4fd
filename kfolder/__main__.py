"""``python3 -m kfolder cflags FOLDER``: the compiler flags a translation unit
that includes the kernel in FOLDER needs (for the Makefile's compile rules),
one line, empty for most kernels; a bad folder is a one-line error, exit 2."""

from __future__ import annotations

import sys
from pathlib import Path

from . import KernelFolderError, load_path


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "cflags":
        print("usage: python3 -m kfolder cflags FOLDER", file=sys.stderr)
        return 2
    try:
        print(" ".join(load_path(Path(argv[1])).cflags))
    except KernelFolderError as exc:
        print(f"kfolder: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
