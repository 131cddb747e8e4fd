"""The batch forms of every kernel that has them (sidecar "batch": form
head's config key batch, templates/falcon/batch.h.j2, and form eft): every
SIMD path equals the scalar adaptor bit for bit (tests/batch_check.c: 10^7
random inputs per path, every pair of edge inputs, n = 0..67 at unaligned
offsets, the register entries against _domain), under gcc and clang, and the
scalar adaptor equals an independently rendered reference where one is
defined (REFERENCES); the dispatch runs each path this CPU has when forced;
a header with one lane deliberately wrong is caught (for every kernel the
entries wrapped with lane 2 off by one; for form head also the kernel code
itself patched); the config key is validated.  Only the Falcon adaptors and
the batch ABI are called, never _eval or _expm_p63, so a kernel without the
fixed-point interface is checked the same way (FprOnlyFixture)."""

from __future__ import annotations

import re
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import ClassVar, Optional

import kfolder
from gen import config, kernel
from gen.errors import GenError
from tests.helpers import GENERATED, KERNELS, ROOT, TempDirCase, fpr_only_folder, shipped_kernels, write_rendered

NAME = "falcon_x86_batch"
# The scalar kernel each batch kernel's scalar adaptor must equal bit for
# bit: the same config without batch (the previous form head flagship, kept
# as a candidate), rendered on its own into the test's folder.  Kernels not
# named here (form eft: no scalar counterpart) are compared with their own
# scalar adaptor only.
REFERENCES = {NAME: "falcon_x86_head"}
REFERENCE_CONFIGS = KERNELS / "candidates"
CHECKER = ROOT / "tests" / "batch_check.c"
RANDOM_INPUTS = 10_000_000        # per SIMD path (the scalar path gets a tenth)
LANES = {"avx512": 8, "avx2": 4}
FEATURES = {"avx512": ("avx512f", "avx512dq"), "avx2": ("avx2", "fma")}
TARGETS = {"avx512": "avx512f,avx512dq", "avx2": "avx2,fma"}
VECTOR = {"avx512": ("__m512i", "__m512d", "_mm512_add_epi64", "_mm512_set_epi64"),
          "avx2": ("__m256i", "__m256d", "_mm256_add_epi64", "_mm256_set_epi64x")}


def batch_kernels() -> list[str]:
    """The shipped kernels whose sidecar names batch forms."""
    return [n for n in shipped_kernels() if kfolder.load(GENERATED, n).batch_isas]


def cpu_flags() -> set[str]:
    """The CPU's feature flags (Linux), to know which paths must run."""
    text = Path("/proc/cpuinfo").read_text()
    match = re.search(r"^flags\s*:\s*(.*)$", text, re.M)
    return set(match.group(1).split()) if match else set()


def available_paths(isas: list[str]) -> list[str]:
    flags = cpu_flags()
    return [isa for isa in isas if all(f in flags for f in FEATURES[isa])]


def wrong_lane_header(kernel: kfolder.Kernel) -> str:
    """A header that includes `kernel`'s own and redefines each ISA's array
    entry and register entry (_expm_p63_x8/_x4) with lane 2 of every vector
    one more than the kernel's: a broken batch form for any kernel of the
    batch ABI, whatever its internals."""
    name = kernel.name
    lines = []
    for isa in kernel.batch_isas:
        lines += [f"#define {name}_fpr_expm_p63_batch_{isa} {name}_fpr_expm_p63_batch_{isa}_correct",
                  f"#define {name}_expm_p63_x{LANES[isa]} {name}_expm_p63_x{LANES[isa]}_correct"]
    lines.append(f'#include "{kernel.header}"')
    for isa in kernel.batch_isas:
        lanes, (vi, vd, add, setter) = LANES[isa], VECTOR[isa]
        one = ", ".join("1" if lane == 2 else "0" for lane in reversed(range(lanes)))
        lines += [f"#undef {name}_fpr_expm_p63_batch_{isa}", f"#undef {name}_expm_p63_x{lanes}",
                  f'static inline __attribute__((target("{TARGETS[isa]}")))',
                  f"void {name}_fpr_expm_p63_batch_{isa}(uint64_t *out, const double *x, const double *ccs, size_t n) {{",
                  f"    {name}_fpr_expm_p63_batch_{isa}_correct(out, x, ccs, n);",
                  f"    for (size_t i = 2; i < n; i += {lanes}) out[i] += 1;",
                  "}",
                  f'static inline __attribute__((target("{TARGETS[isa]}")))',
                  f"{vi} {name}_expm_p63_x{lanes}({vd} x, {vd} ccs) {{",
                  f"    return {add}({name}_expm_p63_x{lanes}_correct(x, ccs), {setter}({one}));",
                  "}"]
    return "\n".join(lines) + "\n"


class _BatchChecks(TempDirCase):
    """Bit-identity of every path of kernel `name` under `gen_dir`, and the
    controls (subclassed once per kernel below)."""

    name: ClassVar[str]
    gen_dir: ClassVar[Path] = GENERATED
    reference: ClassVar[Optional[str]] = None
    random_inputs: ClassVar[int] = RANDOM_INPUTS
    compilers: ClassVar[tuple[str, ...]] = ("gcc", "clang")
    kernel: ClassVar[kfolder.Kernel]
    isas: ClassVar[list[str]]

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.prepare()
        cls.kernel = kfolder.load(cls.gen_dir, cls.name)
        cls.isas = list(cls.kernel.batch_isas)
        cls.ref_dir = cls.tmp / "reference"
        if cls.reference:
            write_rendered(kernel.build(config.load(REFERENCE_CONFIGS / f"{cls.reference}.toml")), cls.ref_dir)

    @classmethod
    def prepare(cls) -> None:
        """Writes the kernel folder when the test makes it (none: shipped)."""

    def build(self, cc: str, include: Path, out: str, extra: tuple[str, ...] = ()) -> Path:
        exe = self.tmp / out
        name, ref = self.name, self.reference
        refs = (f'-DREF_HEADER="{ref}/{ref}.h"', f"-DREF_NAME={ref}") if ref else ()
        cmd = [cc, "-O2", "-Wall", "-Wextra", "-Werror", *self.kernel.cflags, f"-I{include}", f"-I{self.ref_dir}",
               f"-DKNAME={name}", f'-DKHEADER="{name}/{name}.h"', *refs,
               *[f"-DKNAME_HAS_X{LANES[isa]}" for isa in self.isas], *extra, str(CHECKER), "-o", str(exe), "-lm"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, f"{' '.join(cmd)}\n{p.stderr}")
        return exe

    def run_checker(self, exe: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300)

    def test_every_path_equals_the_scalar_adaptor(self) -> None:
        paths = available_paths(self.isas)
        for cc in self.compilers:
            exe = self.build(cc, self.gen_dir, f"check-{cc}")
            p = self.run_checker(exe, "full", str(self.random_inputs), "7")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("mismatches 0", p.stdout)
            self.assertEqual(set(p.stdout.splitlines()[0].split()[1:]), {"scalar", *paths})
            for isa in paths:
                checked = re.search(rf"^checked {isa} (\d+)$", p.stdout, re.M)
                self.assertTrue(checked and int(checked.group(1)) >= self.random_inputs, p.stdout)
                self.assertIn(f"checked x{LANES[isa]}", p.stdout)

    def test_dispatch_runs_each_available_path(self) -> None:
        macro = f"{self.name.upper()}_BATCH_FORCE"
        for path in ["scalar", *available_paths(self.isas)]:
            value = f"{self.name.upper()}_BATCH_PATH_{path.upper()}"
            exe = self.build("gcc", self.gen_dir, f"force-{path}", (f"-D{macro}={value}",))
            p = self.run_checker(exe, "dispatch", "100000", "3")
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertEqual(p.stdout.splitlines()[0], f"path {path}")
        # Unforced, the widest path the CPU has.
        exe = self.build("gcc", self.gen_dir, "force-none")
        p = self.run_checker(exe, "dispatch", "1000", "3")
        self.assertEqual(p.stdout.splitlines()[0], f"path {(available_paths(self.isas) or ['scalar'])[0]}")

    def expect_lane_2_caught(self, header: str, label: str) -> None:
        """The checker built against `header` (in place of the kernel's)
        must fail on every available path, in lane 2 only."""
        broken = self.tmp / label / self.name
        broken.mkdir(parents=True)
        (broken / f"{self.name}.h").write_text(header)
        exe = self.build("gcc", self.tmp / label, f"check-{label}")
        p = self.run_checker(exe, "full", "20000", "7")
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertTrue(available_paths(self.isas), "no batch path runs on this CPU: the control proves nothing")
        for isa in available_paths(self.isas):
            # The random inputs come first, from index 0: only lane 2 differs.
            found = [int(i) for i in re.findall(rf"^mismatch {isa} i=(\d+) ", p.stdout, re.M)]
            self.assertTrue(found, p.stdout)
            self.assertTrue(all(i % LANES[isa] == 2 for i in found), found)
            self.assertRegex(p.stdout, rf"mismatch x{LANES[isa]}-vs-domain i=2 ")
        self.assertNotIn("mismatch scalar", p.stdout)

    def test_a_wrong_lane_is_caught(self) -> None:
        """Control: each ISA's array and register entries with lane 2 off
        by one must fail the same comparison."""
        self.expect_lane_2_caught(wrong_lane_header(self.kernel), "wrapped")


class BatchEqualsScalar(_BatchChecks):
    """falcon_x86_batch, whose scalar adaptor must equal falcon_x86's."""

    name = NAME
    reference = REFERENCES[NAME]

    def test_a_wrong_lane_in_the_kernel_code_is_caught(self) -> None:
        """Control inside the generated code (form head): lane 2 of each
        ISA's kernel off by one (its final constant C + 2 made C + 3 in
        that lane only), on the array path and the register entry."""
        patched = self.kernel.header.read_text()
        for isa in self.isas:
            tag = f"{NAME}_x{LANES[isa]}"
            old = f"{tag}_add(C, {tag}_word(2)), r);"
            self.assertEqual(patched.count(old), 1, old)
            lanes = ", ".join("3" if lane == 2 else "2" for lane in reversed(range(LANES[isa])))
            setter = "_mm512_set_epi64" if isa == "avx512" else "_mm256_set_epi64x"
            patched = patched.replace(old, f"{tag}_add(C, {setter}({lanes})), r);")
        self.expect_lane_2_caught(patched, "patched")


# Every other shipped kernel with batch forms (form eft when it lands), with
# the reference REFERENCES names for it, if any.
for _name in batch_kernels():
    if _name != NAME:
        globals()[f"BatchEqualsScalar_{_name}"] = type(
            f"BatchEqualsScalar_{_name}", (_BatchChecks,),
            {"name": _name, "reference": REFERENCES.get(_name), "__doc__": f"{_name}'s batch forms."})


class FprOnlyFixture(_BatchChecks):
    """A kernel without the fixed-point interface (tests/helpers.
    fpr_only_folder: falcon_x86_batch renamed, _eval and _expm_p63 renamed
    away): the same checks compile and pass, and the wrapped wrong lane is
    caught.  Fewer inputs and one compiler: the code is falcon_x86_batch's,
    checked in full above."""

    name = "mock_fpr"
    random_inputs = 200_000
    compilers = ("gcc",)

    @classmethod
    def prepare(cls) -> None:
        cls.gen_dir = cls.tmp / "gen"
        fpr_only_folder(cls.gen_dir, cls.name)

    def test_the_fixture_has_no_fixed_point_interface(self) -> None:
        self.assertFalse(self.kernel.fixed_point)
        self.assertNotIn(f"{self.name}_eval(", self.kernel.header.read_text())


del _BatchChecks   # the shared checks run only in the subclasses


class BatchConfig(unittest.TestCase):
    """The key is validated with one-line errors."""

    BASE = (KERNELS / f"{NAME}.toml").read_text()

    def load(self, line: str) -> config.KernelConfig:
        text = re.sub(r"^batch = .*$", line, self.BASE, flags=re.M)
        return config.validate(config.tomllib.loads(text), "test.toml", "0" * 64)

    def test_shipped_config_is_the_candidate_plus_batch(self) -> None:
        ref_cfg = config.load(REFERENCE_CONFIGS / f"{REFERENCES[NAME]}.toml")
        got = config.load(KERNELS / f"{NAME}.toml").parameters()
        self.assertEqual(got.pop("batch"), ["avx512", "avx2"])
        ref = ref_cfg.parameters()
        self.assertEqual({k: v for k, v in got.items() if k != "name"}, {k: v for k, v in ref.items() if k != "name"})
        shipped = kfolder.load(GENERATED, NAME).sidecar["bound"]
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(shipped, write_rendered(kernel.build(ref_cfg), Path(tmp)).sidecar["bound"])

    def test_bad_values_are_one_line_errors(self) -> None:
        for line, fragment in (('batch = "avx2"', "expected a non-empty list"),
                               ("batch = []", "expected a non-empty list"),
                               ('batch = ["avx512ifma"]', "is not a known instruction set"),
                               ('batch = ["avx2", "avx2"]', "twice"),
                               ('batch = ["avx2"]\nfma = false', "needs exact_head = 3, fma = true")):
            with self.subTest(line=line):
                with self.assertRaises(GenError) as ctx:
                    self.load(line)
                message = str(ctx.exception)
                self.assertNotIn("\n", message)
                self.assertIn(fragment, message)

    def test_only_with_form_head(self) -> None:
        text = 'batch = ["avx2"]\n' + (KERNELS / "paper_x86.toml").read_text()
        with self.assertRaisesRegex(GenError, "^batch: only with form = 'head'"):
            config.validate(config.tomllib.loads(text), "test.toml", "0" * 64)

    def test_valid_subset_renders_only_that_isa(self) -> None:
        cfg = self.load('batch = ["avx2"]')
        self.assertEqual(cfg.head.batch if cfg.head else None, ("avx2",))


if __name__ == "__main__":
    unittest.main()
