"""The form = "head" kernels (falcon_x86_single, and the candidates falcon_x86_head, the previous
flagship, and falcon_x86_fast_head):
the C code equals the generator's exact model under every build that may
contract or reorder; Gappa re-proves the binary64 part's claims; and the
controls: a proof that drops the FMA's rounding, a subnormal case or the
conversion of the inputs is caught, and a build whose subnormal flush is
broken sets the denormal flags that the real one never sets."""

from __future__ import annotations

import functools
import json
import random
import shutil
import subprocess
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path
from unittest import mock

import kfolder
from certify import gappa_head
from falcon.kernels import build_probe, run_probe
from gen import config, head_model, kernel, render
from gen.errors import GenError
from gen.exact import double_bits
from gen.proof import assemble, head
from tests.helpers import GENERATED, KERNELS, ROOT, mxcsr_flags, without_fma_rounding, write_rendered


HEAD_KERNELS = ("falcon_x86_single",)
# The previous flagship (form head with the conversion remainders), now a
# candidate: falcon_x86_batch is its config plus the batch key.
HEAD_FLAGSHIP = ROOT / "kernels" / "candidates" / "falcon_x86_head.toml"
# The head kernel without the conversion remainders, Estrin and FMA: the
# previous falcon_x86_fast, kept as a candidate (not in generated/).
HEAD_FAST = ROOT / "kernels" / "candidates" / "falcon_x86_fast_head.toml"
LN2_DOWN = 0.6931471805599453
# Pieces of each entry Gappa re-proves in the tests (`make certify` proves all).
SAMPLE_PIECES = (0, 3, 12, 24, 36, 48, 60, 75)


def _cases(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """(x_bits, ccs_bits): uniform and log-uniform x, powers of two and their
    neighbours, ccs uniform and small, edges and values outside the domain."""
    out = []
    for i in range(count):
        x = rng.uniform(0, LN2_DOWN) if i % 3 else 2.0 ** rng.uniform(-80, -8)
        if i % 7 == 0:
            x = 2.0 ** -rng.randint(1, 64) * rng.choice((1.0, 1.0 - 2.0 ** -53, 1.0 + 2.0 ** -52))
        c = rng.uniform(0.5, 1.0) if i % 4 else 2.0 ** rng.uniform(-70, 0)
        out.append((double_bits(min(x, LN2_DOWN)), double_bits(min(c, 1.0 - 2.0 ** -53))))
    odd = [0.0, -0.0, 2.0 ** -1074, 2.0 ** -1022, 2.0 ** -901, 2.0 ** -899, 1e-300, LN2_DOWN, 0.7, 1.0,
           float("inf"), float("nan"), -1.0, 2.0 ** -64, 2.0 ** -65]
    out += [(double_bits(x), double_bits(c)) for x in odd for c in odd]
    return out


@functools.lru_cache(maxsize=None)
def _built(path: Path) -> "kernel.HeadKernel":
    return kernel.build(config.load(path))  # type: ignore[return-value]


def _shipped(name: str) -> "kernel.HeadKernel":
    return _built(KERNELS / f"{name}.toml")


def _in_domain(x_bits: int, c_bits: int) -> bool:
    return x_bits <= double_bits(LN2_DOWN) and c_bits < double_bits(1.0)


class ModelEqualsC(unittest.TestCase):
    """Every adaptor, as gcc and clang compile it (gcc also with
    -ffp-contract=fast, which contracts products and sums into FMAs where
    the code lets it), returns what the generator's exact model returns."""

    def test_adaptors_match_the_model(self) -> None:
        rng = random.Random(17)
        cases = _cases(rng, 1500)
        builds = (("gcc", ()), ("gcc", ("-ffp-contract=fast",)), ("clang", ()))
        with tempfile.TemporaryDirectory() as tmp:
            kernels = [(name, _shipped(name), kfolder.load(GENERATED, name)) for name in HEAD_KERNELS]
            for path in (HEAD_FLAGSHIP, HEAD_FAST):
                candidate = _built(path)
                kernels.append((candidate.cfg.name, candidate, write_rendered(candidate, Path(tmp))))
            for name, k, folder in kernels:
                want_full = [head_model.model_fpr(k, x, c) for x, c in cases]
                want_domain = {i: head_model.model_domain(k, x, c) for i, (x, c) in enumerate(cases)
                               if _in_domain(x, c)}
                for cc, flags in builds:
                    out = Path(tmp) / f"{name}-{cc}-{len(flags)}"
                    rows = run_probe(build_probe(folder, out, cc, flags), cases)
                    for i, (emu, native, _, domain, dbits) in enumerate(rows):
                        where = f"{name} {cc} {flags} x={cases[i][0]:016x} ccs={cases[i][1]:016x}"
                        self.assertEqual((emu, native), (want_full[i], want_full[i]), where)
                        if i in want_domain:
                            self.assertEqual((domain, dbits), (want_domain[i], want_domain[i]), where)


def _gappa_failures(sidecar: dict, pieces: tuple[int, ...]) -> list[str]:
    """Gappa run on the given pieces of every entry; what it could not prove."""
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for entry in gappa_head.ENTRIES:
            for i in pieces:
                script = Path(tmp) / f"{entry}{i}.g"
                script.write_text(gappa_head.render_script(sidecar, entries=(entry,), pieces=slice(i, i + 1)))
                done = subprocess.run(["gappa", str(script)], capture_output=True, text=True, timeout=300)
                if done.returncode != 0:
                    failed.append(f"{entry} piece {i}")
    return failed


def _sidecar_of(k: "kernel.HeadKernel") -> dict:
    return json.loads(render.render(k, "generated")[kfolder.layout(k.cfg.name).sidecar])


class GappaReprovesTheBinary64Part(unittest.TestCase):
    def test_shipped_claims_proven_on_a_sample(self) -> None:
        self.assertEqual(_gappa_failures(_sidecar_of(_built(HEAD_FAST)), SAMPLE_PIECES), [])

    def test_control_proof_without_the_fma_rounding(self) -> None:
        """A proof that forgets that an FMA rounds (once) claims intervals
        Gappa cannot prove; the self-check does not notice it."""
        with without_fma_rounding():
            k = kernel.build(config.load(HEAD_FAST))
        shipped = _built(HEAD_FAST)
        self.assertLess(k.fpr_bound_2p63, shipped.fpr_bound_2p63)
        self.assertGreater(len(_gappa_failures(_sidecar_of(k), SAMPLE_PIECES)), len(SAMPLE_PIECES))


class ProofControls(unittest.TestCase):
    def test_control_subnormal_case_refused(self) -> None:
        """Reading ccs down to 2^-1060 (instead of flushing it below 2^-64)
        lets subnormal values reach the FPU: the proof refuses both forms of
        the adaptors (with and without the remainders)."""
        for path in (HEAD_FLAGSHIP, HEAD_FAST):
            with mock.patch.object(head, "C_FLUSH", Fraction(1, 1 << 1060)), \
                    self.assertRaisesRegex(GenError, "subnormal"):
                kernel.build(config.load(path))

    def test_control_conversion_left_out_refused(self) -> None:
        """A bound that ignores the conversion of the doubles (z = 2
        trunc(x 2^63)) is refused by the self-check, which measures the
        adaptors against the exact doubles."""
        with mock.patch.object(assemble, "conversion_interval", lambda iv: iv), \
                self.assertRaisesRegex(GenError, "self-check: paper_x86_fpr_expm_p63_domain"):
            kernel.build(config.load(KERNELS / "paper_x86.toml"))


class NoSubnormalReachesTheFpu(unittest.TestCase):
    """At run time: tiny, subnormal and edge inputs through every entry leave
    the MXCSR's denormal-operand and underflow flags clear; the control (a
    copy whose flush keeps every positive value) sets them."""

    def test_flags_clear_and_control_caught(self) -> None:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            for name in HEAD_KERNELS:
                self.assertEqual(mxcsr_flags(GENERATED / name, name, tmp), 0, name)
            broken = tmp / "broken"
            shutil.copytree(GENERATED / "falcon_x86_single", broken)
            hits = 0
            for header in broken.glob("*.h"):
                text = header.read_text()
                hits += text.count("_mm_set1_epi64x(min_bits - 1)")
                header.write_text(text.replace("_mm_set1_epi64x(min_bits - 1)", "_mm_set1_epi64x(0)"))
            self.assertEqual(hits, 1, "the control did not find the flush to break")
            self.assertNotEqual(mxcsr_flags(broken, "falcon_x86_single", tmp), 0)


class HeadConfigErrors(unittest.TestCase):
    BASE = {"name": "h", "function": "exp(-x)", "domain": ["0", "ln2"], "word_bits": 64, "scale_bits": 63,
            "degree": 12, "segments": {"kind": "equal", "count": 1}, "form": "head", "float_tail": 6}

    def test_bad_head_configs(self) -> None:
        for change, message in (({"float_tail": 3}, "float_tail"), ({"float_tail": 13}, "float_tail"),
                                ({"exact_head": 4}, "exact_head"), ({"scale_bits": 62}, "scale_bits = 63"),
                                ({"form": "direct", "exact_head": 3, "float_tail": None},
                                 "only with form = 'head'"),
                                ({"fma": "yes"}, "fma")):
            with self.subTest(change), self.assertRaisesRegex(GenError, message):
                raw = {k: v for k, v in (self.BASE | change).items() if v is not None}
                config.validate(raw, "h.toml", "0" * 64)


if __name__ == "__main__":
    unittest.main()


class HeadMessages(unittest.TestCase):
    def test_taylor_bound_beyond_doubles_is_shown(self) -> None:
        """A mutated function's Taylor bound can exceed the double range;
        the exact-head refusal must still be one readable line (the fuzzer
        found an OverflowError traceback here)."""
        from gen.fit.head import _show
        self.assertEqual(_show(Fraction(1, 3)), "0.333333")
        self.assertEqual(_show(Fraction(2 ** 2000 + 1)), "~2^2000")
        self.assertEqual(_show(Fraction(-(2 ** 2000))), "-~2^2000")

    def test_wrapped_result_is_named(self) -> None:
        """Degree 13 with float_tail 4 has a bound (tens of thousands of
        units) that allows a negative result near ccs = 0, which the final
        modular subtraction wraps: the self-check refuses it and says so."""
        raw = HeadConfigErrors.BASE | {"degree": 13, "float_tail": 4, "exact_head": 3}
        with self.assertRaisesRegex(GenError, r"self-check: .*wrapped modulo 2\^64.*refusing to emit"):
            kernel.build(config.validate(raw, "h.toml", "0" * 64))
