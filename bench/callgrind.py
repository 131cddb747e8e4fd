"""Deterministic instructions per call, measured with valgrind's callgrind.

`bench_main count NAME N` runs NAME's chain loop N times after a fixed
start-up.  Running it under callgrind at two values of N and dividing the
difference of the totals by the difference of N cancels everything that
does not scale with N (process start-up, input generation, exit), leaving
the instructions of one call plus its share of the loop (XOR, AND, two
loads, compare and branch), which the null row shows on its own.
"""
from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SHORT_CALLS = 2_000
LONG_CALLS = 12_000

_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)\s*$", re.M)


# Rows valgrind cannot run: it does not execute AVX-512 (and hides it from
# CPUID, so these rows report themselves unavailable under it).  Their
# instructions are counted statically instead (docs/bench.md).
UNCOUNTABLE_SUFFIXES = ("/batch-avx512",)


def countable(name: str) -> bool:
    """Whether callgrind can count the row `name`."""
    return not name.endswith(UNCOUNTABLE_SUFFIXES)


class CallgrindError(Exception):
    """valgrind failed or printed no instruction total."""


def total_instructions(binary: Path, name: str, calls: int) -> int:
    """Instructions (Ir) of one whole `bench_main count` run."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         str(binary), "count", name, str(calls)],
        capture_output=True, text=True, check=False)
    match = _COLLECTED.search(proc.stderr)
    if proc.returncode != 0 or match is None:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise CallgrindError(f"callgrind on {name} failed: {tail[0]}")
    return int(match.group(1))


def instructions_per_call(binary: Path, name: str) -> float:
    short = total_instructions(binary, name, SHORT_CALLS)
    long = total_instructions(binary, name, LONG_CALLS)
    return (long - short) / (LONG_CALLS - SHORT_CALLS)


def count_all(binary: Path, names: list[str], jobs: int = 2) -> dict[str, float]:
    """Instructions per call of every named variant valgrind can run, `jobs`
    valgrinds at a time (the others are left out)."""
    names = [n for n in names if countable(n)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        counts = pool.map(lambda n: instructions_per_call(binary, n), names)
        return dict(zip(names, counts))
