"""Bit-exactness of a kernel's emulated adaptor against runtime/facct_ref.c
on many random inputs (falcon/compat.c), with a negative control.

Usage: python3 -m falcon.compat [--kernel facct_compat] [--draws N]
           [--seed S] [--threads T] [--control] [--out FILE]

--control also builds a copy of the kernel with one coefficient bit flipped
(in a temporary folder) and requires that copy to mismatch: a harness that
cannot see a one-bit change would prove nothing.  Exit status: 0 when the
kernel has no mismatch (and the control has some), 1 otherwise, 2 on errors.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import kfolder
from falcon.kernels import FALCON, RUNTIME, TOOLKIT_C, FalconError, Kernel, compile_c, defines, load_kernel

_LITERAL = re.compile(r"UINT64_C\(0x([0-9a-fA-F]+)\)")


def build_compat(kernel: Kernel, out: Path) -> Path:
    """falcon/compat.c compiled against `kernel`."""
    return compile_c([FALCON / "compat.c", RUNTIME / "facct_ref.c"], out,
                     [FALCON, RUNTIME, TOOLKIT_C, kernel.folder], defines(kernel), link=["-lpthread"])


def run_compat(binary: Path, draws: int, seed: int, threads: int) -> dict[str, Any]:
    """The JSON summary compat prints."""
    done = subprocess.run([str(binary), str(draws), str(seed), str(threads)],
                          stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise FalconError(f"{binary} exited with {done.returncode}")
    return json.loads(done.stdout)


def perturbed_copy(kernel: Kernel, dest: Path, literal_index: int = 1) -> Kernel:
    """A copy of `kernel`'s folder in `dest` whose table has bit 0 of its
    `literal_index`-th coefficient literal flipped (index 1 = the x^1
    coefficient of the first segment for a Horner table stored from x^0)."""
    folder = dest / kernel.name
    shutil.copytree(kernel.folder, folder)
    copy = kfolder.load(dest, kernel.name)
    table = copy.header
    text = table.read_text(encoding="utf-8")
    matches = list(_LITERAL.finditer(text))
    if len(matches) <= literal_index:
        raise FalconError(f"{table}: fewer than {literal_index + 1} coefficient literals")
    m = matches[literal_index]
    flipped = int(m.group(1), 16) ^ 1
    text = text[:m.start(1)] + f"{flipped:016x}" + text[m.end(1):]
    table.write_text(text, encoding="utf-8")
    return copy


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", default="facct_compat")
    p.add_argument("--draws", type=int, default=10**9)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--control", action="store_true")
    p.add_argument("--build", type=Path, default=Path("build/falcon"))
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    if args.draws <= 0 or args.threads <= 0:
        print("compat: error: --draws and --threads must be positive", file=sys.stderr)
        return 2
    try:
        kernel = load_kernel(args.kernel)
        if kernel is None:
            raise FalconError(f"kernel {args.kernel} has no Falcon adaptors")
        result = run_compat(build_compat(kernel, args.build / f"compat_{kernel.name}"),
                            args.draws, args.seed, args.threads)
        report: dict[str, Any] = {"kernel": result}
        if args.control:
            with tempfile.TemporaryDirectory() as tmp:
                bad = perturbed_copy(kernel, Path(tmp))
                ctl = run_compat(build_compat(bad, Path(tmp) / "compat_control"),
                                 min(args.draws, 10**6), args.seed, args.threads)
            report["control"] = ctl
    except FalconError as exc:
        print(f"compat: error: {exc}", file=sys.stderr)
        return 2
    k = report["kernel"]
    print(f"compat {k['kernel']}: {k['draws']} draws ({k['in_domain']} in the domain), "
          f"{k['mismatches']} mismatches")
    ok = k["mismatches"] == 0
    if "control" in report:
        c = report["control"]
        print(f"control (one coefficient bit flipped): {c['draws']} draws, "
              f"{c['mismatches']} mismatches (must be > 0)")
        ok = ok and c["mismatches"] > 0
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
