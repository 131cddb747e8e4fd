"""research/fp_batch/scalar_bench.py as a module, for the other prototypes'
scalar_bench.py scripts (fold_fast, chain_floor, edge_cost), which share its protocol,
registry and report with rows of their own.  The research folders are not
packages and every script is named scalar_bench.py, so the shared one is
loaded by its path, under its own module name."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "fp_batch_scalar_bench", Path(__file__).resolve().parent / "fp_batch" / "scalar_bench.py")
assert _SPEC is not None and _SPEC.loader is not None
scalar_bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = scalar_bench      # dataclasses look their module up there
_SPEC.loader.exec_module(scalar_bench)
