"""Tests of the Cortex-M4 target (issue 15, docs/m3.md, section on the
Cortex-M4): facct_m4 and falcon_m4 built for QEMU's mps2-an386, their
outputs against the host build and the vectors, the instruction target
(falcon_m4 through _fpr_expm_p63_domain_bits at most 0.6x facct_m4, both
measured here), the binary scan, the error distribution against the proven
bound, and controls the checks must catch.  Needs the Debian packages
gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm (`make deps`)."""
from __future__ import annotations

import shutil
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from m3 import disasm, errdist, report, scan, timing, trace, vectors  # noqa: E402
from m3.build import FACCT_M4, Target, build_bench, build_vec, build_vec_core, load_kernel, reference  # noqa: E402
from m3.toolchain import ARM_CC, M4, QEMU, run_host, run_qemu  # noqa: E402
from tests.helpers import TempDirCase  # noqa: E402

ROWS = 48          # vectors of facct_vectors.tsv
NRAND = 64         # pseudo-random inputs after them
ERR_ROWS = 200     # inputs per error set (of errdist.PER_SET)
# Falcon's reference error, measured (FACCT.md: 3562.6 units of 2^-63).
FACCT_MEASURED_2P63 = 3562.6
# FACCT.md: the reference's M4 build executes 26 UMULL and 26 UMAAL per call
# (13 products, two of each).
FACCT_UMAAL = 26


def _missing_tools() -> str | None:
    missing = [t for t in (ARM_CC, QEMU) if shutil.which(t) is None]
    return None if not missing else f"not installed: {', '.join(missing)} (make deps)"


@unittest.skipIf(_missing_tools() is not None, _missing_tools() or "")
class M4Test(TempDirCase):
    facct: Target
    falcon: Target
    rows: list[vectors.Row]

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.rows = vectors.load(vectors.DEFAULT_TSV, ROWS)
        vectors.write_header(cls.rows, cls.tmp / "vec" / "vectors.h")
        cls.facct = reference(FACCT_M4)
        cls.falcon = load_kernel("falcon_m4", REPO / "generated")
        cls.out = {t.name: cls.outputs(t, cls.tmp) for t in (cls.facct, cls.falcon)}
        cls.counts = {t.name: cls.trace(t) for t in (cls.facct, cls.falcon)}

    @classmethod
    def outputs(cls, t: Target, out: Path) -> tuple[str, str]:
        elf, exe = build_vec(t, out, cls.tmp / "vec", NRAND, M4)
        m4, host = run_qemu(elf, core=M4), run_host(exe)
        assert m4.returncode == 0 and host.returncode == 0, (t.name, m4.returncode, host.returncode)
        return m4.output, host.output

    @classmethod
    def trace(cls, t: Target) -> tuple[dict[str, trace.CallStats], dict[str, scan.ScanResult]]:
        elf = build_bench(t, cls.tmp, 8, "trace", M4)
        insns, syms = disasm.disassemble(elf), disasm.symbols(elf)
        entries = t.entries()
        stats = trace.per_call(trace.trace_pcs(elf, core=M4), insns,
                               {lab: syms[s][0] for lab, s in entries.items()}, timing.for_core(M4))
        return stats, {lab: scan.scan(insns, s) for lab, s in entries.items()}

    def test_bit_identical_to_host(self) -> None:
        for name, (m4, host) in self.out.items():
            self.assertEqual(report.compare_outputs(m4, host, ROWS + NRAND), (True, "identical"), name)

    def test_facct_m4_matches_vectors(self) -> None:
        # facct_m4's fpr column against the vectors file's facct_int (the
        # public reference's outputs, an independent oracle).
        self.assertIsNone(report.check_portable_oracle(self.out[FACCT_M4][0], self.rows))

    def test_control_wrong_vector_caught(self) -> None:
        bad = [vectors.Row(r.x_bits, r.ccs_bits, r.facct_int ^ (1 << 20 if i == 11 else 0))
               for i, r in enumerate(self.rows)]
        self.assertIsNotNone(report.check_portable_oracle(self.out[FACCT_M4][0], bad))

    def test_control_broken_kernel_caught(self) -> None:
        # The last UMAAL of every product made a UMLAL (it then drops the
        # carry word h0 instead of adding it): the M4 build must then
        # disagree with the host build, which does not use the asm.
        folder = self.tmp / "broken" / "falcon_m4"
        shutil.copytree(self.falcon.include, folder)
        header = folder / self.falcon.kernel.header.name
        text = header.read_text()
        wrong = text.replace('"umaal %[a0], %[h1], %[a1], %[b1]', '"umlal %[a0], %[h1], %[a1], %[b1]')
        self.assertNotEqual(wrong, text)
        header.write_text(wrong)
        broken = load_kernel("falcon_m4", self.tmp / "broken")
        m4, host = self.outputs(broken, self.tmp / "broken")
        self.assertFalse(report.compare_outputs(m4, host, ROWS + NRAND)[0])

    def test_instruction_target(self) -> None:
        stats_f, _ = self.counts[FACCT_M4]
        stats_k, _ = self.counts["falcon_m4"]
        ref = set(stats_f["fpr"].counts)
        domain = set(stats_k["domain"].counts)
        # The same count for every input traced, in both.
        self.assertEqual(len(ref), 1)
        self.assertEqual(len(domain), 1)
        self.assertLessEqual(domain.pop(), 0.6 * ref.pop())

    def test_products_are_umaal(self) -> None:
        # The M4 builds really use the UMULL/UMAAL sequence (a build that
        # fell back to the portable C would have no UMAAL): facct_m4 as
        # FACCT.md counts the reference's M4 build, falcon_m4 two per
        # product, one product per Horner step plus ccs's.
        stats_f, _ = self.counts[FACCT_M4]
        stats_k, _ = self.counts["falcon_m4"]
        self.assertEqual(stats_f["fpr"].per_call_histogram().get("umaal"), FACCT_UMAAL)
        products = self.falcon.kernel.degree + 1
        self.assertEqual(stats_k["domain"].per_call_histogram().get("umaal"), 2 * products)

    def test_no_branch_call_or_float(self) -> None:
        for name in (FACCT_M4, "falcon_m4"):
            _, scans = self.counts[name]
            for label, sc in scans.items():
                self.assertEqual((sc.cond_branches, sc.float_calls, sc.fp_insns, sc.div, sc.indirect_calls),
                                 (0, 0, 0, 0, 0), f"{name} {label}")
        # falcon_m4's entry points are one function each (the kernel inlined,
        # no helper call); facct_m4's may reach its own Horner function.
        for label, sc in self.counts["falcon_m4"][1].items():
            self.assertEqual(dict(sc.other_calls), {}, label)
            self.assertEqual(sc.functions, [sc.entry], label)

    def test_error_distribution(self) -> None:
        sets = {name: rows[:ERR_ROWS] for name, rows in errdist.inputs().items()}
        bound = self.falcon.kernel.headline_bound_2p63
        assert bound is not None
        for name, rows in sets.items():
            folder = self.tmp / f"err_{name}"
            errdist.write_set(rows, folder)
            got = {}
            for t in (self.facct, self.falcon):
                res = run_qemu(build_vec_core(t, self.tmp, folder, f"err_{name}", M4), core=M4)
                self.assertEqual(res.returncode, 0)
                got[t.name] = res.output
            k = errdist.stats(got["falcon_m4"], 3, rows)
            f = errdist.stats(got[FACCT_M4], 2, rows)
            self.assertLessEqual(k["max"], bound, name)
            self.assertLessEqual(f["max"], FACCT_MEASURED_2P63, name)
            # The reference errs by far more than falcon_m4 on uniform x.
            if name == "uniform":
                self.assertGreater(f["max"], 10 * k["max"])
            # Control: outputs raised by 1000 units must show in the mean.
            lines = got["falcon_m4"].splitlines()
            raised = [" ".join(p[:3] + [f"{int(p[3], 16) + 1000:016x}"])
                      for p in (ln.split() for ln in lines[:-1])] + lines[-1:]
            shifted = errdist.stats("\n".join(raised) + "\n", 3, rows)
            self.assertAlmostEqual(shifted["mean"] - k["mean"], 1000, delta=0.01)
            self.assertGreater(shifted["max"], bound)


if __name__ == "__main__":
    unittest.main()
