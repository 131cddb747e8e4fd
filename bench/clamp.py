"""What the index clamp costs (`make clamp-cost`, build/clamp.json).

A direct-table kernel whose index can leave its table (some z outside the
domain would read past it) clamps the index in its core, without a branch,
so that _eval and _expm_p63 are defined for every z.  This measures the
instructions per call of each such kernel's entry points with the clamp
and without it (the same header with the clamp statement removed), with
callgrind at two loop lengths (the difference cancels start-up).  z is
drawn over the domain and read from memory, so the clamp's instructions
run (the compiler cannot prove them useless) but never change the index:
the figure is what a caller in the domain pays.

Usage: python3 -m bench.clamp --generated DIR --out build/clamp.json [KERNEL ...]
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import kfolder
from bench.callgrind import CallgrindError, total_instructions
from toolkit import provenance
from toolkit.files import write_text_atomic

CLAMP = re.compile(r"\n *idx -= \(idx - [^\n]*;")
SHORT, LONG = 2_000, 12_000

DRIVER = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "{name}.h"
/* count ENTRY N: N calls on z over the domain, read from memory (so the
 * compiler cannot prove the index in range and drop the clamp). */
static uint{W}_t zs[4096];
int main(int argc, char **argv)
{{
    unsigned long n = argc > 3 ? strtoul(argv[3], NULL, 10) : 0, i;
    uint64_t s = 1, acc = 0;
    int expm = argc > 2 && strcmp(argv[2], "expm") == 0;
    for (i = 0; i < 4096; i++) {{
        s = s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        zs[i] = (uint{W}_t)((s >> 1) % ((uint64_t){NAME}_Z_MAX + 1));
    }}
    for (i = 0; i < n; i++) {{
        uint{W}_t z = zs[i & 4095];
        acc += {call};
    }}
    printf("%llu\\n", (unsigned long long)acc);
    return 0;
}}
"""


class ClampError(RuntimeError):
    """A kernel without a clamp, or a build or run that failed."""


def _binary(k: kfolder.Kernel, header: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / f"{k.name}.h").write_text(header)
    call = (f"(expm ? {k.name}_expm_p63(z, ~(uint64_t)0) : {k.name}_eval(z))" if k.word_bits == 64
            else f"{k.name}_eval(z)")
    (folder / "driver.c").write_text(DRIVER.format(name=k.name, NAME=k.name.upper(), W=k.word_bits, call=call))
    exe = folder / "driver"
    done = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", f"-I{folder}", str(folder / "driver.c"),
                           "-o", str(exe)], capture_output=True, text=True)
    if done.returncode != 0:
        raise ClampError(f"{k.name}: {done.stderr.strip().splitlines()[0]}")
    return exe


def _per_call(exe: Path, entry: str) -> float:
    # The driver takes "count <entry> N"; bench.callgrind passes "count NAME N".
    short = total_instructions(exe, entry, SHORT)
    long = total_instructions(exe, entry, LONG)
    return (long - short) / (LONG - SHORT)


def _has_clamp(generated: Path, name: str) -> bool:
    """Whether kernel `name` has _eval with an index clamp in its core."""
    k = kfolder.load(generated, name)
    return k.fixed_point and CLAMP.search(k.header.read_text()) is not None


def measure(k: kfolder.Kernel, work: Path) -> dict[str, Any]:
    """Instructions per call of each entry, with and without the clamp."""
    if not k.fixed_point:
        raise ClampError(f"{k.name}: no fixed-point interface (\"fixed_point\": false): no _eval to measure")
    header = k.header.read_text()
    if not CLAMP.search(header):
        raise ClampError(f"{k.name}: no index clamp in {k.header}")
    with_clamp = _binary(k, header, work / k.name / "clamp")
    without = _binary(k, CLAMP.sub("", header, count=1), work / k.name / "none")
    entries = ["eval"] + (["expm"] if k.word_bits == 64 else [])
    rows = {}
    for entry in entries:
        a, b = _per_call(with_clamp, entry), _per_call(without, entry)
        rows[entry] = {"with_clamp": a, "without": b, "cost": a - b, "ratio": a / b}
    return {"name": k.name, "word_bits": k.word_bits, "table_rows": k.sidecar.get("table_rows"),
            "segments": k.segments, "entries": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.clamp", description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=Path, default=Path("generated"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("kernels", nargs="*", help="default: every kernel with a clamp")
    args = parser.parse_args(argv)
    try:
        names = args.kernels or [n for n in kfolder.names(args.generated) if _has_clamp(args.generated, n)]
        with tempfile.TemporaryDirectory() as tmp:
            results = [measure(kfolder.load(args.generated, n), Path(tmp)) for n in names]
    except (kfolder.KernelFolderError, ClampError, CallgrindError) as exc:
        print(f"clamp: error: {exc}", file=sys.stderr)
        return 2
    write_text_atomic(args.out, json.dumps({"measured_on": provenance.measured_on(), "kernels": results},
                                           indent=1) + "\n")
    for r in results:
        for entry, row in r["entries"].items():
            print(f"{r['name']} {entry}: {row['with_clamp']:.1f} instructions per call with the clamp, "
                  f"{row['without']:.1f} without (+{row['cost']:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
