"""Progress of a render on stderr.  On a terminal one line is rewritten in
place; otherwise (a log, CI, `make kernel | tee`) a line is printed when
the stage changes and at least every HEARTBEAT seconds while a long stage
runs, with the time since the start, so a long run is never silent.

The stages report through :func:`report`; :func:`gen.parallel.parallel_map`
reports how many of its jobs are done through :func:`jobs`.  Both do
nothing unless the command line has started a :class:`Reporter`.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Optional, TextIO

HEARTBEAT = 10.0     # seconds; the longest allowed silence
_active: Optional["Reporter"] = None


class Reporter:
    """Prints the current stage; see the module docstring."""

    def __init__(self, stream: TextIO = sys.stderr, heartbeat: float = HEARTBEAT) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.heartbeat = heartbeat
        self.start = time.monotonic()
        self.stage = ""
        self.count = ""
        self.last_print = self.start
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self) -> "Reporter":
        global _active
        _active = self
        if not self.live:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        global _active
        _active = None
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join()
        if self.live:
            print("\r\033[K", end="", file=self.stream, flush=True)

    def _line(self) -> str:
        elapsed = time.monotonic() - self.start
        return f"[{elapsed:6.1f} s] {self.stage}{f' ({self.count})' if self.count else ''}"

    def _print(self) -> None:
        if self.live:
            print(f"\r\033[K{self._line()}", end="", file=self.stream, flush=True)
        else:
            print(self._line(), file=self.stream, flush=True)
        self.last_print = time.monotonic()

    def _beat(self) -> None:
        while not self.stop_event.wait(min(1.0, self.heartbeat / 2)):
            with self.lock:
                if self.stage and time.monotonic() - self.last_print >= self.heartbeat:
                    self._print()

    def set_stage(self, message: str) -> None:
        with self.lock:
            self.stage, self.count = message, ""
            self._print()

    def set_count(self, done: int, total: int, what: str) -> None:
        with self.lock:
            self.count = f"{what} {done}/{total}"
            if self.live:
                self._print()


def _forget_in_child() -> None:
    """A forked worker reports nothing: the parent's lock may have been held
    at the fork, and the parent reports how many jobs are done."""
    global _active
    _active = None


os.register_at_fork(after_in_child=_forget_in_child)


def report(message: str) -> None:
    """A new stage (printed at once)."""
    if _active is not None:
        _active.set_stage(message)


def jobs(done: int, total: int, what: str) -> None:
    """Progress inside a stage (printed live on a terminal, else with the next heartbeat)."""
    if _active is not None:
        _active.set_count(done, total, what)
