"""One process pool for the generator's independent jobs (segments, configs).

``FXP_GEN_JOBS`` sets the number of processes (default: every core); the
results never depend on it: they come back in order, and every job is a
pure function of its arguments.  How many jobs are done goes to
:mod:`gen.progress`.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Callable

from . import progress
from .errors import GenError


def jobs() -> int:
    """The number of worker processes: FXP_GEN_JOBS, else the core count."""
    text = os.environ.get("FXP_GEN_JOBS", "")
    if not text:
        return os.cpu_count() or 1
    if not text.isdigit() or int(text) < 1:
        raise GenError(f"FXP_GEN_JOBS: {text!r} is not a positive number of processes")
    return int(text)


def parallel_map(func: Callable[..., Any], args: list[tuple]) -> list[Any]:
    """func(*a) for every a, on up to :func:`jobs` processes, in order."""
    count = jobs()
    what = func.__name__.strip("_").replace("_", " ")
    results: list[Any] = []
    if count <= 1 or len(args) <= 1:
        for a in args:
            results.append(func(*a))
            progress.jobs(len(results), len(args), what)
        return results
    with ProcessPoolExecutor(max_workers=min(count, len(args)), mp_context=get_context("fork")) as pool:
        for result in pool.map(func, *zip(*args)):
            results.append(result)
            progress.jobs(len(results), len(args), what)
    return results
