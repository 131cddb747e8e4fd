"""What the benchmark ran on: CPU, compiler and flags."""
from __future__ import annotations

import os
import platform
import subprocess

from toolkit import provenance


def describe(cc: str, cflags: str) -> dict[str, object]:
    """The CPU (model, family/model/stepping, TSC, hypervisor, AVX2), the
    compiler's version line and the flags, for bench.json."""
    info = provenance.cpuinfo()
    flags = set(info.get("flags", "").split())
    try:
        compiler = subprocess.run([cc, "--version"], capture_output=True, text=True,
                                  check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        compiler = f"{cc} (version unknown)"
    return {
        "cpu_model": info.get("model name", platform.processor() or "unknown"),
        "cpu_family_model_stepping": "/".join(
            info.get(k, "?") for k in ("cpu family", "model", "stepping")),
        "tsc_mhz_reported": info.get("cpu MHz", "unknown"),
        "hypervisor": "hypervisor" in flags,
        "avx2": "avx2" in flags,
        "logical_cpus": os.cpu_count(),
        "kernel": platform.release(),
        "compiler": compiler,
        "cc": cc,
        "cflags": cflags,
    }
