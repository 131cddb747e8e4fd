"""Taint tracking with valgrind memcheck.

The harness (ct/c/taint_main.c) marks every secret input undefined; memcheck
then reports each place where an undefined value decides a conditional jump
or a conditional move it cannot see through ("UninitCondition") or is used
to form a memory address ("UninitValue", "Use of uninitialised value of
size N").  Those two kinds are the counted reports.  Any other error kind
(invalid reads, leaks are not enabled) is a harness or kernel bug and is
counted apart as "other".  Each report is attributed to the entry point
whose wrapper (ct_w_...) appears in its stack.
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

COUNTED_KINDS = ("UninitCondition", "UninitValue")


@dataclass
class TaintResult:
    """Memcheck's findings for one entry point."""

    reports: int = 0          # distinct error contexts of the counted kinds
    occurrences: int = 0      # how many times they fired in total
    kinds: dict[str, int] = field(default_factory=dict)
    other: int = 0            # distinct errors of any other kind
    ran: bool = True          # False: memcheck cannot execute this entry (AVX-512)


class TaintError(Exception):
    """valgrind missing, or the harness did not run to completion."""


def parse_memcheck_xml(text: str, wrappers: dict[str, str]) -> tuple[dict[str, TaintResult], int]:
    """Per-entry results from memcheck's XML, and the number of errors that
    no wrapper's stack explains.  wrappers maps wrapper symbol -> entry."""
    root = ET.fromstring(text)
    counts = {p.findtext("unique"): int(p.findtext("count") or "0")
              for p in root.iter("pair")}
    results = {entry: TaintResult() for entry in wrappers.values()}
    stray = 0
    for err in root.iter("error"):
        kind = err.findtext("kind") or "?"
        fns = [f.findtext("fn") or "" for f in err.iter("frame")]
        owner = next((wrappers[f] for f in fns if f in wrappers), None)
        if owner is None:
            stray += 1
            continue
        res = results[owner]
        if kind in COUNTED_KINDS:
            res.reports += 1
            res.occurrences += counts.get(err.findtext("unique"), 1)
            res.kinds[kind] = res.kinds.get(kind, 0) + 1
        else:
            res.other += 1
    return results, stray


def run_memcheck(harness: Path, entries: dict[str, str], calls: int, xml_out: Path) -> dict[str, TaintResult]:
    """Run the harness under memcheck on the given entries (wrapper symbol ->
    entry name), `calls` random inputs each."""
    if shutil.which("valgrind") is None:
        raise TaintError("valgrind is not installed: run `make deps`")
    cmd = ["valgrind", "--tool=memcheck", "--error-limit=no", "--xml=yes",
           f"--xml-file={xml_out}", str(harness), str(calls), *entries.values()]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TaintError(f"memcheck run failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    results, stray = parse_memcheck_xml(xml_out.read_text(), entries)
    if stray:
        raise TaintError(f"{stray} memcheck errors outside any wrapped entry (harness bug), see {xml_out}")
    return results
