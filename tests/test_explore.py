"""Tests of the design-space explorer (explore/, `make explore`): the
pruning (a config the estimate discards really misses the budget when
rendered; a control it keeps really meets it), the Pareto front on
hand-made points (ties, dominated points, the third axis), the choice of
the recommendation and the verdict on the shipped kernel, the
content-addressed cache (a second run reuses, a changed input misses), a
time-boxed run (stops cleanly with a valid JSON) and bad input (one line,
exit 2, nothing written)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path
from typing import Any

import kfolder
from explore import cache, cli, cost_mcu, estimate, pareto, prune, report, space, toml_text
from gen import config as gen_config
from m3.toolchain import ARM_CC, QEMU
from tests.helpers import ROOT

BUDGET = -40


def one_segment(degree: int) -> space.Candidate:
    """x86 direct form, one segment, scale 2^63, the given degree."""
    name = f"xp_test_d{degree}"
    cfg = {"name": name, "function": "exp(-x)", "domain": ["0", "ln2"], "word_bits": 64, "scale_bits": 63,
           "degree": degree, "segments": {"kind": "equal", "count": 1}}
    return space.Candidate(name, cfg, "dir", "equal", 1, degree, 1.0)


def rendered_bound(c: space.Candidate, tmp: Path) -> float:
    """The proven bound (units of 2^-63) of the rendered config."""
    path = tmp / f"{c.name}.toml"
    path.write_text(toml_text.dumps(c.config))
    run = subprocess.run([sys.executable, "-m", "gen", "render", str(path), "--out", str(tmp / "gen"), "--quiet"],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "FXP_GEN_JOBS": "1"})
    if run.returncode != 0:
        raise AssertionError(run.stderr)
    sidecar = json.loads((tmp / "gen" / c.name / "provenance" / f"{c.name}.json").read_text())
    return float(sidecar["bound"].get("fpr_expm_p63_2p63", sidecar["bound"]["expm_p63_2p63"]))


class Pruning(unittest.TestCase):
    def test_discarded_config_misses_the_budget_and_kept_one_meets_it(self) -> None:
        low, high = one_segment(3), one_segment(9)
        with tempfile.TemporaryDirectory() as tmp:
            jobs = [j for c in (low, high) for j in prune.representative(c)]
            estimates, _ = estimate.estimate_all(Path(tmp) / "cache", jobs, workers=1)
            verdicts = {v.candidate.name: v for v in prune.prune([low, high], BUDGET, None, estimates)}
            self.assertFalse(verdicts[low.name].kept)
            self.assertIn("estimate", verdicts[low.name].reason)
            self.assertTrue(verdicts[high.name].kept, verdicts[high.name].reason)
            budget_2p63 = 2.0 ** (BUDGET + 63)
            self.assertGreater(rendered_bound(low, Path(tmp)), budget_2p63)
            self.assertLessEqual(rendered_bound(high, Path(tmp)), budget_2p63)

    def test_table_limit_and_degree_keep(self) -> None:
        cands = [c for c in space.candidates(space.M3, -53) if c.segment_param == 6]
        estimates = {j: 0.0 for c in cands for j in prune.representative(c)}
        verdicts = prune.prune(cands, -53, 3072, estimates)
        for v in verdicts:
            if v.candidate.table_bytes > 3072:
                self.assertIn("table", v.reason)
            elif v.kept:
                self.assertEqual(v.reason, "")
        # Every estimate passes: per config the two lowest degrees (3, 4) are
        # kept, the higher ones discarded as such.
        self.assertEqual({v.candidate.degree for v in verdicts if v.kept}, {3, 4})
        self.assertTrue(all("lower degree" in v.reason for v in verdicts
                            if v.candidate.degree > 4 and v.candidate.table_bytes <= 3072))


class Front(unittest.TestCase):
    POINTS = [(100, 10, 1000), (120, 5, 1000), (120, 5, 1000), (130, 10, 1000), (100, 10, 2000), (150, 20, 0)]

    def test_hand_made_points(self) -> None:
        # a and f are best on one axis each, b and c tie (neither dominates),
        # d is worse than a on cost only, e worse than a on the table only.
        self.assertEqual(pareto.on_front(self.POINTS), [True, True, True, False, False, True])

    def test_recommendation_and_shipped_verdict(self) -> None:
        def rec(name: str, insn: float, err: float, table: int, shipped: bool = False) -> dict[str, Any]:
            return report.record({"name": name}, {"status": "ok", "instructions": insn, "proven_err_2p63": err,
                                                  "table_bytes": table}, shipped, -54, 3072)
        recs = [rec("ship", 150, 300, 10240, True), rec("cheap_over_budget", 90, 9000, 0),
                rec("small", 160, 200, 2048), rec("fast", 140, 250, 3072)]
        report.mark_front(recs)
        # "fast" is cheaper, more accurate and smaller than "ship".
        self.assertEqual([r["on_front"] for r in recs], [False, True, True, True])
        self.assertEqual(report.recommended(recs)["config"]["name"], "fast")
        self.assertIn("fast beats the shipped ship", report.comparison(recs, "ship"))
        del recs[3]
        report.mark_front(recs)
        self.assertIn("includes the shipped ship itself", report.comparison(recs, "ship"))


    def test_batch_forms(self) -> None:
        """Head candidates carry batch forms; one that differs from the
        shipped config only by them is the shipped kernel (not measured
        twice); the table shows batch cycles per element where timed."""
        heads = [c for c in space.candidates(space.X86, -63) if c.config.get("form") == "head"]
        self.assertTrue(heads and all(c.config["batch"] == list(space.BATCH_ISAS) for c in heads))
        shipped = tomllib.loads((ROOT / "kernels" / "falcon_x86.toml").read_text())
        self.assertEqual(cli._normal({**shipped, "batch": ["avx512", "avx2"]}), cli._normal(shipped))
        self.assertNotEqual(cli._normal({**shipped, "degree": 12}), cli._normal(shipped))
        recs = [report.record({"name": n}, {"status": "ok", "instructions": 90, "proven_err_2p63": 0.9,
                                            "table_bytes": 0}, False, -63, None) for n in ("a", "b")]
        recs[0]["batch_isa_cycles"] = {"avx512": 4.25, "avx2": 9.5}
        text = report.table(recs, "markdown")
        self.assertIn("batch c/elem (avx512 / avx2)", text)
        self.assertIn("4.25 / 9.5", text)
        self.assertNotIn("batch c/elem", report.table(recs[1:], "markdown"))


class Cache(unittest.TestCase):
    def test_reuse_and_miss(self) -> None:
        calls: list[int] = []

        def compute() -> dict[str, Any]:
            calls.append(1)
            return {"error": 1.5}
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            first, hit = cache.cached(folder, {"degree": 4}, compute)
            self.assertEqual((first, hit, len(calls)), ({"error": 1.5}, False, 1))
            # Tamper with the stored value: a reuse must return what is on disk.
            path = folder / f"{cache.key({'degree': 4})}.json"
            stored = json.loads(path.read_text())
            stored["result"]["error"] = 7.25
            path.write_text(json.dumps(stored))
            again, hit = cache.cached(folder, {"degree": 4}, compute)
            self.assertEqual((again, hit, len(calls)), ({"error": 7.25}, True, 1))
            other, hit = cache.cached(folder, {"degree": 5}, compute)
            self.assertEqual((hit, len(calls)), (False, 2))
            self.assertEqual(len(list(folder.glob("*.json"))), 2)

    def test_estimates_second_run_from_cache(self) -> None:
        jobs = [((0.0, 0.125), 3), ((0.5, 0.625), 3)]
        with tempfile.TemporaryDirectory() as tmp:
            first, hits1 = estimate.estimate_all(Path(tmp), jobs, workers=1)
            second, hits2 = estimate.estimate_all(Path(tmp), jobs, workers=1)
            self.assertEqual((hits1, hits2), (0, 2))
            self.assertEqual(first, second)
            _, hits3 = estimate.estimate_all(Path(tmp), [((0.0, 0.125), 4)], workers=1)
            self.assertEqual(hits3, 0)


@unittest.skipIf(shutil.which(ARM_CC) is None or shutil.which(QEMU) is None, "needs the ARM toolchain and QEMU")
class McuCost(unittest.TestCase):
    def test_cost_is_measured_on_the_named_core(self) -> None:
        """falcon_m4's products are UMULL/UMAAL only on ARMv7E-M: built for
        the M4 its call must be shorter than built for the M3 (where they
        fall back to 32-bit limbs), so a cost measured on the wrong core
        shows.  Counts are per call and the cycle model never counts an
        instruction below one cycle."""
        with tempfile.TemporaryDirectory() as tmp:
            got = {core: cost_mcu.measure("falcon_m4", ROOT / "generated", Path(tmp) / core, core)
                   for core in ("m3", "m4")}
        self.assertLess(got["m4"]["instructions"], got["m3"]["instructions"], got)
        for figures in got.values():
            self.assertGreaterEqual(figures["cycles"], figures["instructions"])
            self.assertGreater(figures["code_bytes"], 0)

    def test_m4_space_forces_root_scale_by_degree(self) -> None:
        cands = space.candidates(space.M4, -58)
        forced = [c for c in cands if "coefficient_scales" in c.config]
        self.assertTrue(forced and len(forced) < len(cands))
        for c in forced:
            self.assertEqual(c.config["coefficient_scales"], [64] * (c.degree + 1))
            self.assertEqual(c.config["multiplier"], "umaal")


class FixedLayoutForms(unittest.TestCase):
    """The fold (x86) and mcu (M3) families: the forms fix some keys (no
    segments or scale for fold, no scale for mcu, no evaluation for either),
    so their candidates must be configs the generator accepts, the one equal
    to a shipped kernel must be recognised as it (not measured twice), and
    form mcu's table size must be what the renderer writes."""

    def test_configs_are_accepted_and_the_shipped_one_recognised(self) -> None:
        for target, family, shipped_name in ((space.X86, "fd", "falcon_x86_fast"), (space.M3, "mcu", "falcon_m3")):
            cands = [c for c in space.candidates(target, -53) if c.family == family]
            self.assertTrue(cands)
            with tempfile.TemporaryDirectory() as tmp:
                for c in cands:
                    path = Path(tmp) / f"{c.name}.toml"
                    path.write_text(toml_text.dumps(c.config))
                    self.assertEqual(gen_config.load(path).form, c.config["form"])
            shipped = tomllib.loads((ROOT / "kernels" / f"{shipped_name}.toml").read_text())
            same = [c for c in cands if cli._normal(c.config) == cli._normal(shipped)]
            self.assertEqual(len(same), 1, f"{shipped_name}: {len(same)} candidates equal to it")

    def test_mcu_table_bytes_are_the_rendered_table(self) -> None:
        rendered = kfolder.load(ROOT / "generated", "falcon_m3").table_bytes
        for c in space.candidates(space.M3, -53):
            if c.family == "mcu":
                self.assertEqual(c.table_bytes, rendered)

    def test_shipped_kernel_per_budget(self) -> None:
        budgets = {n: float(tomllib.loads((ROOT / "kernels" / f"{n}.toml").read_text())["max_abs_error_log2"])
                   for n in space.X86.shipped}
        self.assertEqual(space.shipped_for(space.X86, budgets, -63), "falcon_x86")
        self.assertEqual(space.shipped_for(space.X86, budgets, -58), "falcon_x86_fast")
        self.assertEqual(space.shipped_for(space.X86, budgets, -40), "falcon_x86_fast")
        self.assertEqual(space.shipped_for(space.X86, budgets, -70), "falcon_x86")


class Toml(unittest.TestCase):
    def test_every_candidate_round_trips(self) -> None:
        for target in space.TARGETS.values():
            for c in space.candidates(target, -53):
                self.assertEqual(tomllib.loads(toml_text.dumps(c.config, "a\nb")), c.config)


def explore(*args: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "explore", *args, "--out-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True)


class Cli(unittest.TestCase):
    def test_bad_input(self) -> None:
        cases = [(["--target", "arm", "--budget-log2", "-53"], "TARGET='arm'"),
                 (["--target", "x86", "--budget-log2", "abc"], "BUDGET_LOG2"),
                 (["--target", "x86", "--budget-log2", "-5"], "BUDGET_LOG2=-5"),
                 (["--target", "x86", "--budget-log2", ""], "BUDGET_LOG2"),
                 (["--target", "m3", "--budget-log2", "-53", "--max-table-bytes", "-1"], "MAX_TABLE_BYTES"),
                 (["--target", "m3", "--budget-log2", "-53", "--time", "soon"], "TIME")]
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            for args, what in cases:
                run = explore(*args, out=out)
                self.assertEqual(run.returncode, 2, args)
                self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)
                self.assertIn(what, run.stderr)
                self.assertFalse(out.exists(), args)

    def test_time_boxed_run_stops_cleanly(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            run = explore("--target", "m3", "--budget-log2", "-40", "--time", "0.1", "--max-candidates", "2",
                          out=out)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("TIME reached", run.stdout)
            doc = json.loads((out / "m3.json").read_text())
            self.assertEqual((doc["target"], doc["budget_log2"], doc["stopped_at_time"]), ("m3", -40, True))
            statuses = {c["status"] for c in doc["candidates"]}
            self.assertTrue(statuses & {"stopped at TIME", "not started (TIME)"}, statuses)
            for c in doc["candidates"]:
                self.assertEqual(set(c) >= {"config", "instructions", "cycles", "table_bytes", "code_bytes",
                                            "proven_err_2p63", "measured_err_2p63", "on_front"}, True)
            self.assertTrue((out / "m3.svg").read_text().startswith("<svg"))


if __name__ == "__main__":
    unittest.main()
