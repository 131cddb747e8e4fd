"""The batch forms of a form = "head" kernel (config key batch,
templates/falcon/batch.h.j2): every SIMD path equals the scalar adaptor bit
for bit (tests/batch_check.c: 10^7 random inputs per path, every pair of
edge inputs, n = 0..67 at unaligned offsets, the register entries against
_domain), under gcc and clang; the dispatch runs each path this CPU has
when forced; a header with one lane deliberately wrong is caught; the
config key is validated."""

from __future__ import annotations

import re
import subprocess
import unittest
from pathlib import Path

import kfolder
from gen import config
from gen.errors import GenError
from tests.helpers import GENERATED, KERNELS, ROOT, TempDirCase

NAME = "falcon_x86_batch"
REFERENCE = "falcon_x86"          # the same config without batch, rendered on its own
CHECKER = ROOT / "tests" / "batch_check.c"
RANDOM_INPUTS = 10_000_000        # per SIMD path (the scalar path gets a tenth)
LANES = {"avx512": 8, "avx2": 4}
FEATURES = {"avx512": ("avx512f", "avx512dq"), "avx2": ("avx2", "fma")}


def cpu_flags() -> set[str]:
    """The CPU's feature flags (Linux), to know which paths must run."""
    text = Path("/proc/cpuinfo").read_text()
    match = re.search(r"^flags\s*:\s*(.*)$", text, re.M)
    return set(match.group(1).split()) if match else set()


def available_paths(isas: list[str]) -> list[str]:
    flags = cpu_flags()
    return [isa for isa in isas if all(f in flags for f in FEATURES[isa])]


class BatchEqualsScalar(TempDirCase):
    """Bit-identity of every path, and the controls."""

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.kernel = kfolder.load(GENERATED, NAME)
        cls.isas = list(cls.kernel.sidecar["head"]["batch"])

    def build(self, cc: str, include: Path, out: str, extra: tuple[str, ...] = ()) -> Path:
        exe = self.tmp / out
        cmd = [cc, "-O2", "-Wall", "-Wextra", "-Werror", "-mfma", f"-I{include}", f"-I{GENERATED}",
               f"-DKNAME={NAME}", f'-DKHEADER="{NAME}/{NAME}.h"',
               f'-DREF_HEADER="{REFERENCE}/{REFERENCE}.h"', f"-DREF_NAME={REFERENCE}",
               *[f"-DKNAME_HAS_X{LANES[isa]}" for isa in self.isas], *extra, str(CHECKER), "-o", str(exe), "-lm"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, f"{' '.join(cmd)}\n{p.stderr}")
        return exe

    def run_checker(self, exe: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300)

    def test_every_path_equals_the_scalar_adaptor(self) -> None:
        paths = available_paths(self.isas)
        for cc in ("gcc", "clang"):
            exe = self.build(cc, GENERATED, f"check-{cc}")
            p = self.run_checker(exe, "full", str(RANDOM_INPUTS), "7")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("mismatches 0", p.stdout)
            self.assertEqual(set(p.stdout.splitlines()[0].split()[1:]), {"scalar", *paths})
            for isa in paths:
                checked = re.search(rf"^checked {isa} (\d+)$", p.stdout, re.M)
                self.assertTrue(checked and int(checked.group(1)) >= RANDOM_INPUTS, p.stdout)
                self.assertIn(f"checked x{LANES[isa]}", p.stdout)

    def test_dispatch_runs_each_available_path(self) -> None:
        macro = f"{NAME.upper()}_BATCH_FORCE"
        for path in ["scalar", *available_paths(self.isas)]:
            value = f"{NAME.upper()}_BATCH_PATH_{path.upper()}"
            exe = self.build("gcc", GENERATED, f"force-{path}", (f"-D{macro}={value}",))
            p = self.run_checker(exe, "dispatch", "100000", "3")
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertEqual(p.stdout.splitlines()[0], f"path {path}")
        # Unforced, the widest path the CPU has.
        exe = self.build("gcc", GENERATED, "force-none")
        p = self.run_checker(exe, "dispatch", "1000", "3")
        self.assertEqual(p.stdout.splitlines()[0], f"path {(available_paths(self.isas) or ['scalar'])[0]}")

    def test_a_wrong_lane_is_caught(self) -> None:
        """Control: the header with lane 2 of each ISA's kernel off by one
        (its final constant C + 2 made C + 3 in that lane only) must fail
        the same comparison, on the array path and the register entry."""
        text = self.kernel.header.read_text()
        patched = text
        for isa in self.isas:
            tag = f"{NAME}_x{LANES[isa]}"
            old = f"{tag}_add(C, {tag}_word(2)), r);"
            self.assertEqual(patched.count(old), 1, old)
            lanes = ", ".join("3" if lane == 2 else "2" for lane in reversed(range(LANES[isa])))
            setter = "_mm512_set_epi64" if isa == "avx512" else "_mm256_set_epi64x"
            patched = patched.replace(old, f"{tag}_add(C, {setter}({lanes})), r);")
        broken = self.tmp / "broken" / NAME
        broken.mkdir(parents=True)
        (broken / f"{NAME}.h").write_text(patched)
        exe = self.build("gcc", self.tmp / "broken", "check-broken")
        p = self.run_checker(exe, "full", "20000", "7")
        self.assertEqual(p.returncode, 1, p.stdout)
        for isa in available_paths(self.isas):
            # The random inputs come first, from index 0: only lane 2 differs.
            found = [int(i) for i in re.findall(rf"^mismatch {isa} i=(\d+) ", p.stdout, re.M)]
            self.assertTrue(found, p.stdout)
            self.assertTrue(all(i % LANES[isa] == 2 for i in found), found)
            self.assertRegex(p.stdout, rf"mismatch x{LANES[isa]}-vs-domain i=2 ")
        self.assertNotIn("mismatch scalar", p.stdout)


class BatchConfig(unittest.TestCase):
    """The key is validated with one-line errors."""

    BASE = (KERNELS / f"{NAME}.toml").read_text()

    def load(self, line: str) -> config.KernelConfig:
        text = re.sub(r"^batch = .*$", line, self.BASE, flags=re.M)
        return config.validate(config.tomllib.loads(text), "test.toml", "0" * 64)

    def test_shipped_config_is_falcon_x86_plus_batch(self) -> None:
        ref = config.load(KERNELS / f"{REFERENCE}.toml").parameters()
        got = config.load(KERNELS / f"{NAME}.toml").parameters()
        self.assertEqual(got.pop("batch"), ["avx512", "avx2"])
        self.assertEqual({k: v for k, v in got.items() if k != "name"}, {k: v for k, v in ref.items() if k != "name"})
        shipped = kfolder.load(GENERATED, NAME).sidecar["bound"]
        self.assertEqual(shipped, kfolder.load(GENERATED, REFERENCE).sidecar["bound"])

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
