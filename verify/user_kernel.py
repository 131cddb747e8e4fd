"""Check and audit one user kernel with the same checker as the shipped ones.

`make kernel CONFIG=my.toml [OUT=dir]` renders the config into OUT, then
runs this: it writes, under the build folder,

    <name>_ref.h     the function as MPFR code (python3 -m gen mpfr-ref CONFIG)
    <name>.plan      the checker's plan (verify/plan.py)
    check_<name>     verify/check.c compiled against OUT/<name>/<name>.h
    <name>.json      the measured errors (full coverage unless --check-args)
    check_fpr_<name>, <name>.fpr.json
                     the same for the Falcon adaptors against their double
                     inputs (verify/check_fpr.c), when the kernel has them
                     (full coverage unless --fpr-args)
    audit.json       the audit entry, and prints the audit table; a bound
                     exceeded fails the command.

Usage: python3 -m verify kernel CONFIG --generated OUT --build DIR
                                     [--threads N] [--check-args "..."]
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
from verify import audit, fpr, plan

VERIFY = Path(__file__).resolve().parent
ROOT = VERIFY.parent


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
         "--out", str(fpr.result_path(build.resolve(), kernel.name))], "the adaptors' checker")


def check_user_kernel(config: Path, generated: Path, build: Path, threads: int,
                      check_args: list[str], fpr_args: list[str]) -> None:
    name = kernel_name(config)
    try:
        kernel = kfolder.load(generated, name)
    except kfolder.KernelFolderError as exc:
        raise UserKernelError(str(exc)) from None
    kdir = kernel.folder
    build.mkdir(parents=True, exist_ok=True)
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
    run([str(binary.resolve()), "--plan", str((build / f"{name}.plan").resolve()),
         "--threads", str(threads), *check_args,
         "--out", str((build / f"{name}.json").resolve())], "the checker")
    check_adaptors(kernel, build, threads, fpr_args)
    if audit.main([name, "--generated", str(generated), "--check-dir", str(build),
                   "--out", str(build / "audit.json")]) != 0:
        raise UserKernelError("the audit failed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m verify kernel",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--generated", type=Path, required=True)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--check-args", default="", help="extra checker options, one string")
    parser.add_argument("--fpr-args", default="", help="extra options of the adaptors' checker, one string")
    args = parser.parse_args(argv)
    try:
        check_user_kernel(args.config.resolve(), args.generated.resolve(), args.build.resolve(),
                          args.threads, shlex.split(args.check_args), shlex.split(args.fpr_args))
    except UserKernelError as exc:
        print(f"user_kernel: error: {exc}", file=sys.stderr)
        return 2
    return 0
