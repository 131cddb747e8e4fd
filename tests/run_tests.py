"""Run every test (Python unittest; C tests are driven from them), list the
slowest test classes (so the suite's time, which CI needs well under 15
minutes, stays visible), and end with the line ``N passed, M failed``
(plus ``, K skipped`` when any are).

Modules run in ``--jobs`` worker processes (default: FXP_TEST_JOBS, else
2, the cores of the machines this project runs on), each module whole in
one worker, its output printed in one piece when it ends.  The modules in
EXCLUSIVE call make in the project tree or write its build/ folder: they
all run in the first worker, one after the other, so no two of them ever
run at once; the others are shared out as workers come free.

Usage: python3 -m tests.run_tests [--jobs N] [pattern ...]   (default: test_*.py)
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import queue
import sys
import traceback
import time
import unittest
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SLOWEST_SHOWN = 12
EXCLUSIVE = ("test_bench", "test_bench_sampler", "test_checker_cli", "test_gen_cli", "test_m3", "test_research",
             "test_safety", "test_vendor")


class TimedResult(unittest.TextTestResult):
    """A text result that adds up wall time per test class (its setUpClass
    falls to the class's first test, which is where it runs)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.per_class: dict[str, float] = defaultdict(float)
        self._last = time.monotonic()

    def stopTest(self, test: unittest.TestCase) -> None:
        now = time.monotonic()
        self.per_class[type(test).__module__ + "." + type(test).__qualname__] += now - self._last
        self._last = now
        super().stopTest(test)


@dataclass
class ModuleResult:
    name: str
    output: str
    run: int
    failed: int
    skipped: int
    per_class: dict[str, float] = field(default_factory=dict)


def run_module(name: str) -> ModuleResult:
    """One test module, its output captured; a module that does not even
    load counts as one failed test, with its traceback."""
    stream = io.StringIO()
    try:
        suite = unittest.TestLoader().loadTestsFromName(f"tests.{name}")
    except Exception:  # noqa: BLE001 -- reported as the module's failure
        return ModuleResult(name, f"tests.{name} does not load:\n{traceback.format_exc()}", 1, 1, 0)
    result = unittest.TextTestRunner(verbosity=2, stream=stream, resultclass=TimedResult).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    return ModuleResult(name, stream.getvalue(), result.testsRun, failed, len(result.skipped),
                        dict(result.per_class))  # type: ignore[attr-defined]


def _worker(fixed: list[str], shared: "multiprocessing.Queue[str | None]",
            done: "multiprocessing.Queue[ModuleResult]") -> None:
    """Run ``fixed`` in order, then modules from ``shared`` until a None."""
    for name in fixed:
        done.put(run_module(name))
    while (name := shared.get()) is not None:
        done.put(run_module(name))


def print_slowest(per_class: dict[str, float]) -> None:
    print(f"slowest test classes (of {len(per_class)}):")
    for name, seconds in sorted(per_class.items(), key=lambda kv: -kv[1])[:SLOWEST_SHOWN]:
        print(f"  {seconds:7.1f} s  {name}")


def modules(patterns: list[str]) -> list[str]:
    names = sorted({p.stem for pattern in patterns for p in HERE.glob(pattern)})
    return [n for n in names if n.startswith("test_")]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.run_tests")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("FXP_TEST_JOBS", "2")))
    parser.add_argument("patterns", nargs="*", default=["test_*.py"])
    args = parser.parse_args(argv)
    names = modules(args.patterns)
    if not names or args.jobs < 1:
        print("run_tests: no test modules match" if not names else "run_tests: --jobs must be at least 1")
        return 1
    exclusive = [n for n in names if n in EXCLUSIVE]
    others = [n for n in names if n not in EXCLUSIVE]
    start = time.monotonic()
    ctx = multiprocessing.get_context("fork")
    shared: "multiprocessing.Queue[str | None]" = ctx.Queue()
    done: "multiprocessing.Queue[ModuleResult]" = ctx.Queue()
    for n in others:
        shared.put(n)
    for _ in range(args.jobs):
        shared.put(None)
    workers = [ctx.Process(target=_worker, args=(exclusive if i == 0 else [], shared, done))
               for i in range(args.jobs)]
    for w in workers:
        w.start()
    run = failed = skipped = 0
    per_class: dict[str, float] = {}
    pending = set(names)
    while pending:
        try:
            r = done.get(timeout=10)
        except queue.Empty:
            if any(w.is_alive() for w in workers):
                continue
            # Every worker ended (one was killed) with modules unreported.
            print(f"run_tests: the workers ended without reporting {', '.join(sorted(pending))}")
            run, failed, pending = run + len(pending), failed + len(pending), set()
            break
        pending.discard(r.name)
        sys.stdout.write(f"== {r.name}\n{r.output}")
        sys.stdout.flush()
        run, failed, skipped = run + r.run, failed + r.failed, skipped + r.skipped
        per_class |= r.per_class
    for w in workers:
        w.join()
    print(f"{len(names)} modules in {time.monotonic() - start:.1f} s wall, {args.jobs} workers")
    print_slowest(per_class)
    line = f"{run - failed - skipped} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 0 if failed == 0 and run > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
