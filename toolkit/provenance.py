"""Where and when a figure was measured: the CPU model string (from
/proc/cpuinfo) and the UTC date.  Every tool that writes a build/*.json of
measured figures records this under "measured_on", and `make report`
prints it above each generated table."""
from __future__ import annotations

import datetime
import platform
from pathlib import Path


def cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty if absent)."""
    fields: dict[str, str] = {}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return fields
    for line in text.split("\n\n")[0].splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def cpu_model() -> str:
    """The CPU model string, e.g. "Intel(R) Xeon(R) Processor"."""
    return cpuinfo().get("model name", platform.processor() or "unknown")


def measured_on() -> dict[str, str]:
    """{"cpu_model", "date"}: the record a measured JSON carries."""
    return {"cpu_model": cpu_model(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}
