"""Tests of the sampler-level benchmark (bench/sampler.h, bench/sampler_main.c,
bench/sampler_run.py, make bench-sampler).

The loop must be a correct Falcon SamplerZ: with every kernel, in the
sequential loop and in the speculative ones (K candidates per round through
the batch kernel, bench/sampler_spec.h), its samples must follow the
discrete Gaussian of the requested centre and deviation, checked against
exact probabilities by a chi-square test and the first two moments, and its
BerExp decisions must accept at the exact rate.  Deliberately broken
controls must fail those checks, so they are not blind: two broken expm_p63
in the sequential loop (a constant, and 1 - r instead of e^-r), and in the
speculative loop the same linear expm and a correct batch kernel whose
lanes are rotated (each candidate decided with its neighbour's
probability).  Nothing here asserts on a time.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import unittest
from pathlib import Path

from mpmath import mp, mpf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import sampler_run  # noqa: E402

BIN = ROOT / "build" / "bench" / "sampler_main"
SEQUENTIAL = ("facct_int128", "facct_avx2", "falcon_x86_v1", "falcon_x86_head", "falcon_x86", "falcon_x86_fast",
              "falcon_x86_simd", "falcon_x86/domain", "falcon_x86_fast/domain")
# Speculative loops with the number of candidates per round; the pool4/8
# loops keep the undecided candidates' base samples for the next call.
SPECULATIVE = {"spec4_facct_int128": 4, "spec4_batch_avx2": 4, "spec8_facct_int128": 8,
               "spec8_batch_avx512": 8, "pool4_facct_int128": 4, "pool4_batch_avx2": 4,
               "pool8_facct_int128": 8, "pool8_batch_avx512": 8}
CONTROLS = ("ctl_const", "ctl_linear", "spec4_ctl_rotate", "spec4_ctl_linear", "pool4_ctl_rotate")
SIGMA_MIN, SIGMA_0 = 1.2778336969128337, 1.8205
# (mu, sigma') pairs: near both ends of the deviation range (sigma_min
# itself makes ccs = 1, which Falcon never passes and draw refuses), and
# fractional parts of mu away from 0.
CASES = ((0.3, 1.28), (-2.71, SIGMA_0), (17.5, 1.55))
SAMPLES = 100_000
# A correct sampler fails at this p-value once in 10^6 runs (the seeds are
# fixed, so the test is deterministic either way).
P_MIN = 1e-6


# The variants this CPU runs (`list`: the AVX-512 loop needs AVX-512F/DQ).
LISTED: dict[str, list[str]] = {}


def setUpModule() -> None:
    subprocess.run(["make", "-s", "-C", str(ROOT), "build/bench/sampler_main"], check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run([str(BIN), "list"], capture_output=True, text=True, check=True).stdout
    LISTED.update((line.split()[0], line.split()[1:]) for line in out.splitlines())


def kernels() -> list[str]:
    """Every non-control loop this CPU runs, sequential and speculative."""
    return [k for k in (*SEQUENTIAL, *SPECULATIVE) if k in LISTED]


class Draw:
    """One `draw` run: BerExp decisions, candidates computed, random bytes
    consumed and the histogram of the samples."""

    def __init__(self, name: str, mu: float, sigma: float, n: int = SAMPLES, seed: int = 11) -> None:
        out = subprocess.run([str(BIN), "draw", name, str(n), repr(mu), repr(sigma), str(seed)],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        head = dict(line.split() for line in out[:4])
        assert head["outside"] == "0", head
        self.trials, self.candidates, self.bytes = (int(head[k]) for k in ("trials", "candidates", "bytes"))
        self.hist = {int(v): int(c) for v, c in (line.split() for line in out[4:] if line)}


def draw(name: str, mu: float, sigma: float, n: int = SAMPLES, seed: int = 11) -> tuple[int, dict[int, int]]:
    """(BerExp decisions, histogram) of n samples drawn with `name`."""
    d = Draw(name, mu, sigma, n, seed)
    return d.trials, d.hist


def base_table() -> list[int]:
    """The base sampler's 18 table entries, as the binary prints them."""
    out = subprocess.run([str(BIN), "table"], capture_output=True, text=True, check=True).stdout
    return [(a << 48) | (b << 24) | c for a, b, c in
            (map(int, line.split()) for line in out.splitlines())]


def accept_probability(mu: float, sigma: float) -> float:
    """The exact probability that one BerExp decision of the loop accepts:
    over the base sample z0 (P(z0 = k) = (T[k-1] - T[k]) / 2^72 from the
    table T, T[-1] = 2^72) and the sign bit, the mean of ccs exp(-x) with x
    as bench/sampler.h computes it (the same double constants)."""
    mp.prec = 120
    table = [2 ** 72, *base_table(), 0]
    r = mpf(mu) - math.floor(mu)
    dss = mpf(0.5) / (mpf(sigma) * mpf(sigma))
    ccs = SIGMA_MIN / mpf(sigma)
    inv_2s0 = mpf(0.15086504887537272)
    total = mpf(0)
    for k in range(19):
        p0 = mpf(table[k] - table[k + 1]) / mpf(2) ** 72
        for b in (0, 1):
            z = b + (2 * b - 1) * k
            x = (z - r) ** 2 * dss - k * k * inv_2s0
            total += p0 / 2 * ccs * mp.exp(-x)
    return float(total)


def gaussian(mu: float, sigma: float) -> dict[int, float]:
    """The discrete Gaussian on the integers: P(k) proportional to
    exp(-(k - mu)^2 / (2 sigma^2)), over mu +- 40 (the rest is < 2^-700)."""
    ks = range(math.floor(mu) - 40, math.floor(mu) + 41)
    w = {k: math.exp(-(k - mu) ** 2 / (2 * sigma * sigma)) for k in ks}
    total = sum(w.values())
    return {k: v / total for k, v in w.items()}


def chi_square_p(hist: dict[int, int], probs: dict[int, float]) -> float:
    """p-value of Pearson's chi-square test of hist against probs, outcomes
    with an expected count below 5 pooled into the tails."""
    n = sum(hist.values())
    assert set(hist) <= set(probs), sorted(set(hist) - set(probs))
    ks = sorted(probs)
    big = [k for k in ks if probs[k] * n >= 5]
    lo, hi = big[0], big[-1]
    cells = [(sum(hist.get(k, 0) for k in ks if k <= lo), sum(probs[k] for k in ks if k <= lo))]
    cells += [(hist.get(k, 0), probs[k]) for k in big[1:-1]]
    cells += [(sum(hist.get(k, 0) for k in ks if k >= hi), sum(probs[k] for k in ks if k >= hi))]
    stat = sum((obs - n * p) ** 2 / (n * p) for obs, p in cells)
    df = len(cells) - 1
    return float(mp.gammainc(df / 2, stat / 2, mp.inf, regularized=True))


def moments_ok(hist: dict[int, int], probs: dict[int, float]) -> bool:
    """Sample mean and variance within 5 standard errors of the exact ones."""
    n = sum(hist.values())
    mean = sum(k * p for k, p in probs.items())
    var = sum((k - mean) ** 2 * p for k, p in probs.items())
    m4 = sum((k - mean) ** 4 * p for k, p in probs.items())
    s_mean = sum(k * c for k, c in hist.items()) / n
    s_var = sum((k - s_mean) ** 2 * c for k, c in hist.items()) / (n - 1)
    return (abs(s_mean - mean) <= 5 * math.sqrt(var / n)
            and abs(s_var - var) <= 5 * math.sqrt((m4 - var * var) / n))


def decisions_ok(d: Draw, n: int, p: float) -> bool:
    """The number of BerExp decisions for n accepted samples within 5
    standard errors of n / p: each sample takes a geometric number of
    decisions of mean 1 / p and variance (1 - p) / p^2."""
    return abs(d.trials - n / p) <= 5 * math.sqrt(n * (1 - p)) / p


def rounds_ok(d: Draw, n: int, p: float, k: int) -> bool:
    """A speculative loop's candidates: k per round, and the rounds per
    sample geometric with success probability 1 - (1 - p)^k (some decision
    of the round accepts), within 5 standard errors."""
    s = 1 - (1 - p) ** k
    rounds, rem = divmod(d.candidates, k)
    return rem == 0 and abs(rounds - n / s) <= 5 * math.sqrt(n * (1 - s)) / s


class Distribution(unittest.TestCase):
    def test_every_kernel_samples_the_target_gaussian(self) -> None:
        names = kernels()
        self.assertTrue(set(SEQUENTIAL) | {"spec4_batch_avx2"} <= set(names), names)
        for name in names:
            for mu, sigma in CASES:
                with self.subTest(kernel=name, mu=mu, sigma=sigma):
                    trials, hist = draw(name, mu, sigma)
                    self.assertEqual(sum(hist.values()), SAMPLES)
                    self.assertGreater(trials, SAMPLES)  # some trials reject
                    probs = gaussian(mu, sigma)
                    self.assertGreater(chi_square_p(hist, probs), P_MIN)
                    self.assertTrue(moments_ok(hist, probs))

    def test_decisions_accept_at_the_exact_rate(self) -> None:
        # BerExp accepts with probability ccs e^-x whatever the loop shape;
        # the speculative loops only compute more candidates (K per round),
        # and those that drop the undecided ones read more random bytes.
        for mu, sigma in CASES:
            p = accept_probability(mu, sigma)
            seq_bytes = Draw(SEQUENTIAL[0], mu, sigma).bytes
            for name in kernels():
                with self.subTest(kernel=name, mu=mu, sigma=sigma):
                    d = Draw(name, mu, sigma)
                    self.assertTrue(decisions_ok(d, SAMPLES, p), (d.trials, SAMPLES / p))
                    k = SPECULATIVE.get(name)
                    if k is None:
                        self.assertEqual(d.candidates, d.trials)
                        continue
                    self.assertTrue(rounds_ok(d, SAMPLES, p, k), (d.candidates, k))
                    if name.startswith("pool"):
                        self.assertLess(abs(d.bytes / seq_bytes - 1), 0.02, (d.bytes, seq_bytes))
                    else:
                        self.assertGreater(d.bytes, 2 * seq_bytes)

    def test_broken_decisions_fail_the_rate_check(self) -> None:
        # The rotated control keeps every decision's probability, only
        # attached to the wrong candidate: the distribution check catches it.
        for name in ("ctl_const", "ctl_linear", "spec4_ctl_linear"):
            for mu, sigma in CASES:
                with self.subTest(control=name, mu=mu, sigma=sigma):
                    d = Draw(name, mu, sigma)
                    self.assertFalse(decisions_ok(d, SAMPLES, accept_probability(mu, sigma)))

    def test_broken_expm_fails_the_check(self) -> None:
        for name in CONTROLS:
            for mu, sigma in CASES:
                with self.subTest(control=name, mu=mu, sigma=sigma):
                    _, hist = draw(name, mu, sigma)
                    self.assertLess(chi_square_p(hist, gaussian(mu, sigma)), P_MIN)
                    self.assertFalse(moments_ok(hist, gaussian(mu, sigma)))

    def test_wrong_target_fails_the_check(self) -> None:
        # The check itself, against a deviation 3 % off: must reject.
        _, hist = draw("facct_int128", 0.3, 1.55)
        self.assertLess(chi_square_p(hist, gaussian(0.3, 1.55 * 1.03)), P_MIN)


class Loop(unittest.TestCase):
    def test_base_table_is_the_half_gaussian_rcdt(self) -> None:
        # RCDT[i] = floor(2^72 P(z0 > i)), P(z0 = k) ~ exp(-k^2 / (2 sigma_0^2)), k >= 0.
        mp.prec = 300
        s0 = mpf("1.8205")
        p = [mp.exp(-mpf(k) ** 2 / (2 * s0 ** 2)) for k in range(100)]
        total, tail, want = sum(p), sum(p), []
        for i in range(18):
            tail -= p[i]
            want.append(int(mp.floor(tail / total * mpf(2) ** 72)))
        self.assertEqual(base_table(), want)

    def test_kernels_draw_their_base_samples_and_controls_do_not(self) -> None:
        # Same bytes, same loop shape: a kernel reproduces its base's samples
        # (facct_int128 in the same loop) except where an output difference
        # flips a decision, far too rare to see here; the speculative loops
        # read the bytes in another order, so they do not reproduce the
        # sequential facct_int128's samples.
        out = subprocess.run([str(BIN), "agree", "20000", "5"], capture_output=True, text=True,
                             check=True).stdout
        rows = {v["name"]: v for v in json.loads(out)["variants"]}
        self.assertEqual(set(rows), set(kernels()) | set(CONTROLS))
        for name in kernels():
            self.assertEqual(rows[name]["differing"], 0, name)
            if name in SPECULATIVE:
                self.assertEqual(rows[name]["base"], name[:6] + "facct_int128")
                self.assertGreater(rows[name]["differing_from_facct_int128"], 1000, name)
            else:
                self.assertEqual(rows[name]["base"], "facct_int128")
        for name in CONTROLS:
            self.assertGreater(rows[name]["differing"], 1000, name)

    def test_avx512_loop_listed_iff_the_cpu_has_it(self) -> None:
        flags = Path("/proc/cpuinfo").read_text().split()
        for name in ("spec8_batch_avx512", "pool8_batch_avx512"):
            self.assertEqual(name in LISTED, "avx512f" in flags and "avx512dq" in flags)

    def test_time_mode_shape(self) -> None:
        out = subprocess.run([str(BIN), "time", "1", "3", "16", "0"], capture_output=True,
                             text=True, check=True).stdout
        doc = json.loads(out)
        self.assertEqual([v["name"] for v in doc["variants"]], kernels())
        for v in doc["variants"]:
            self.assertEqual(len(v["ticks_per_sample"]), 3)
            self.assertGreater(v["trials_per_sample"], 1.0)
            self.assertGreaterEqual(v["candidates_per_sample"], v["trials_per_sample"])
            self.assertGreater(v["bytes_per_sample"], 10.0)
            self.assertEqual(v["rounds_differing_from_base"], 0)
        self.assertEqual(len(doc["calibration"]["imul"]), 3)

    def test_bad_arguments_are_one_line_errors(self) -> None:
        for args in (["draw", "nope", "10", "0", "1.5", "1"], ["draw", "facct_int128", "10", "0", "3", "1"],
                     ["draw", "facct_int128", "10", "0", repr(SIGMA_MIN), "1"],
                     ["count", "facct_int128", "0"], ["time", "1", "x", "16", "0"], ["frobnicate"],
                     ["count", "spec9_nope", "10"]):
            p = subprocess.run([str(BIN), *args], capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0, args)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, args)


class Summary(unittest.TestCase):
    def run_doc(self, ticks: dict[str, float]) -> dict[str, object]:
        return {"calibration": {"imul": [2.0, 2.0], "add": [2.0, 2.0]},
                "variants": [{"name": n, "kind": "speculative" if n.startswith("spec") else "kernel",
                              "isa": "-", "base": "facct_int128", "trials_per_sample": 1.7,
                              "candidates_per_sample": 4.0 if n.startswith("spec") else 1.7,
                              "bytes_per_sample": 40.0 if n.startswith("spec") else 20.0,
                              "rounds_differing_from_base": 0,
                              "ticks_per_sample": [t, t]} for n, t in ticks.items()]}

    def test_ratios_and_targets(self) -> None:
        # int128 100 ticks, fast 95 (0.95: misses 0.93), x86 99 (0.99: meets 1.0).
        _, results = sampler_run.summarise([self.run_doc(
            {"facct_int128": 100.0, "falcon_x86_fast": 95.0, "falcon_x86": 99.0})])
        by = {r["name"]: r for r in results}
        self.assertAlmostEqual(by["facct_int128"]["cycles_per_sample_median"], 200.0)
        self.assertAlmostEqual(by["falcon_x86_fast"]["ratio_to_facct_int128"], 0.95)
        self.assertAlmostEqual(by["falcon_x86_fast"]["paired_ratio_median"], 0.95)
        met = {t["kernel"]: t["met"] for t in sampler_run.targets(results)}
        self.assertEqual(met, {"falcon_x86_fast": False, "falcon_x86": True})

    def test_speculative_against_the_best_sequential(self) -> None:
        # Best sequential: fast (95); spec_a 90 beats it, spec_b 120 does not.
        _, results = sampler_run.summarise([self.run_doc(
            {"facct_int128": 100.0, "falcon_x86_fast": 95.0, "spec_a": 90.0, "spec_b": 120.0})])
        spec = sampler_run.speculative(results)
        self.assertEqual(spec["best_sequential"], "falcon_x86_fast")
        by = {r["name"]: r for r in spec["rows"]}
        self.assertEqual(set(by), {"spec_a", "spec_b"})
        self.assertTrue(by["spec_a"]["beats_best_sequential"])
        self.assertFalse(by["spec_b"]["beats_best_sequential"])
        self.assertAlmostEqual(by["spec_b"]["ratio_to_best_sequential"], 120.0 / 95.0)
        self.assertAlmostEqual(by["spec_b"]["candidates_over_sequential"], 4.0 / 1.7)
        self.assertAlmostEqual(by["spec_b"]["bytes_over_sequential"], 2.0)


if __name__ == "__main__":
    unittest.main()
