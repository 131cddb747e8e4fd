"""The faithful folded prototype timed in the project's own bench harness:
the protocol, registry and report of research/fp_batch/scalar_bench.py (see
its docstring; same two commands, `registry` and `measure`), with this
folder's rows: ffold_domain (Falcon's contract) and ffold_native (the edge
rules on bit patterns), beside falcon_x86, falcon_x86_fast and the
references, and issue 17's faithful targets for them.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scalar_bench_loader import scalar_bench  # noqa: E402  (research/, put on the path above)

ROWS = (("ffold_domain", "ff_domain", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("ffold_native", "ff_native", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")))
FFOLD = scalar_bench.Spec("research/faithful_fold", ('#include "proto.h"',), ROWS, (), tuple(r[0] for r in ROWS),
                          ("faithful",))

if __name__ == "__main__":
    sys.exit(scalar_bench.main(sys.argv, FFOLD))
