"""Run the candidates' workers (explore/worker.py) two at a time, each in
its own process group, print a progress line with an estimate of the time
left whenever one finishes (and every PROGRESS_EVERY seconds), and stop
cleanly at the deadline: the running workers' process groups are killed
(only those this scheduler started, by their ids), nothing more is started,
and every result measured so far is kept."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
PROGRESS_EVERY = 30.0
POLL = 0.2


@dataclass(frozen=True)
class Job:
    name: str
    config: Path
    work: Path          # the candidate's folder
    out: Path           # its result JSON

    def command(self, target: str) -> list[str]:
        return [sys.executable, "-m", "explore.worker", "--target", target, "--config", str(self.config),
                "--dir", str(self.work), "--out", str(self.out)]


def _fmt(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    return f"{s // 60}m{s % 60:02d}s"


def _read(job: Job) -> dict[str, Any]:
    try:
        return json.loads(job.out.read_text())
    except (OSError, ValueError):
        return {"status": "worker failed (see its log.txt)"}


def run(target: str, jobs: list[Job], workers: int, deadline: float,
        say: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    """Results by candidate name; see the module docstring."""
    results: dict[str, dict[str, Any]] = {}
    pending = list(jobs)
    running: dict[str, tuple[subprocess.Popen[bytes], Job, float]] = {}
    durations: list[float] = []
    start = last_report = time.monotonic()

    def report(event: str) -> None:
        done, left = len(results), len(pending) + len(running)
        mean = sum(durations) / len(durations) if durations else None
        eta = "unknown yet" if mean is None else _fmt(min(mean * left / workers, max(0.0, deadline - time.monotonic())))
        say(f"{done}/{len(jobs)} evaluated, {len(running)} running; elapsed {_fmt(time.monotonic() - start)}, "
            f"about {eta} left{'; ' + event if event else ''}")

    while pending or running:
        now = time.monotonic()
        if now >= deadline:
            for name, (proc, job, _) in running.items():
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                results[name] = {"status": "stopped at TIME"}
            for job in pending:
                results[job.name] = {"status": "not started (TIME)"}
            say(f"TIME reached: {len(running)} stopped, {len(pending)} not started")
            break
        finished = [n for n, (p, _, _) in running.items() if p.poll() is not None]
        for name in finished:
            _, job, began = running.pop(name)
            durations.append(time.monotonic() - began)
            results[name] = _read(job)
        while pending and len(running) < workers:
            job = pending.pop(0)
            job.work.mkdir(parents=True, exist_ok=True)
            with (job.work / "log.txt").open("wb") as log:
                proc = subprocess.Popen(job.command(target), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
            running[job.name] = (proc, job, time.monotonic())
        for name in finished:
            report(f"{name}: {results[name]['status']}")
            last_report = time.monotonic()
        if time.monotonic() - last_report >= PROGRESS_EVERY:
            report("")
            last_report = time.monotonic()
        time.sleep(POLL)
    return results
