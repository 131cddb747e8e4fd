"""The edge-rule probes timed in the project's own bench harness: the
protocol, registry and report of research/fp_batch/scalar_bench.py (see its
docstring; same two commands, `registry` and `measure`), with this folder's
rows: edge_x, edge_ccs and edge_least (probe.h: falcon_x86's core behind a
part of the edge rules), beside falcon_x86 (every rule), falcon_x86/domain
(none) and the references.  The probes are not kernels, so no issue target
is reported for them: the table's ratio columns are what README.md reads.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scalar_bench_loader import scalar_bench  # noqa: E402  (research/, put on the path above)

ROWS = (("edge_x", "edge_x", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("edge_ccs", "edge_ccs", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("edge_least", "edge_least", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")))
PROBES = scalar_bench.Spec("research/edge_cost", ('#include "probe.h"',), ROWS, (), (), ())

if __name__ == "__main__":
    sys.exit(scalar_bench.main(sys.argv, PROBES))
