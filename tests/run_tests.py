"""Run every test (Python unittest; C tests are driven from them), list the
slowest test classes (so the suite's time, which CI needs well under 15
minutes, stays visible), and end with the line ``N passed, M failed``
(plus ``, K skipped`` when any are).

Usage: python3 -m tests.run_tests [pattern ...]   (default: test_*.py)
"""

from __future__ import annotations

import sys
import time
import unittest
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SLOWEST_SHOWN = 12


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


def print_slowest(per_class: dict[str, float]) -> None:
    print(f"slowest test classes (of {len(per_class)}):")
    for name, seconds in sorted(per_class.items(), key=lambda kv: -kv[1])[:SLOWEST_SHOWN]:
        print(f"  {seconds:7.1f} s  {name}")


def main(argv: list[str]) -> int:
    patterns = argv or ["test_*.py"]
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for pattern in patterns:
        suite.addTests(loader.discover(str(HERE), pattern=pattern, top_level_dir=str(HERE.parent)))
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout, resultclass=TimedResult).run(suite)
    print_slowest(result.per_class)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
