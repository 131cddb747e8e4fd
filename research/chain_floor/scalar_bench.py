"""The latency probes timed in the project's own bench harness: the
protocol, registry and report of research/fp_batch/scalar_bench.py (see its
docstring; same two commands, `registry` and `measure`), with this folder's
rows: probe_int (falcon_x86_fast's integer path alone) and probe_tail (its
binary64 path alone), beside falcon_x86, falcon_x86_fast and the
references.  The probes are not kernels, so no issue target is reported
for them: the table's ratio columns are what README.md reads.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scalar_bench_loader import scalar_bench  # noqa: E402  (research/, put on the path above)

ROWS = (("probe_int", "probe_int", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("probe_tail", "probe_tail", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")))
PROBES = scalar_bench.Spec("research/chain_floor", ('#include "probe.h"',), ROWS, (), (), ())

if __name__ == "__main__":
    sys.exit(scalar_bench.main(sys.argv, PROBES))
