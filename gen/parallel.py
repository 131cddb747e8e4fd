"""One process pool for the generator's independent jobs (segments, configs).

``FXP_GEN_JOBS`` sets the number of processes (default: every core); the
results never depend on it: they come back in order, and every job is a
pure function of its arguments.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Callable


def jobs() -> int:
    """The number of worker processes: FXP_GEN_JOBS, else the core count."""
    return int(os.environ.get("FXP_GEN_JOBS", os.cpu_count() or 1))


def parallel_map(func: Callable[..., Any], args: list[tuple]) -> list[Any]:
    """func(*a) for every a, on up to :func:`jobs` processes, in order."""
    count = jobs()
    if count <= 1 or len(args) <= 1:
        return [func(*a) for a in args]
    with ProcessPoolExecutor(max_workers=min(count, len(args)), mp_context=get_context("fork")) as pool:
        return list(pool.map(func, *zip(*args)))
