"""Vendor a kernel: copy generated/<name>/ to a destination and prove that the
copy compiles there on its own, with only the C standard headers, as C99,
C11 and C++ under -Wall -Wextra -Wpedantic -Werror, calling every function
of the ABI (docs/abi.md).

Usage: python3 -m verify vendor generated/<name> DEST   (copies to DEST/<name>/)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import kfolder
from kfolder import Kernel

STANDARDS = [("gcc", "c99", ".c"), ("gcc", "c11", ".c"), ("g++", "c++11", ".cpp"),
             ("clang", "c99", ".c"), ("clang++", "c++17", ".cpp")]
FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2"]


def probe_source(kernel: Kernel) -> str:
    """A translation unit that includes the kernel and calls every ABI function."""
    name = kernel.name
    upper = name.upper()
    word = kernel.word_bits
    lines = [f'#include "{h}"' for h in kernel.headers]
    lines += ["#include <stdint.h>", "int main(void)", "{",
              f"    uint{word}_t z = (uint{word}_t){upper}_Z_MAX / 3;",
              f"    uint{word}_t acc = {name}_eval(z);",
              f"    acc += (uint{word}_t)({upper}_SCALE_BITS + {upper}_SEGMENTS + {upper}_DEGREE"
              f" + {upper}_WORD_BITS + {upper}_TABLE_BYTES);",
              f"    acc += (uint{word}_t)({upper}_ERR_BOUND_ULP > 0.0);"]
    if word == 64:
        lines += [f"    acc += {name}_expm_p63(z, UINT64_C(0xC000000000000000));",
                  f"    acc += (uint64_t)({upper}_EXPM_P63_ERR_BOUND > 0.0);"]
    if kernel.falcon_adaptors:
        lines += [f"    acc += {name}_fpr_expm_p63(UINT64_C(0x3FD0000000000000), UINT64_C(0x3FE8000000000000));",
                  f"    acc += {name}_fpr_expm_p63_native(0.25, 0.75);"]
    lines += ["    return (int)(acc & 1);", "}"]
    return "\n".join(lines) + "\n"


def compile_alone(folder: Path, name: str) -> list[str]:
    """Compile the probe against the kernel folder `folder` (named `name`)
    only, with every standard; return failures."""
    if folder.name != name:
        raise ValueError(f"{folder}: a kernel folder is named after its kernel, {name}")
    kernel = kfolder.load(folder.parent, name)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for compiler, std, suffix in STANDARDS:
            if shutil.which(compiler) is None:
                failures.append(f"{compiler}: not installed")
                continue
            src = Path(tmp) / f"probe{suffix}"
            src.write_text(probe_source(kernel))
            cmd = [compiler, f"-std={std}", *FLAGS, *kernel.cflags, f"-I{folder}", str(src), "-o", str(Path(tmp) / "probe")]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                failures.append(f"{compiler} -std={std}: {run.stderr.strip().splitlines()[0] if run.stderr else 'failed'}")
    return failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m verify vendor",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("kernel_folder", type=Path)
    parser.add_argument("dest", type=Path)
    args = parser.parse_args(argv)
    try:
        kernel = kfolder.load_path(args.kernel_folder)
    except kfolder.KernelFolderError as exc:
        print(f"vendor: error: {exc}", file=sys.stderr)
        return 2
    name = kernel.name
    target = args.dest / name
    # The copy is staged as <dest>/.vendor-tmp-<name>/<name>, a kernel folder
    # under its own name, and moved into place only once it compiles.
    staging_root = args.dest / f".vendor-tmp-{name}"
    staging = staging_root / name
    try:
        args.dest.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(staging_root, ignore_errors=True)
        shutil.copytree(kernel.folder, staging)
        failures = compile_alone(staging, name)
        if failures:
            shutil.rmtree(staging_root, ignore_errors=True)
            for failure in failures:
                print(f"vendor: error: {name} does not compile on its own: {failure}", file=sys.stderr)
            return 1
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
        staging_root.rmdir()
    except (OSError, kfolder.KernelFolderError) as exc:
        shutil.rmtree(staging_root, ignore_errors=True)
        print(f"vendor: error: {exc}", file=sys.stderr)
        return 2
    print(f"vendored {name} to {target}: compiles alone as " + ", ".join(f"{c} -std={s}" for c, s, _ in STANDARDS))
    return 0
