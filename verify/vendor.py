"""Vendor a kernel: copy its header (and, on request, its provenance/) from
generated/<name>/ to DEST/<name>/, after proving that the copy compiles
there on its own, with only the C standard headers, as C99, C11 and C++
under -Wall -Wextra -Wpedantic -Werror, calling every function of the ABI
(docs/abi.md), and that two files including it link with one table.

DEST/<name>/ is replaced all at once (toolkit.files.replace_folder) and
never when it holds files the toolchain did not write.

Usage: python3 -m verify vendor generated/<name> DEST [--provenance]
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
from toolkit.files import FolderError, replace_folder

STANDARDS = [("gcc", "c99", ".c"), ("gcc", "c11", ".c"), ("g++", "c++11", ".cpp"),
             ("clang", "c99", ".c"), ("clang++", "c++17", ".cpp")]
FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2"]


def probe_source(kernel: Kernel) -> str:
    """A translation unit that includes the kernel and calls every ABI function."""
    name = kernel.name
    upper = name.upper()
    word = kernel.word_bits
    lines = [f'#include "{h}"' for h in kernel.headers]
    lines += ["#include <stdint.h>", "int main(void)", "{", f"    uint{word}_t acc = (uint{word}_t)({upper}_CONTENT_HASH & 1);"]
    if kernel.fixed_point:
        lines += [f"    uint{word}_t z = (uint{word}_t){upper}_Z_MAX / 3;",
                  f"    acc += {name}_eval(z);",
                  f"    acc += (uint{word}_t)({upper}_SCALE_BITS + {upper}_SEGMENTS + {upper}_DEGREE"
                  f" + {upper}_WORD_BITS + {upper}_TABLE_BYTES);",
                  f"    acc += (uint{word}_t)({upper}_ERR_BOUND_ULP > 0.0);"]
        if word == 64:
            lines += [f"    acc += {name}_expm_p63(z, UINT64_C(0xC000000000000000));",
                      f"    acc += (uint64_t)({upper}_EXPM_P63_ERR_BOUND > 0.0);"]
    if kernel.falcon_adaptors:
        lines += [f"    acc += {name}_fpr_expm_p63(UINT64_C(0x3FD0000000000000), UINT64_C(0x3FE8000000000000));",
                  f"    acc += {name}_fpr_expm_p63_native(0.25, 0.75);",
                  f"    acc += {name}_fpr_expm_p63_domain(0.25, 0.75);",
                  f"    acc += {name}_fpr_expm_p63_domain_bits(UINT64_C(0x3FD0000000000000), "
                  "UINT64_C(0x3FE8000000000000));",
                  f"    acc += (uint64_t)({upper}_FPR_EXPM_P63_ERR_BOUND > 0.0);"]
    lines += ["    return (int)(acc & 1);", "}"]
    return "\n".join(lines) + "\n"


def second_file(kernel: Kernel) -> str:
    """Another translation unit of the same program: it includes the header
    with the table declared only, and calls the kernel."""
    word = kernel.word_bits
    head = f"#define {kernel.table_extern_macro}\n" + "".join(f'#include "{h}"\n' for h in kernel.headers)
    if not kernel.fixed_point:
        # No _eval (form eft): the adaptor reads the table instead.
        return (head + "uint64_t second_fpr(uint64_t x, uint64_t c);\n"
                + f"uint64_t second_fpr(uint64_t x, uint64_t c) {{ return {kernel.name}_fpr_expm_p63(x, c); }}\n")
    return (head + f"uint{word}_t second_eval(uint{word}_t z);\n"
            + f"uint{word}_t second_eval(uint{word}_t z) {{ return {kernel.name}_eval(z); }}\n")


def compile_alone(kernel: Kernel, include: Path) -> list[str]:
    """Compile the probe against the headers in `include` only, with every
    standard, and link it with a second file; return the failures."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for compiler, std, suffix in STANDARDS:
            if shutil.which(compiler) is None:
                failures.append(f"{compiler}: not installed")
                continue
            src, second = Path(tmp) / f"probe{suffix}", Path(tmp) / f"second{suffix}"
            src.write_text(probe_source(kernel))
            second.write_text(second_file(kernel))
            cmd = [compiler, f"-std={std}", *FLAGS, *kernel.cflags, f"-I{include}", str(src), str(second),
                   "-o", str(Path(tmp) / "probe")]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                failures.append(f"{compiler} -std={std}: {_first_error(run.stderr)}")
    return failures


def _first_error(stderr: str) -> str:
    """The compiler's first error line (not the "In file included from"
    context above it), or its first line, or "failed"."""
    lines = stderr.strip().splitlines()
    return next((line for line in lines if "error" in line), lines[0] if lines else "failed")


def vendored_files(kernel: Kernel, provenance: bool) -> dict[str, str]:
    """Relative path -> text of what vendoring copies: the header, and the
    provenance files when asked for."""
    layout = kernel.layout
    paths = [layout.header]
    if provenance:
        paths += [p for p in (layout.sidecar, layout.annotated_header, layout.gappa_script)
                  if (kernel.folder / p).is_file()]
    return {p: (kernel.folder / p).read_text(encoding="utf-8") for p in paths}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m verify vendor",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("kernel_folder", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--provenance", action="store_true",
                        help="copy provenance/ too (sidecar, annotated header, Gappa script)")
    args = parser.parse_args(argv)
    try:
        kernel = kfolder.load_path(args.kernel_folder)
        files = vendored_files(kernel, args.provenance)
        target = args.dest / kernel.name

        def check(staged: Path) -> None:
            failures = compile_alone(kernel, staged)
            if failures:
                raise FolderError(f"{kernel.name} does not compile on its own: {failures[0]}; nothing written")

        replace_folder(target, files, kernel.layout.written(), check)
    except (kfolder.KernelFolderError, FolderError) as exc:
        print(f"vendor: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"vendor: error: {exc.filename or args.dest}: {exc.strerror or exc}; nothing written", file=sys.stderr)
        return 2
    lines = files[kernel.layout.header].count("\n")
    print(f"vendored {kernel.name} to {target}: {', '.join(sorted(files))} ({kernel.layout.header}: {lines} lines); "
          "compiles alone as " + ", ".join(f"{c} -std={s}" for c, s, _ in STANDARDS))
    return 0
