"""Check and audit one user kernel with the same checker as the shipped ones.

`make kernel CONFIG=my.toml [OUT=dir] [THREADS=n] [QUICK=1]` renders the
config into OUT, then runs this: it writes, under the build folder, in a
folder of the kernel's own (so that two kernels' results never mix),

    <name>/<name>_ref.h   (kernels with the fixed-point interface, the
                          next three too) the function as MPFR code (python3 -m gen mpfr-ref CONFIG)
    <name>/<name>.plan    the checker's plan (verify/plan.py)
    <name>/check_<name>   verify/check.c compiled against OUT/<name>/<name>.h
    <name>/<name>.json    the measured errors (full coverage, unless --quick
                          or --check-args)
    <name>/check_fpr_<name>, <name>/<name>.fpr.json
                          the same for the Falcon adaptors against their
                          double inputs (verify/check_fpr.c), when the kernel
                          has them (full coverage unless --quick or --fpr-args)
    <name>/audit.json     the audit entry, and prints the audit table; a
                          bound exceeded fails the command.

--quick checks a 64-bit kernel on QUICK_ARGS (about 10^6 inputs, seconds)
instead of the full coverage (10^8 inputs and more); a 32-bit kernel is
always checked on every input.  While a step runs, a line every 10 s says so.

Usage: python3 -m verify kernel CONFIG --generated OUT --build DIR
                                     [--threads N] [--quick] [--check-args "..."]
                                     [--fpr-args "..."]
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import kfolder
from gen import progress
from verify import audit, fpr, plan

VERIFY = Path(__file__).resolve().parent
ROOT = VERIFY.parent
QUICK_ARGS = ["--random", "1000000", "--per-segment", "10000", "--expm-random", "500000",
              "--edge", "256", "--extremum-width", "256"]
QUICK_FPR_ARGS = ["--uniform", "1000000", "--small", "100000"]


class UserKernelError(RuntimeError):
    """A step failed; the message says which."""


def kernel_name(config: Path) -> str:
    """The kernel's name: the config's "name", as the generator uses it."""
    try:
        with config.open("rb") as f:
            name = tomllib.load(f).get("name")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserKernelError(f"{config}: {exc}") from exc
    if not isinstance(name, str) or not name.isidentifier():
        raise UserKernelError(f"{config}: needs a \"name\" that is a C identifier")
    return name


def run(cmd: list[str], what: str, stdout: Path | None = None) -> None:
    progress.report(what)
    out = stdout.open("w", encoding="utf-8") if stdout else None
    try:
        result = subprocess.run(cmd, cwd=ROOT, stdout=out)
    finally:
        if out:
            out.close()
    if result.returncode != 0:
        raise UserKernelError(f"{what} failed (exit status {result.returncode})")


def check_adaptors(kernel: kfolder.Kernel, build: Path, threads: int, fpr_args: list[str]) -> None:
    """check_fpr built and run for `kernel`, when it has Falcon adaptors."""
    if not kernel.falcon_adaptors:
        return
    binary = (build / f"check_fpr_{kernel.name}").resolve()
    run(fpr.compile_command(kernel, binary, VERIFY / "fastref.c"), "compiling the adaptors' checker")
    run([str(binary), "--threads", str(threads), *fpr_args,
         "--out", str(fpr.result_path(build.resolve(), kernel.name))],
        f"the adaptors' checker ({'quick' if fpr_args else 'full coverage'}, {threads} thread(s))")


def check_user_kernel(config: Path, generated: Path, build_root: Path, threads: int,
                      check_args: list[str], quick: bool, fpr_args: list[str]) -> None:
    name = kernel_name(config)
    try:
        kernel = kfolder.load(generated, name)
    except kfolder.KernelFolderError as exc:
        raise UserKernelError(str(exc)) from None
    build = build_root / name
    build.mkdir(parents=True, exist_ok=True)
    if kernel.fixed_point:
        check_fixed_point(kernel, config, build, threads, check_args, quick)
    else:
        print(f"{name}: no fixed-point interface (\"fixed_point\": false): _eval and _expm_p63 "
              "not checked; the Falcon adaptors are", file=sys.stderr)
    check_adaptors(kernel, build, threads, (QUICK_FPR_ARGS if quick else []) + fpr_args)
    if audit.main([name, "--generated", str(generated), "--check-dir", str(build),
                   "--out", str(build / "audit.json")]) != 0:
        raise UserKernelError("the audit failed")


def check_fixed_point(kernel: kfolder.Kernel, config: Path, build: Path, threads: int,
                      check_args: list[str], quick: bool) -> None:
    """verify/check.c built against `kernel` and run on its plan: _eval and
    _expm_p63 against MPFR (build/<name>.json)."""
    name, kdir = kernel.name, kernel.folder
    run([sys.executable, "-m", "gen", "mpfr-ref", str(config)], "gen mpfr-ref",
        stdout=build / f"{name}_ref.h")
    try:
        lines = plan.build_plan(kernel.sidecar)
    except plan.PlanError as exc:
        raise UserKernelError(f"{kernel.sidecar_path}: {exc}") from exc
    (build / f"{name}.plan").write_text("\n".join(lines) + "\n", encoding="utf-8")
    binary = build / f"check_{name}"
    run([os.environ.get("CC", "cc"), "-O2", "-Wall", "-Wextra", "-std=gnu11", *kernel.cflags,
         f"-I{VERIFY}", f"-I{ROOT / 'toolkit' / 'c'}", f"-I{kdir.resolve()}", f"-I{build.resolve()}",
         f"-DKNAME={name}", f"-DKUNAME={name.upper()}", f'-DKHEADER="{kernel.header.name}"',
         f'-DREF_HEADER="{name}_ref.h"', str(VERIFY / "check.c"), str(VERIFY / "fastref.c"),
         "-o", str(binary.resolve()), "-lmpfr", "-lgmp", "-lpthread", "-lm"], "compiling the checker")
    coverage = (QUICK_ARGS if quick and kernel.word_bits == 64 else []) + check_args
    run([str(binary.resolve()), "--plan", str((build / f"{name}.plan").resolve()),
         "--threads", str(threads), *coverage,
         "--out", str((build / f"{name}.json").resolve())],
        f"the checker ({'quick' if coverage else 'full coverage'}, {threads} thread(s))")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m verify kernel",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--generated", type=Path, required=True)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=2, help="checker threads (1..64)")
    parser.add_argument("--quick", action="store_true", help="a quick check (64-bit kernels: about 10^6 inputs)")
    parser.add_argument("--fpr-args", default="", help="extra options of the adaptors' checker, one string")
    parser.add_argument("--check-args", default="", help="extra checker options, one string")
    args = parser.parse_args(argv)
    if not 1 <= args.threads <= 64:
        print(f"user_kernel: error: --threads {args.threads}: must be 1 to 64", file=sys.stderr)
        return 2
    try:
        with progress.Reporter():
            check_user_kernel(args.config.resolve(), args.generated.resolve(), args.build.resolve(),
                              args.threads, shlex.split(args.check_args), args.quick,
                              shlex.split(args.fpr_args))
    except UserKernelError as exc:
        print(f"user_kernel: error: {exc}", file=sys.stderr)
        return 2
    return 0
