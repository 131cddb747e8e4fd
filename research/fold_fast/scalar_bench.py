"""The folded prototype timed in the project's own bench harness: the
protocol, registry and report of research/fp_batch/scalar_bench.py (see its
docstring; same two commands, `registry` and `measure`), with this folder's
rows: fold_domain (Falcon's contract) and fold_native (the edge rules on
bit patterns), beside falcon_x86, falcon_x86_fast and the references.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scalar_bench_loader import scalar_bench  # noqa: E402  (research/, put on the path above)

ROWS = (("fold_domain", "fold_domain", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("fold_native", "fold_native", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")))
FOLD = scalar_bench.Spec("research/fold_fast", ('#include "proto.h"',), ROWS, (), tuple(r[0] for r in ROWS), ("fast",))

if __name__ == "__main__":
    sys.exit(scalar_bench.main(sys.argv, FOLD))
