"""Falcon drop-in evidence (falcon/): the adaptors of every kernel that has
them, facct_compat's bit-exactness beyond the vectors, and BerExp decision
counts against the reference, each with a control the harness must catch.

Expected values come from the test vectors (produced by the public
reference), from mpmath, or from runtime/facct_ref.c, never from the
kernel under test."""

from __future__ import annotations

import math
import random
import struct
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import mpmath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from falcon import predict  # noqa: E402
from falcon.berexp import build_berexp, run_berexp, SIGMA_MIN, consistent  # noqa: E402
from falcon.compat import build_compat, perturbed_copy, run_compat  # noqa: E402
from falcon.fpscan import fp_instructions, function_lines  # noqa: E402
from falcon.kernels import (FALCON, VECTORS, Kernel, adaptor_kernels,  # noqa: E402
                            build_probe, compile_c, defines, generated_names, run_probe)

SAN = ["-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-g"]
GENERAL_REGS = ["-mgeneral-regs-only"]

INF = 0x7FF0000000000000
ONE = 0x3FF0000000000000
LN2_DOWN = 0x3FE62E42FEFA39EF          # the largest double below ln 2
ONE_DOWN = 0x3FEFFFFFFFFFFFFF          # 1 - 2^-53
SIGN = 1 << 63
BIT_EXACT = ("facct", "facct_compat")  # kernels that must equal facct_int


def bits(v: float) -> int:
    return int.from_bytes(struct.pack("<d", v), "little")


def load_vectors() -> list[tuple[int, int, int]]:
    """(x_bits, ccs_bits, facct_int) of every row of the shared vectors."""
    rows = []
    for line in VECTORS.read_text().splitlines():
        f = line.split("\t")
        if len(f) < 3 or not all(c in "0123456789abcdefABCDEFx" for c in f[0]):
            continue  # the header
        rows.append((int(f[0], 16), int(f[1], 16), int(f[2], 16)))
    return rows


X_NEGATIVE = [SIGN, SIGN | 1, SIGN | bits(1e-300), SIGN | bits(0.5), SIGN | ONE, SIGN | INF]
X_NAN = [INF | 1, INF | (1 << 51), SIGN | INF | (1 << 51), 0x7FFFFFFFFFFFFFFF]
# ln 2 neighbours above the largest double below it: one ulp is 1.1e-16,
# so 18 ulps reach 2e-15, the most range reduction in double can overshoot.
X_ABOVE = [LN2_DOWN + k for k in range(1, 19)] + [ONE_DOWN, ONE, bits(2.0), bits(1e300), INF]
X_INSIDE = [0, 1, 0x000FFFFFFFFFFFFF, bits(1e-300), bits(2.0 ** -60), bits(2.0 ** -20),
            bits(0.25), bits(0.5), LN2_DOWN - 1, LN2_DOWN]
C_BAD = [0, SIGN, SIGN | bits(0.7), SIGN | INF, INF | 1, SIGN | INF | 5, SIGN | 1]
C_BIG = [ONE, ONE + 1, bits(2.0), bits(1e300), INF]
C_INSIDE = [bits(0.61), bits(0.75), ONE_DOWN, 1, bits(1e-300)]


def edge_cases() -> list[tuple[int, int]]:
    xs = X_NEGATIVE + X_NAN + X_ABOVE + X_INSIDE
    cs = C_BAD + C_BIG + C_INSIDE
    return [(x, c) for x in xs for c in cs]


def random_cases(count: int, seed: int) -> list[tuple[int, int]]:
    """In-domain doubles (uniform bits and uniform reals), ccs in [0.61, 1),
    and raw 64-bit patterns of both."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            out.append((rng.randrange(LN2_DOWN + 1), bits(rng.uniform(0.61, 1.0))))
        elif kind == 1:
            x = min(bits(rng.random() * math.log(2)), LN2_DOWN)
            out.append((x, min(bits(rng.uniform(0.61, 1.0)), ONE_DOWN)))
        else:
            out.append((rng.getrandbits(64), rng.getrandbits(64)))
    return out


def exact_2p63(x_bits: int, ccs_bits: int | None) -> mpmath.mpf:
    """ccs exp(-x) 2^63 for the doubles x and ccs given by their bits, or
    exp(-x) 2^63 if ccs_bits is None: the exact value of what the caller
    passes, which is what the adaptors' bound is about (no conversion)."""
    with mpmath.workprec(160):
        x = mpmath.mpf(struct.unpack("<d", x_bits.to_bytes(8, "little"))[0])
        e = mpmath.exp(-x) * 2 ** 63
        if ccs_bits is None:
            return e
        return e * mpmath.mpf(struct.unpack("<d", ccs_bits.to_bytes(8, "little"))[0])


class _Probes:
    """Probe outputs per kernel, built once: plain gcc (FP-free emulated
    adaptor where the kernel allows it), and gcc and clang with sanitizers."""

    kernels: list[Kernel] = []
    cases: list[tuple[int, int]] = []
    outputs: dict[tuple[str, str], list[tuple[int, int, int, int, int]]] = {}
    tmp: tempfile.TemporaryDirectory | None = None

    @classmethod
    def ensure(cls) -> None:
        if cls.tmp is not None:
            return
        cls.tmp = tempfile.TemporaryDirectory()
        base = Path(cls.tmp.name)
        cls.kernels = adaptor_kernels(generated_names())
        cls.vectors = load_vectors()
        cls.cases = ([(x, c) for x, c, _ in cls.vectors] + edge_cases()
                     + random_cases(30000, 20240601))
        for k in cls.kernels:
            emu = [] if k.uses_float else GENERAL_REGS
            for tag, cc, flags in (("plain", "gcc", []), ("gcc-san", "gcc", SAN),
                                   ("clang-san", "clang", SAN)):
                probe = build_probe(k, base / k.name / tag, cc, flags, emu)
                cls.outputs[(k.name, tag)] = run_probe(probe, cls.cases)


class AdaptorTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        _Probes.ensure()

    def out(self, name: str, tag: str = "plain") -> dict[tuple[int, int], tuple[int, int, int, int, int]]:
        return dict(zip(_Probes.cases, _Probes.outputs[(name, tag)]))

    def test_kernels_found(self) -> None:
        names = [k.name for k in _Probes.kernels]
        for must in BIT_EXACT:
            self.assertIn(must, names)

    def test_vectors_bit_exact(self) -> None:
        """facct, facct_compat and runtime/facct_ref.c give facct_int on
        every row of the vectors."""
        self.assertEqual(len(_Probes.vectors), 1993)
        for name in BIT_EXACT:
            out = self.out(name)
            for x, c, want in _Probes.vectors:
                emu, _, ref, _, _ = out[(x, c)]
                self.assertEqual(emu, want, f"{name} x={x:016x} ccs={c:016x}")
                self.assertEqual(ref, want, f"facct_ref x={x:016x} ccs={c:016x}")

    def test_native_agrees_with_emulated(self) -> None:
        for k in _Probes.kernels:
            for case, (emu, native, _, _, _) in self.out(k.name).items():
                self.assertEqual(emu, native, f"{k.name} {case[0]:016x} {case[1]:016x}")

    def test_domain_adaptor_agrees_on_the_domain(self) -> None:
        """_fpr_expm_p63_domain equals the full adaptor for 0 <= x <= the
        largest double below ln 2 and 0 <= ccs < 1 (sign bits clear), on
        every such case; the control shows it does differ outside."""
        for k in _Probes.kernels:
            inside = differs_outside = 0
            for (x, c), (_, native, _, domain, _) in self.out(k.name).items():
                if x <= LN2_DOWN and c < ONE:
                    inside += 1
                    self.assertEqual(domain, native, f"{k.name} {x:016x} {c:016x}")
                elif domain != native:
                    differs_outside += 1
            self.assertGreater(inside, 20000, k.name)
            self.assertGreater(differs_outside, 0, f"{k.name}: the outside cases do not exercise the adaptor")

    def test_domain_bits_is_the_domain_adaptor(self) -> None:
        """_fpr_expm_p63_domain_bits (emulated-float inputs) returns what
        _fpr_expm_p63_domain returns on the same bits, on every case, inside
        the domain and outside it (where the result is unspecified but must
        not depend on how the inputs were passed)."""
        for k in _Probes.kernels:
            outside = 0
            for (x, c), (_, _, _, domain, dbits) in self.out(k.name).items():
                self.assertEqual(dbits, domain, f"{k.name} {x:016x} {c:016x}")
                outside += not (x <= LN2_DOWN and c < ONE)
            self.assertGreater(outside, 1000, k.name)

    def test_edge_rules(self) -> None:
        """The documented rules: clamps, zero for a bad ccs, ccs >= 1 as 1."""
        for k in _Probes.kernels:
            out = self.out(k.name)
            for c in C_BAD + C_BIG + C_INSIDE:
                at0, atmax = out[(0, c)][0], out[(LN2_DOWN, c)][0]
                for x in X_NEGATIVE + X_NAN:
                    self.assertEqual(out[(x, c)][0], at0, f"{k.name} x={x:016x} c={c:016x}")
                for x in X_ABOVE:
                    self.assertEqual(out[(x, c)][0], atmax, f"{k.name} x={x:016x} c={c:016x}")
            for x in X_NEGATIVE + X_NAN + X_ABOVE + X_INSIDE:
                for c in C_BAD:
                    self.assertEqual(out[(x, c)][0], 0, f"{k.name} x={x:016x} c={c:016x}")
                for c in C_BIG:
                    self.assertEqual(out[(x, c)][0], out[(x, ONE)][0], f"{k.name} c={c:016x}")

    def test_ccs_one_is_exp(self) -> None:
        """ccs == 1.0 gives exp(-x) 2^63 within the proven bound + 1 (the
        reference gives 0 there); in-domain inputs meet the proven bound,
        measured against the exact doubles passed (conversions included)."""
        for k in _Probes.kernels:
            self.assertIsNotNone(k.fpr_bound_2p63, f"{k.name}: sidecar has no bound")
            out = self.out(k.name)
            for x in X_INSIDE:
                got = out[(x, ONE)][0]
                self.assertGreater(got, 0)
                err = abs(got - exact_2p63(x, None))
                self.assertLessEqual(err, k.fpr_bound_2p63 + 1, f"{k.name} x={x:016x}")
            inside = [case for case in _Probes.cases[-30000:][:600]
                      if case[0] <= LN2_DOWN and case[1] < ONE]
            self.assertGreater(len(inside), 300)
            for x, c in inside + [(x, c) for x in X_INSIDE for c in C_INSIDE]:
                err = abs(out[(x, c)][0] - exact_2p63(x, c))
                self.assertLessEqual(err, k.fpr_bound_2p63, f"{k.name} x={x:016x} c={c:016x}")

    def test_sanitized_builds_agree(self) -> None:
        """gcc and clang builds under ASan + UBSan (clang's includes
        float-cast-overflow) run every case silently, same outputs."""
        for k in _Probes.kernels:
            plain = _Probes.outputs[(k.name, "plain")]
            for tag in ("gcc-san", "clang-san"):
                self.assertEqual(_Probes.outputs[(k.name, tag)], plain, f"{k.name} {tag}")

    def test_sanitizer_control(self) -> None:
        """The sanitizer flags do catch a float-to-int overflow (clang) and a
        shift past the width (both): the sanitized runs above are not blind."""
        src = ("#include <stdint.h>\n#include <stdlib.h>\n"
               "int main(int argc, char **argv) { volatile double d = argc > 2 ? atof(argv[1]) : 0;\n"
               "  volatile unsigned n = (unsigned)atoi(argv[2]);\n"
               "  return (int)((int64_t)(d * 1e300) & 1) + (int)((1u << n) & 1); }\n")
        with tempfile.TemporaryDirectory() as tmp:
            c = Path(tmp) / "ctl.c"
            c.write_text(src)
            for cc, args in (("clang", ["1e10", "1"]), ("gcc", ["0", "40"]),
                             ("clang", ["0", "40"])):
                exe = compile_c([c], Path(tmp) / f"ctl_{cc}", [], SAN, cc)
                done = subprocess.run([str(exe), *args], capture_output=True, text=True)
                self.assertNotEqual(done.returncode, 0, f"{cc} {args}: sanitizer missed it")
                self.assertIn("runtime error", done.stderr)
            done = subprocess.run([str(exe), "0", "1"], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)

    def test_emulated_adaptor_fp_free(self) -> None:
        """Integer-only kernels: the emulated adaptor compiles with
        -mgeneral-regs-only (gcc and clang) and its object holds no SSE/x87
        instruction; the native adaptor (control) must show some."""
        with tempfile.TemporaryDirectory() as tmp:
            for k in [k for k in _Probes.kernels if not k.uses_float]:
                inc = [FALCON, k.folder]
                for cc in ("gcc", "clang"):
                    obj = compile_c([FALCON / "emu_wrap.c"], Path(tmp) / f"{k.name}_{cc}.o",
                                    inc, [*defines(k), *GENERAL_REGS], cc, object_only=True)
                    self.assertEqual(fp_instructions(function_lines(obj, "falcon_emu_wrap")), [])
                    plain = compile_c([FALCON / "emu_wrap.c"], Path(tmp) / f"{k.name}_{cc}_p.o",
                                      inc, defines(k), cc, object_only=True)
                    self.assertEqual(fp_instructions(function_lines(plain, "falcon_emu_wrap")), [])
                    ctl = compile_c([FALCON / "native_wrap.c"], Path(tmp) / f"{k.name}_{cc}_n.o",
                                    inc, defines(k), cc, object_only=True)
                    self.assertNotEqual(
                        fp_instructions(function_lines(ctl, "falcon_native_wrap")), [])

    def test_fpscan_on_listing(self) -> None:
        lines = ["mov %rdi,%rax", "mulx %rsi,%rax,%rdx", "cvttsd2si %xmm0,%rax",
                 "fldt 0x10(%rsp)", "vmulpd %ymm1,%ymm2,%ymm3", "lfence", "fistpll (%rsp)"]
        self.assertEqual(fp_instructions(lines), [lines[2], lines[3], lines[4], lines[6]])


class CompatTests(unittest.TestCase):
    """facct_compat (and facct) against runtime/facct_ref.c on 10^6 random
    inputs each, and a one-bit-flipped copy that must mismatch."""

    def test_compat_million(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for k in adaptor_kernels(list(BIT_EXACT)):
                res = run_compat(build_compat(k, Path(tmp) / k.name), 10**6, 7, 2)
                self.assertEqual(res["draws"], 10**6)
                self.assertGreater(res["in_domain"], 4 * 10**5)
                self.assertEqual(res["mismatches"], 0, res.get("first_mismatch"))

    def test_compat_control(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (k,) = adaptor_kernels(["facct_compat"])
            bad = perturbed_copy(k, Path(tmp))
            res = run_compat(build_compat(bad, Path(tmp) / "ctl"), 10**6, 7, 2)
            self.assertGreater(res["mismatches"], 0)

    def test_bad_arguments(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (k,) = adaptor_kernels(["facct_compat"])
            exe = build_compat(k, Path(tmp) / "c")
            done = subprocess.run([str(exe), "lots", "1", "2"], capture_output=True, text=True)
            self.assertEqual(done.returncode, 2)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1)
        done = subprocess.run([sys.executable, "-m", "falcon.compat", "--kernel", "nosuch",
                               "--draws", "10"], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1)


class BerExpTests(unittest.TestCase):
    """10^7 BerExp draws of every kernel and of a control whose error is
    2^44 units, all on the reference's random bytes."""

    CONTROL_BITS = 44
    DRAWS = 10**7

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        kernels = adaptor_kernels(generated_names())
        cls.binary = build_berexp(kernels, Path(cls.tmp.name))
        raw = run_berexp(cls.binary, cls.DRAWS, 11, 2, SIGMA_MIN[512], cls.CONTROL_BITS)
        cls.raw = raw
        cls.rows = {k["name"]: k for k in raw["kernels"]}

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_bit_identical_kernels_never_differ(self) -> None:
        for name in BIT_EXACT:
            row = self.rows[name]
            self.assertEqual((row["decision_diffs"], row["bytes_diffs"]), (0, 0))
            self.assertEqual(row["sum_abs_z_diff"], "0")
            self.assertEqual(row["max_abs_expm_diff"], 0)

    def test_counts_match_their_expectation(self) -> None:
        for name, row in self.rows.items():
            dec = int(row["sum_abs_z_diff"]) / 2.0 ** 64
            byt = predict.bytes_diff_expected(row["first_byte_diff"])
            self.assertTrue(consistent(row["decision_diffs"], dec), f"{name}: {row} vs {dec}")
            self.assertTrue(consistent(row["bytes_diffs"], byt), f"{name}: {row} vs {byt}")

    def test_control_differs_at_predicted_rate(self) -> None:
        row = self.rows[f"control_trunc{self.CONTROL_BITS}"]
        s_prob = self.raw["sampler"]["s_prob"]
        analytic = self.DRAWS * predict.per_call_estimate(2.0 ** (self.CONTROL_BITS - 1), s_prob)
        self.assertGreater(analytic, 3.0)
        self.assertGreater(row["decision_diffs"], 0)
        self.assertGreater(row["bytes_diffs"], 0)
        self.assertTrue(consistent(row["decision_diffs"], analytic), f"{row} vs {analytic}")

    def test_sampler_model_sane(self) -> None:
        s = self.raw["sampler"]
        self.assertAlmostEqual(sum(s["s_prob"]), 1.0, places=4)
        self.assertGreater(s["calls_per_sample"], 1.0)
        self.assertLess(s["calls_per_sample"], 3.0)

    def test_bad_arguments(self) -> None:
        for args in (["0", "1", "1", "1.3", "0"], ["10", "1", "1", "5", "0"],
                     ["10", "1", "1", "1.3", "99"]):
            done = subprocess.run([str(self.binary), *args], capture_output=True, text=True)
            self.assertEqual(done.returncode, 2, args)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1)


class PredictTests(unittest.TestCase):
    """The probability formulas, checked by exhaustive enumeration on a
    16-bit analogue of BerExp's byte comparison (two bytes, top first)."""

    @staticmethod
    def compare(z: int, r: int) -> tuple[bool, int]:
        for i, shift in enumerate((8, 0)):
            w = ((r >> shift) & 0xFF) - ((z >> shift) & 0xFF)
            if w:
                return w < 0, i + 1
        return False, 2

    def test_enumeration(self) -> None:
        rng = random.Random(3)
        pairs = [(rng.randrange(1 << 16), rng.randrange(1 << 16)) for _ in range(12)]
        pairs += [(0x1234, 0x1235), (0x1200, 0x13FF), (0x8000, 0x8000)]
        for z1, z2 in pairs:
            dec = byt = 0
            for r in range(1 << 16):
                a1, n1 = self.compare(z1, r)
                a2, n2 = self.compare(z2, r)
                dec += a1 != a2
                byt += n1 != n2
            self.assertEqual(dec, abs(z1 - z2))
            j = 0 if (z1 ^ z2) >> 8 else (1 if z1 != z2 else None)
            # 16-bit analogue of 2^-(8j + 7) for j < last byte, 0 at the last.
            want = 0 if j is None or j == 1 else (1 << 16) * 2 // 256
            self.assertEqual(byt, want, (hex(z1), hex(z2)))

    def test_per_call_scales_with_s(self) -> None:
        self.assertEqual(predict.mean_two_pow_minus_s([0.5, 0.5]), 0.75)
        self.assertAlmostEqual(predict.per_call_estimate(2.0 ** 62, [1.0]), 0.5)
        self.assertGreater(predict.per_call_bound(1.0, [0.5, 0.5]),
                           predict.per_call_estimate(1.0, [0.5, 0.5]))


if __name__ == "__main__":
    unittest.main()
