"""The folded prototype timed in the project's own bench harness: the
protocol, registry and report of research/fp_batch/scalar_bench.py (see its
docstring; same two commands, `registry` and `measure`), with this folder's
rows: fold_domain (Falcon's contract) and fold_native (the edge rules on
bit patterns), beside falcon_x86, falcon_x86_fast and the references.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "fp_batch_scalar_bench", Path(__file__).resolve().parents[1] / "fp_batch" / "scalar_bench.py")
assert _SPEC is not None and _SPEC.loader is not None
scalar_bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = scalar_bench      # dataclasses look their module up there
_SPEC.loader.exec_module(scalar_bench)

ROWS = (("fold_domain", "fold_domain", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")),
        ("fold_native", "fold_native", "avx2,fma,bmi2", ("avx2", "fma", "bmi2")))
FOLD = scalar_bench.Spec("research/fold_fast", ('#include "proto.h"',), ROWS, (), tuple(r[0] for r in ROWS), ("fast",))

if __name__ == "__main__":
    sys.exit(scalar_bench.main(sys.argv, FOLD))
