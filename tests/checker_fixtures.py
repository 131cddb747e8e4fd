"""Shared fixtures of the checker tests (test_checker_*.py): small kernel
folders written by the tests themselves (the FACCT polynomial with the
coefficients of FACCT.md, and "1 - x" kernels whose errors mpmath computes
independently), and the checker (verify/check.c) compiled against them.

Each test module calls set_up() in its setUpModule and tear_down() in its
tearDownModule; BUILD and FASTREF_O are then the module's work folder and
the compiled fast reference.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

import mpmath

import kfolder

ROOT = Path(__file__).resolve().parent.parent
VERIFY = ROOT / "verify"
TOOLKIT_C = ROOT / "toolkit" / "c"


CC = os.environ.get("CC", "gcc")
LN2_Z_MAX = {32: 2977044471, 64: 12786308645202655659}  # recomputed in a test

# The 13 Q63 constants of the FACCT polynomial, from FACCT.md.
FACCT_COEFFS = [
    0x00000004741183A3, 0x00000036548CFC06, 0x0000024FDCBF140A,
    0x0000171D939DE045, 0x0000D00CF58F6F84, 0x000680681CF796E3,
    0x002D82D8305B0FEA, 0x011111110E066FD0, 0x0555555555070F00,
    0x155555555581FF00, 0x400000000002B400, 0x7FFFFFFFFFFF4800,
    0x8000000000000000,
]

# The trusted reference for the tests: exp(-x) with MPFR, written here and
# not taken from the generator, so the checker is tested on its own.
EXP_REF_H = """\
static void kernel_ref_f(mpfr_ptr y, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x) + 2);
    mpfr_neg(t, x, MPFR_RNDN);   /* exact */
    mpfr_exp(y, t, MPFR_RNDN);
    mpfr_clear(t);
}
"""

HEADER = """\
#ifndef {N}_H
#define {N}_H
#include <stdint.h>
#define {N}_SCALE_BITS {S}
#define {N}_SEGMENTS 1
#define {N}_DEGREE {D}
#define {N}_WORD_BITS {W}
#define {N}_TABLE_BYTES {B}
#define {N}_CONTENT_HASH 0x{hash}u
{table}
{body}
#endif
"""

FACCT_BODY = """\
static inline uint64_t {n}_mulhi(uint64_t a, uint64_t b)
{{ return (uint64_t)(((unsigned __int128)a * b) >> 64); }}
static inline uint64_t {n}_eval(uint64_t z)
{{
    uint64_t y = {n}_coef[0];
    for (int i = 1; i < 13; i++)
        y = {n}_coef[i] - {n}_mulhi(z, y);
    return y;
}}
static inline uint64_t {n}_expm_p63(uint64_t z, uint64_t w)
{{ return {n}_mulhi(w, {n}_eval(z)); }}"""

# 1 - x: eval(z) = 2^S - floor(z / 2^(W - S)).
ONE_MINUS_X_BODY = """\
static inline uint{W}_t {n}_eval(uint{W}_t z)
{{ return {n}_coef[0] - (z >> ({W} - {S})); }}
{expm}"""
ONE_MINUS_X_EXPM = """\
static inline uint64_t {n}_expm_p63(uint64_t z, uint64_t w)
{{ return (uint64_t)(((unsigned __int128)w * {n}_eval(z)) >> 64); }}"""


def write_kernel(folder: Path, name: str, word_bits: int, scale_bits: int,
                 degree: int, coeffs: list[int], body: str, z_max: int,
                 extrema: list[int] | None = None) -> Path:
    """A kernel folder following docs/abi.md, with a one-segment sidecar."""
    d = folder / name
    d.mkdir(parents=True, exist_ok=True)
    ctype = f"uint{word_bits}_t"
    table = ",\n    ".join(f"0x{c:016X}u" for c in coeffs)
    sidecar: dict[str, Any] = {
        "schema_version": kfolder.SCHEMA_VERSION, "name": name, "word_bits": word_bits,
        "scale_bits": scale_bits,
        "segments": 1, "degree": degree, "table_bytes": len(coeffs) * word_bits // 8,
        "table_access": "direct", "function": "exp(-x)", "z_max": str(z_max),
        "segment_list": [{"index": 0, "z_first": "0", "z_last": str(z_max),
                          "error_extrema_z": [str(z) for z in extrema or []]}],
        "content_hash": "f1f1f1f1f1f1f1f1",
    }
    # The file names come from kfolder, the one module that knows them.
    layout = kfolder.Kernel(name, d, sidecar)
    layout.header.write_text(HEADER.format(
        N=name.upper(), n=name, S=scale_bits, D=degree, W=word_bits,
        B=len(coeffs) * word_bits // 8, hash=sidecar["content_hash"], body=body,
        table=f"static const {ctype} {name}_coef[{len(coeffs)}] = {{\n    {table}\n}};"))
    layout.sidecar_path.parent.mkdir(exist_ok=True)
    layout.sidecar_path.write_text(json.dumps(sidecar))
    return d


def facct_kernel(folder: Path, name: str) -> Path:
    """A kernel folder that runs the FACCT polynomial."""
    return write_kernel(folder, name, 64, 63, 12, FACCT_COEFFS,
                        FACCT_BODY.format(n=name), LN2_Z_MAX[64])


def one_minus_x_kernel(folder: Path, name: str, word_bits: int, z_max: int) -> Path:
    """A kernel folder whose eval is 1 - x, exact up to one truncation."""
    scale = word_bits - 1
    expm = ONE_MINUS_X_EXPM.format(n=name) if word_bits == 64 else ""
    body = ONE_MINUS_X_BODY.format(n=name, W=word_bits, S=scale, expm=expm)
    return write_kernel(folder, name, word_bits, scale, 1, [1 << scale], body, z_max)




class Checker:
    """A checker binary built for one kernel folder, and its plan."""

    def __init__(self, kernel_dir: Path, build: Path, fastref_o: Path,
                 ref_header: str = "exp_ref.h") -> None:
        self.name = kernel_dir.name
        self.plan = build / f"{self.name}.plan"
        self.binary = build / f"check_{self.name}"
        subprocess.run([sys.executable, "-m", "verify.plan", str(kernel_dir),
                        "-o", str(self.plan)], check=True, cwd=ROOT)
        subprocess.run([CC, "-O2", "-Wall", "-Wextra", "-Werror", "-std=gnu11",
                        *kfolder.load_path(kernel_dir).cflags, f"-I{VERIFY}", f"-I{TOOLKIT_C}", f"-I{kernel_dir}", f"-I{build}",
                        f"-DKNAME={self.name}", f"-DKUNAME={self.name.upper()}",
                        f'-DKHEADER="{kfolder.load_path(kernel_dir).header.name}"',
                        f'-DREF_HEADER="{ref_header}"',
                        str(VERIFY / "check.c"), str(fastref_o), "-o", str(self.binary),
                        "-lmpfr", "-lgmp", "-lpthread", "-lm"], check=True)

    def run(self, *args: str | int, plan_file: Path | None = None) -> dict[str, Any]:
        """Run the checker with `args`; its JSON result."""
        cmd = [str(self.binary), "--plan", str(plan_file or self.plan), "--threads", "2",
               *map(str, args)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return json.loads(out)


# Small coverage for every run of a 64-bit kernel in the tests.


SMALL = ("--random", 20000, "--per-segment", 2000, "--expm-random", 10000,
         "--edge", 64, "--extremum-width", 64)

BUILD: Path
FASTREF_O: Path
_tmp: Optional[tempfile.TemporaryDirectory[str]] = None


def set_up() -> None:
    """A fresh work folder with the test reference and the fast reference
    compiled into it."""
    global BUILD, FASTREF_O, _tmp
    _tmp = tempfile.TemporaryDirectory(prefix="test_checker_")
    BUILD = Path(_tmp.name)
    (BUILD / "exp_ref.h").write_text(EXP_REF_H)
    FASTREF_O = BUILD / "fastref.o"
    subprocess.run([CC, "-O2", "-Wall", "-Wextra", "-Werror", "-c",
                    str(VERIFY / "fastref.c"), "-o", str(FASTREF_O)], check=True)


def tear_down() -> None:
    """Remove the work folder."""
    if _tmp is not None:
        _tmp.cleanup()


def build(kernel_dir: Path) -> Checker:
    """The checker for `kernel_dir`, built in the module's work folder."""
    return Checker(kernel_dir, BUILD, FASTREF_O)


def exact_max_error(zs: range, word_bits: int, scale_bits: int, got: Any,
                    ccs_w: int | None = None) -> tuple[mpmath.mpf, int]:
    """Independent max |got(z) - exact| with mpmath: in units of 2^-S for
    eval, or of 2^-63 for expm with w = ccs_w."""
    best, where = mpmath.mpf(-1), -1
    with mpmath.workprec(200):
        for z in zs:
            f = mpmath.exp(-mpmath.mpf(z) / 2**word_bits)
            exact = f * 2**scale_bits if ccs_w is None else mpmath.mpf(ccs_w) / 2**64 * f * 2**63
            err = abs(got(z) - exact)
            if err > best:
                best, where = err, z
    return best, where




def flip_one_coefficient_bit(table: Path) -> None:
    """Flips one bit, 2^-8 below the leading one, of the largest hex literal."""
    text = table.read_text()
    literals = list(re.finditer(r"0[xX][0-9A-Fa-f]+", text))
    if not literals:
        raise AssertionError(f"{table}: no hexadecimal coefficient to corrupt")
    target = max(literals, key=lambda m: int(m.group(0), 16))
    value = int(target.group(0), 16)
    flipped = value ^ (1 << max(value.bit_length() - 9, 0))
    digits = len(target.group(0)) - 2
    text = text[:target.start()] + f"0x{flipped:0{digits}X}" + text[target.end():]
    table.write_text(text)


def generated_dir(name: str) -> Path | None:
    """generated/<name> when it is an exp(-x) kernel with the fixed-point
    interface the checker's _eval part measures, else None (form eft's
    adaptors are measured by verify/check_fpr.c: tests/test_fpr_audit.py)."""
    try:
        kernel = kfolder.load(ROOT / "generated", name)
    except kfolder.KernelFolderError:
        return None
    return kernel.folder if kernel.sidecar.get("function") == "exp(-x)" and kernel.fixed_point else None


def build_quick(kernel_dir: Path) -> dict[str, Any]:
    """The checker built for a kernel folder and run with small coverage."""
    build_dir = BUILD / f"b_{kernel_dir.name}"
    build_dir.mkdir(exist_ok=True)
    shutil.copy(BUILD / "exp_ref.h", build_dir / "exp_ref.h")
    chk = Checker(kernel_dir, build_dir, FASTREF_O)
    word_bits = kfolder.load_path(kernel_dir).word_bits
    if word_bits == 32:
        return chk.run("--range", 0, 2_000_000)
    return chk.run(*SMALL)

