"""Combine the three checks into per-kernel verdicts and judge the controls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ct.kernels import Kernel
from ct.scan import Counts
from ct.taint import TaintResult
from ct.ttest import T_THRESHOLD, TTestResult
from toolkit import table as toolkit_table


@dataclass(frozen=True)
class EntryEvidence:
    """The three checks' results for one entry point."""

    name: str
    native: bool
    taint: TaintResult
    ttest: TTestResult
    ttest_history: list[float]
    scan: Counts

    def passes(self) -> bool:
        """All three checks pass on this entry point."""
        return (self.taint.reports == 0 and self.taint.other == 0
                and self.ttest.max_t < T_THRESHOLD and self.scan.clean())

    def as_json(self) -> dict[str, object]:
        s = self.scan
        return {
            "entry": self.name,
            "checks_pass": self.passes(),
            "valgrind_reports": self.taint.reports,
            "valgrind_ran": self.taint.ran,
            "valgrind_occurrences": self.taint.occurrences,
            "valgrind_kinds": self.taint.kinds,
            "valgrind_other": self.taint.other,
            "ttest_max_t": self.ttest.max_t,
            "ttest_runs_max_t": self.ttest_history,
            # Crossed the threshold once, not on the re-run: not counted as
            # a leak, but worth a look (cache effects come and go).
            "ttest_inconclusive": len(self.ttest_history) > 1 and not self.ttest.leaks,
            "ttest_measurements": self.ttest.measurements,
            "ttest_mean_cycles": [self.ttest.mean_fixed, self.ttest.mean_random],
            "instructions": s.instructions,
            "cond_branches": s.cond_branches,
            "fp_insns": s.fp_insns,
            "fp_disallowed": s.fp_disallowed,
            "calls": s.calls,
            "divisions": s.divisions,
            "indexed_mem": s.indexed_mem,
            "secret_base_mem": s.secret_base_mem,
            "scan_findings": s.findings[:20],
        }


def kernel_summary(kernel: Kernel, entries: list[EntryEvidence]) -> dict[str, object]:
    """The ct.json record of one kernel: sums over its entry points, the
    largest |t|, and the verdict.  constant_time is true only if all three
    checks pass on every entry and the sidecar does not declare a
    secret-indexed table."""
    integer = [e for e in entries if not e.native]
    native = [e for e in entries if e.native]
    taint_ok = all(e.taint.reports == 0 and e.taint.other == 0 for e in entries)
    ttest_ok = all(e.ttest.max_t < T_THRESHOLD for e in entries)
    scan_ok = all(e.scan.clean() for e in entries)
    notes = []
    if kernel.table_access == "direct":
        notes.append("sidecar declares a secret-indexed table (table_access=direct): "
                     "not constant-time on CPUs with a data cache")
    not_run = [e.name for e in entries if not e.taint.ran]
    if not_run:
        notes.append(f"valgrind executes no AVX-512: memcheck not run on {', '.join(not_run)} "
                     "(covered by the binary scan and the t-test; docs/constant-time.md)")
    if kernel.word_bits == 32:
        notes.append("32-bit kernel checked as compiled for x86-64 only; Cortex-M3 "
                     "timing (UMULL early termination, flash wait states) is not covered")
    return {
        "name": kernel.name,
        "table_access": kernel.table_access,
        "word_bits": kernel.word_bits,
        "valgrind_reports": sum(e.taint.reports + e.taint.other for e in entries),
        "ttest_max_t": max(e.ttest.max_t for e in entries),
        "ttest_measurements": sum(e.ttest.measurements for e in entries),
        "ttest_min_measurements_per_entry": min(e.ttest.measurements for e in entries),
        "ttest_inconclusive_entries": sum(len(e.ttest_history) > 1 and not e.ttest.leaks for e in entries),
        "cond_branches": sum(e.scan.cond_branches for e in entries),
        "fp_insns": sum(e.scan.fp_insns for e in integer),
        "fp_native_insns": sum(e.scan.fp_insns for e in native),
        "fp_native_disallowed": sum(e.scan.fp_disallowed for e in native),
        "calls": sum(e.scan.calls for e in entries),
        "divisions": sum(e.scan.divisions for e in entries),
        "indexed_loads": sum(e.scan.indexed_mem + e.scan.secret_base_mem for e in entries),
        "checks": {"valgrind": taint_ok, "ttest": ttest_ok, "scan": scan_ok},
        "constant_time": taint_ok and ttest_ok and scan_ok and kernel.table_access != "direct",
        "notes": notes,
        "entries": [e.as_json() for e in entries],
    }


def judge_controls(ev: dict[str, list[EntryEvidence]], ttest_control: list[TTestResult]) -> dict[str, bool]:
    """Did every check see what it must on the controls?  Each flag names
    one expectation; any False means a check has gone blind (or sees leaks
    that are not there) and the run fails."""
    poly, direct, branch = ev["ctl_poly"], ev["ctl_direct"], ev["ctl_branch"]
    return {
        "valgrind_clean_on_ctl_poly": all(e.taint.reports == 0 and e.taint.other == 0 for e in poly),
        "scan_clean_on_ctl_poly": all(e.scan.clean() for e in poly),
        "valgrind_flags_secret_index": all(e.taint.kinds.get("UninitValue", 0) > 0 for e in direct),
        "scan_flags_secret_index": all(e.scan.indexed_mem + e.scan.secret_base_mem > 0 for e in direct),
        "valgrind_flags_secret_branch": all(e.taint.kinds.get("UninitCondition", 0) > 0 for e in branch),
        "scan_flags_secret_branch": all(e.scan.cond_branches > 0 for e in branch),
        "ttest_flags_secret_branch": bool(ttest_control) and all(r.leaks for r in ttest_control),
    }


def table(report: dict[str, Any]) -> str:
    """The terminal table of a run: one row per kernel and control."""
    cols = ("valgrind_reports", "ttest_max_t", "cond_branches", "fp_insns", "calls",
            "divisions", "indexed_loads", "constant_time")
    header = ["kernel", "access", *(c[:12] for c in cols)]
    rows = [[k["name"], k["table_access"],
             *(f"{k[c]:.1f}" if isinstance(k[c], float) else k[c] for c in cols)]
            for k in report["kernels"] + report["controls"]]
    return toolkit_table.text(header, rows, align="ll" + "r" * len(cols))
