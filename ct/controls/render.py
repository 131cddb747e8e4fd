"""Render the constant-time controls with the generator and its templates.

The three controls of ``make ct`` are kernel configs (ct/controls/*.toml)
rendered exactly like the shipped kernels, so they follow every change of
the kernel-folder format.  Two are leaky by configuration or by one
documented edit:

* ``ctl_poly``: a clean kernel (one polynomial, no table);
* ``ctl_direct``: a direct table indexed by the secret (its config);
* ``ctl_branch``: ``ctl_poly``'s configuration, after which
  :func:`insert_branch` puts an early return on the secret at the top of
  its core.

Usage: python3 -m ct.controls.render OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

import kfolder
from gen import config, kernel, render
from gen.errors import GenError
from toolkit.files import FolderError, replace_folder

HERE = Path(__file__).resolve().parent
NAMES = ("ctl_poly", "ctl_direct", "ctl_branch")

# The text the branch goes after (the start of the core's body) and the
# branch itself: for x < 1/4 return 1 - x/4 at scale 2^63 at once, twelve
# multiplies fewer than the polynomial, so no compiler turns it into a
# conditional move.
BRANCH_ANCHOR = "static inline uint64_t ctl_branch_core(uint64_t z) {\n"
BRANCH = ("    if (z < ((uint64_t)1 << 62))   /* the deliberate leak: an early exit on the secret */\n"
          "        return ((uint64_t)1 << 63) - (z >> 2);\n")


def insert_branch(header: str) -> str:
    """ctl_branch.h with the early return inserted; ValueError if the core
    is not where the template puts it."""
    if header.count(BRANCH_ANCHOR) != 1:
        raise ValueError("the start of ctl_branch_core was not found once in ctl_branch.h")
    return header.replace(BRANCH_ANCHOR, BRANCH_ANCHOR + BRANCH)


def render_controls(out_dir: Path) -> list[str]:
    """Render the three controls into out_dir/<name>/; returns their names."""
    for name in NAMES:
        k = kernel.build(config.load(HERE / f"{name}.toml"))
        files = render.render(k, str(out_dir))
        layout = kfolder.layout(name)
        if name == "ctl_branch":
            files[layout.header] = insert_branch(files[layout.header])
        replace_folder(out_dir / name, files, layout.written())
    return list(NAMES)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m ct.controls.render OUT_DIR", file=sys.stderr)
        return 2
    try:
        render_controls(Path(argv[0]))
    except (GenError, FolderError, ValueError, OSError) as exc:
        print(f"ct controls: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
