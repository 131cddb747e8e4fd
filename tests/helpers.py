"""Shared helpers for the tests: paths, compiling and running small C programs."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Any, Callable

import kfolder
from gen import config, kernel, render
from gen.exact import double_bits, double_from_bits
from gen.falcon import LN2_DOWN
from toolkit.files import replace_folder

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
KERNELS = ROOT / "kernels"
VECTORS = ROOT / "tests" / "data" / "facct_vectors.tsv"


def shipped_kernels() -> list[str]:
    return sorted(p.stem for p in KERNELS.glob("*.toml"))


_SHIPPED: dict[str, kernel.Kernel] = {}


def shipped_kernel(name: str) -> kernel.Kernel:
    """The kernel of kernels/<name>.toml, built once per test run (the
    builds take up to 20 s each; several test modules need the same ones)."""
    if name not in _SHIPPED:
        _SHIPPED[name] = kernel.build(config.load(KERNELS / f"{name}.toml"))
    return _SHIPPED[name]


def shipped_kernels_built(names: list[str] | None = None) -> dict[str, kernel.Kernel]:
    """The shipped kernels `names` (default: all), the missing ones built in parallel."""
    wanted = shipped_kernels() if names is None else names
    missing = [n for n in wanted if n not in _SHIPPED]
    for name, result in zip(missing, kernel.build_many([config.load(KERNELS / f"{n}.toml") for n in missing])):
        if isinstance(result, Exception):
            raise result
        _SHIPPED[name] = result
    return {n: _SHIPPED[n] for n in wanted}


def write_rendered(k: kernel.Kernel, out: Path) -> kfolder.Kernel:
    """Kernel k rendered into out/<name>/ as the command line writes it."""
    replace_folder(out / k.cfg.name, render.render(k, str(out)), kfolder.layout(k.cfg.name).written())
    return kfolder.load(out, k.cfg.name)


def tree_hash(folder: Path, ignore: Callable[[str], str] = lambda text: text) -> str:
    """A hash of every file under folder (names and contents; ``ignore``
    rewrites the text of .h and .json files first)."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.name.encode())
            h.update(ignore(p.read_text()).encode() if p.suffix in (".h", ".json") else p.read_bytes())
    return h.hexdigest()


def minimal_sidecar(name: str, **overrides: Any) -> dict[str, Any]:
    """The smallest sidecar kfolder accepts, for a 64-bit kernel with Falcon
    adaptors, with `overrides` applied (a value of None removes the key)."""
    data: dict[str, Any] = {"schema_version": kfolder.SCHEMA_VERSION, "name": name,
                            "word_bits": 64, "scale_bits": 63, "segments": 1, "degree": 12,
                            "table_bytes": 104, "table_access": "none",
                            "falcon_adaptors": True, "uses_float": False,
                            "bound": {"eval_ulp": 1.0, "expm_p63_2p63": 1.0,
                                      "fpr_expm_p63_2p63": 1.0},
                            "content_hash": "0123456789abcdef"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def write_kernel_folder(root: Path, sidecar: dict[str, Any], folder_name: str | None = None) -> Path:
    """A kernel folder root/<name> holding `sidecar` and a stand-in header
    with the sidecar's content hash (what kfolder requires); returns the folder."""
    name = folder_name or str(sidecar["name"])
    folder = root / name
    stub = kfolder.Kernel(name, folder, sidecar)
    stub.sidecar_path.parent.mkdir(parents=True, exist_ok=True)
    stub.sidecar_path.write_text(json.dumps(sidecar, indent=1))
    stub.header.write_text(f"/* stand-in */\n#define {name.upper()}_CONTENT_HASH 0x{sidecar.get('content_hash', '')}u\n")
    return folder


def compile_and_run(source: str, include_dirs: list[Path], extra_sources: list[Path] = (),
                    flags: list[str] = (), args: list[str] = (), compiler: str = "gcc",
                    suffix: str = ".c") -> subprocess.CompletedProcess:
    """Compile ``source`` (C text) with the given include folders and run it."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / f"prog{suffix}"
        src.write_text(source)
        exe = Path(tmp) / "prog"
        cmd = [compiler, "-O2", "-Wall", "-Wextra", *flags, *[f"-I{d}" for d in include_dirs],
               str(src), *[str(s) for s in extra_sources], "-o", str(exe)]
        build = subprocess.run(cmd, capture_output=True, text=True)
        if build.returncode != 0:
            raise AssertionError(f"compile failed: {' '.join(cmd)}\n{build.stderr}")
        return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=600)


class TempDirCase(unittest.TestCase):
    """A test class with one temporary folder, ``tmp``, for all its tests."""

    tmp: Path
    _td: tempfile.TemporaryDirectory[str]

    @classmethod
    def setUpClass(cls) -> None:
        cls._td = tempfile.TemporaryDirectory(prefix=cls.__module__.rsplit(".", 1)[-1])
        cls.tmp = Path(cls._td.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls._td.cleanup()


def stage_files(root: Path, tag: str, files: dict[str, str]) -> Path:
    """A new folder root/tag holding the given files (name -> text)."""
    d = root / tag
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def mutated(case: unittest.TestCase, text: str, what: str, old: str, new: str) -> str:
    """text with its one occurrence of old replaced by new (a deliberately
    broken copy for a control); the test fails if old is not there once."""
    case.assertEqual(text.count(old), 1, f"mutation anchor not found once: {what}")
    return text.replace(old, new)


# The sidecar keys of the fixed-point interface, which a kernel without it
# (form eft) does not have.
FIXED_POINT_KEYS = ("polynomial", "segment_list", "z_max", "z_lo", "head")


def fpr_only_folder(root: Path, name: str = "mock_fpr", source: str = "falcon_x86_batch") -> kfolder.Kernel:
    """A kernel folder root/<name> of the kind form eft renders: the Falcon
    adaptors and batch entries of the shipped kernel `source`, renamed, with
    a sidecar that says "fixed_point": false, states top-level "batch" and
    only the adaptors' bound, form "eft".  _eval, _expm_p63 and their macros are renamed
    away in the header, so a tool that still calls them does not compile."""
    src = kfolder.load(GENERATED, source)
    folder = root / name
    (folder / kfolder.PROVENANCE).mkdir(parents=True, exist_ok=True)

    def rename(text: str) -> str:
        return text.replace(source, name).replace(source.upper(), name.upper())

    def hide(text: str) -> str:
        for old in (f"{name}_eval(", f"{name}_expm_p63("):
            text = text.replace(old, old.replace(name, f"{name}_hidden"))
        for macro in ("Z_MAX", "ERR_BOUND_ULP", "EXPM_P63_ERR_BOUND"):
            text = re.sub(rf"\b{name.upper()}_{macro}\b", f"{name.upper()}_HIDDEN_{macro}", text)
        return text

    header = hide(rename(src.header.read_text()))
    sidecar = json.loads(rename(src.sidecar_path.read_text()))
    for key in FIXED_POINT_KEYS:
        sidecar.pop(key, None)
    # The facts of form eft that the tools read (its table of exp(-j/16) is
    # read by a constant-time scan; the source's header has none, which no
    # tool checks against table_bytes).
    sidecar.update(fixed_point=False, form="eft", table_access="ct_scan")
    sidecar["batch"] = list(src.batch_isas)
    sidecar["bound"] = {"fpr_expm_p63_2p63": src.fpr_bound_2p63,
                        "method": f"the bound of {source}'s adaptors (a test fixture)"}
    kernel = kfolder.Kernel(name, folder, sidecar)
    kernel.header.write_text(header)
    kernel.annotated_header.write_text(hide(rename(src.annotated_header.read_text())))
    kernel.sidecar_path.write_text(json.dumps(sidecar, indent=1))
    return kfolder.load(root, name)


TOOLKIT_C = ROOT / "toolkit" / "c"
# Every entry of a kernel on tiny, subnormal and edge bit patterns, then
# the MXCSR's denormal-operand (DE, bit 1) and underflow (UE, bit 4) flags.
# The fixed-point entries are called only where the kernel has them, and
# the _domain entries only on the domain (ccs = 1 included).
_MXCSR_PROGRAM = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <xmmintrin.h>
#include KHEADER
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define K(f) CAT(KNAME, _##f)
static const uint64_t values[] = {
    0x0000000000000001u, 0x000fffffffffffffu, 0x0010000000000000u, 0x8000000000000001u,
    0x07a0000000000000u, 0x07b0000000000000u, 0x07c0000000000000u, 0x3bf0000000000000u,
    0x3be0000000000000u, 0x3c00000000000000u, 0x0000000000000000u, 0x3fe62e42fefa39efu,
    0x3fefffffffffffffu, 0x3fe0000000000000u, 0x3f20000000000000u, 0x3f1fffffffffffffu,
    0x3d4a0045fee69570u, 0x7ff0000000000000u, 0x3ff0000000000000u};
int main(void)
{
    unsigned n = sizeof values / sizeof values[0];
    uint64_t acc = 0;
    _mm_setcsr(_mm_getcsr() & ~0x3fu);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            double x, c;
            memcpy(&x, &values[i], sizeof x);
            memcpy(&c, &values[j], sizeof c);
            acc += K(fpr_expm_p63)(values[i], values[j]) + K(fpr_expm_p63_native)(x, c);
            if (values[i] <= 0x3fe62e42fefa39efu && values[j] <= 0x3ff0000000000000u)
                acc += K(fpr_expm_p63_domain)(x, c) + K(fpr_expm_p63_domain_bits)(values[i], values[j]);
#if FIXED_POINT
            acc += K(expm_p63)(values[i] >> 1, values[j]) + K(eval)(values[i] >> 1);
#endif
        }
    printf("%u %llu\n", _mm_getcsr() & 0x12u, (unsigned long long)acc);
    return 0;
}
"""


def mxcsr_flags(folder: Path, name: str, tmp: Path, fixed_point: bool = True,
                cflags: tuple[str, ...] = ("-mfma",)) -> int:
    """The DE and UE flags (MXCSR bits 1 and 4) after every entry of the
    kernel in ``folder`` ran on _MXCSR_PROGRAM's inputs: 0 when no subnormal
    reached the FPU."""
    src = tmp / "mxcsr.c"
    src.write_text(_MXCSR_PROGRAM)
    exe = tmp / f"mxcsr_{folder.name}"
    subprocess.run(["gcc", "-O2", "-std=gnu11", *cflags, f"-I{folder}", f"-I{TOOLKIT_C}", f"-DKNAME={name}",
                    f'-DKHEADER="{name}.h"', f"-DFIXED_POINT={int(fixed_point)}", str(src), "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    return int(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()[0])


def without_fma_rounding():  # type: ignore[no-untyped-def]
    """A patch under which gen.proof.float_tail treats an FMA as exact (the
    control of the Gappa tests: a proof that forgets the FMA's rounding)."""
    from fractions import Fraction
    from unittest import mock

    from gen.proof import float_tail
    real = float_tail.rounding_error

    def no_fma_rounding(op, before):  # type: ignore[no-untyped-def]
        return Fraction(0) if op.kind == "fma" else real(op, before)
    return mock.patch.object(float_tail, "rounding_error", no_fma_rounding)


ADAPTOR_ENTRIES = ROOT / "tests" / "adaptor_entries.c"


def adaptor_entries(exe: Path, cc: str, header_dir: Path, name: str, flags: tuple[str, ...], inputs: str) -> list[str]:
    """tests/adaptor_entries.c built with ``cc`` and ``flags`` against
    header_dir/<name>.h, run on ``inputs`` (lines "x_bits ccs_bits" in hex):
    one line per input, the four Falcon entries' results."""
    subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-Werror", *flags, f"-I{header_dir}", f"-DKNAME={name}",
                    f'-DKHEADER="{name}.h"', str(ADAPTOR_ENTRIES), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    return subprocess.run([str(exe)], input=inputs, capture_output=True, text=True, check=True).stdout.splitlines()


def entries_against_model(cases: list[tuple[int, int]], lines: list[str], full: Callable[[int, int], int],
                          domain: Callable[[int, int], int], in_domain: Callable[[int, int], bool]) -> list[str]:
    """The mismatches between adaptor_entries' lines and a form's model:
    _fpr_expm_p63 and _native against ``full`` on every case, _domain_bits
    and _domain against ``domain`` where ``in_domain``."""
    if len(lines) != len(cases):
        return [f"{len(lines)} lines for {len(cases)} inputs"]
    bad = []
    for (x, c), line in zip(cases, lines):
        got_full, native, dbits, got_domain = (int(v, 16) for v in line.split())
        want = full(x, c)
        if not got_full == native == want:
            bad.append(f"full x={x:016x} ccs={c:016x}: C {got_full:x} / {native:x}, model {want:x}")
        if in_domain(x, c):
            want = domain(x, c)
            if not dbits == got_domain == want:
                bad.append(f"domain x={x:016x} ccs={c:016x}: C {dbits:x} / {got_domain:x}, model {want:x}")
    return bad


# Bit patterns every Falcon adaptor test feeds in pairs: zeros, subnormals,
# infinities, NaNs, negatives, values above the domain, ln 2's neighbours and
# the edges of the lifts and conversions (2^-23, 2^-62..2^-64) with their
# neighbours.
ADAPTOR_SPECIAL_BITS = (
    0, 1 << 63, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FF0000000000000, 0x7FF0000000000001,
    0xFFF8000000000000, 0x7FF8000000000000, 0xBFF0000000000000, double_bits(1.0), double_bits(1.0) - 1,
    double_bits(0.5), double_bits(2.0), double_bits(1e300), 0x3FE62E42FEFA39EF, 0x3FE62E42FEFA39F0,
    double_bits(2.0 ** -10), double_bits(2.0 ** -10) - 1, double_bits(2.0 ** -11), double_bits(2.0 ** -11) - 1,
    double_bits(2.0 ** -23), double_bits(2.0 ** -23) - 1, double_bits(2.0 ** -23) + 1, double_bits(2.0 ** -62),
    double_bits(2.0 ** -63), double_bits(2.0 ** -63) - 1, double_bits(2.0 ** -64), double_bits(2.0 ** -64) - 1,
    double_bits(2.0 ** -80), double_bits(2.0 ** -128), double_bits(2.0 ** -128) - 1, double_bits(2.0 ** -500))


def adaptor_cases(seed: int, random_inputs: int, x_floor_exp: int) -> list[tuple[int, int]]:
    """Pairs of bit patterns for a Falcon adaptor test: every pair of
    ADAPTOR_SPECIAL_BITS, x at and around every power of two down to
    2^-x_floor_exp, ``random_inputs`` in-domain pairs (x uniform and
    log-uniform down to 2^-x_floor_exp, ccs uniform and log-uniform down to
    2^-70) each followed by a raw random pair."""
    rng = random.Random(seed)
    out = [(a, b) for a in ADAPTOR_SPECIAL_BITS for b in ADAPTOR_SPECIAL_BITS]
    for k in range(1, x_floor_exp + 1):
        for d in (-1, 0, 1):
            out.append((double_bits(2.0 ** -k) + d, double_bits(rng.uniform(0.5, 1.0))))
    for i in range(random_inputs):
        x = rng.uniform(0, float(LN2_DOWN)) if i % 3 else 2.0 ** rng.uniform(-x_floor_exp, -1)
        c = rng.uniform(0.5, 1.0) if i % 4 else 2.0 ** rng.uniform(-70, 0)
        out.append((double_bits(x), double_bits(c)))
        out.append((rng.getrandbits(64), rng.getrandbits(64)))
    return out


def in_falcon_domain(x_bits: int, c_bits: int) -> bool:
    """Whether the bit patterns are x in [+0, LN2_DOWN] and ccs in [+0, 1]."""
    return x_bits <= double_bits(float(LN2_DOWN)) and c_bits <= double_bits(1.0)


GAPPA_SECONDS = 30


def gappa_failures(render: Callable[[slice], str], indices: tuple[int, ...], tmp: Path) -> list[int]:
    """The indices i whose script ``render(slice(i, i + 1))`` Gappa could
    not prove.  A run past GAPPA_SECONDS counts as not proven: a claim Gappa
    cannot reach makes it bisect without end, and the shipped ones take at
    most a few hundredths of a second each."""
    failed = []
    for i in indices:
        script = tmp / f"claim{i}.g"
        script.write_text(render(slice(i, i + 1)))
        try:
            done = subprocess.run(["gappa", str(script)], capture_output=True, text=True, timeout=GAPPA_SECONDS)
        except subprocess.TimeoutExpired:
            failed.append(i)
            continue
        if done.returncode:
            failed.append(i)
    return failed


class AdaptorModelCase(TempDirCase):
    """A shipped binary64 kernel's four Falcon entries against its form's
    model (a module with full(design, x_bits, ccs_bits) and
    domain(design, x, ccs)).  Subclasses set the class attributes and
    ``cases`` / ``text`` (adaptor_cases and its input lines) in setUpClass."""

    kernel_name: str
    cflags: tuple[str, ...]
    model: Any
    design: Any
    cases: list[tuple[int, int]]
    text: str

    def run_checker(self, cc: str, header_dir: Path, extra: tuple[str, ...] = ()) -> list[str]:
        exe = self.tmp / f"entries_{cc}_{header_dir.name}_{len(extra)}"
        return adaptor_entries(exe, cc, header_dir, self.kernel_name, (*self.cflags, *extra), self.text)

    def mismatches(self, lines: list[str]) -> list[str]:
        return entries_against_model(
            self.cases, lines, lambda x, c: self.model.full(self.design, x, c),
            lambda x, c: self.model.domain(self.design, double_from_bits(x), double_from_bits(c)), in_falcon_domain)

    def assert_wrong_word_is_caught(self, word: int) -> None:
        """Control: the shipped header with the 64-bit constant ``word`` one
        unit off must differ from the model."""
        header = (GENERATED / self.kernel_name / f"{self.kernel_name}.h").read_text()
        literal = f"UINT64_C(0x{word:016X})"
        self.assertEqual(header.count(literal), 1, f"{literal} is not in the header once")
        broken = self.tmp / "broken"
        broken.mkdir(exist_ok=True)
        (broken / f"{self.kernel_name}.h").write_text(header.replace(literal, f"UINT64_C(0x{word + 1:016X})"))
        self.assertNotEqual(self.mismatches(self.run_checker("gcc", broken)), [])
