"""The Falcon adaptors against the caller's double inputs: how to build the
checker verify/check_fpr.c for a kernel, and how the audit reads its result.

check_fpr writes one JSON per kernel with Falcon adaptors
(build/check/<name>.fpr.json, `make check-fpr`).  The audit
(verify/audit.py) turns it into the entry's

    "fpr": {"max_err_2p63", "worst_x_bits", "worst_ccs_bits",
            "inputs_checked", "bound", ...}

where "bound" is the proven bound the sidecar states for the adaptors
(kfolder's fpr_bound_2p63), and fails the run (fpr_failures) when the
measured error exceeds it, when the header's <NAME>_FPR_EXPM_P63_ERR_BOUND
is not that same number, or when the four adaptors disagree on an input of
the domain.  Kernels without adaptors have "fpr": null.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional

from kfolder import Kernel
from toolkit import table

VERIFY = Path(__file__).resolve().parent
ROOT = VERIFY.parent
LIBS = ("-lmpfr", "-lgmp", "-lpthread", "-lm")

# Copied from the checker's result into the entry ("bound" comes from the sidecar).
RESULT_FIELDS = ("max_err_2p63", "worst_x_bits", "worst_ccs_bits", "inputs_checked",
                 "worst_result", "worst_adaptor", "log2_abs_err", "over_bound",
                 "disagreements", "first_disagreement", "bound_macro")


class FprResultError(ValueError):
    """A checker result that is missing or malformed; the message is one line."""


def result_path(check_dir: Path, name: str) -> Path:
    """Where `make check-fpr` writes the kernel's result."""
    return Path(check_dir) / f"{name}.fpr.json"


def compile_command(kernel: Kernel, out: Path, fastref: Path) -> list[str]:
    """The command that builds check_fpr for `kernel` (as mk/check.mk does);
    `fastref` is verify/fastref.c or its object."""
    return [os.environ.get("CC", "cc"), "-O2", "-Wall", "-Wextra", "-std=gnu11", *kernel.cflags,
            f"-I{VERIFY}", f"-I{ROOT / 'toolkit' / 'c'}", f"-I{kernel.folder.resolve()}",
            f"-DKNAME={kernel.name}", f"-DKUNAME={kernel.name.upper()}",
            f'-DKHEADER="{kernel.falcon_header.name}"', str(VERIFY / "check_fpr.c"),
            str(fastref), "-o", str(out), *LIBS]


def fpr_entry(kernel: Kernel, check_dir: Path) -> Optional[dict[str, Any]]:
    """The audit's "fpr" entry of `kernel` (None without Falcon adaptors)."""
    if not kernel.falcon_adaptors:
        return None
    path = result_path(check_dir, kernel.name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FprResultError(f"{path}: missing (the Falcon adaptors' check: make check-fpr)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise FprResultError(f"{path}: {exc}") from None
    if not isinstance(data, dict) or data.get("kernel") != kernel.name:
        raise FprResultError(f"{path}: not a check_fpr result for kernel {kernel.name!r}")
    missing = [k for k in RESULT_FIELDS if k not in data]
    if missing:
        raise FprResultError(f"{path}: missing {', '.join(missing)}")
    return {**{k: data[k] for k in RESULT_FIELDS}, "bound": kernel.fpr_bound_2p63}


def fpr_failures(name: str, fpr: Optional[dict[str, Any]]) -> list[str]:
    """One line per reason the kernel's adaptors fail the audit."""
    if fpr is None:
        return []
    bound, measured = fpr["bound"], fpr["max_err_2p63"]
    out = []
    if bound is None:
        out.append(f"{name}: the sidecar states no bound for the Falcon adaptors")
    elif fpr["bound_macro"] != bound:
        out.append(f"{name}: the header's FPR_EXPM_P63_ERR_BOUND is {fpr['bound_macro']}, "
                   f"the sidecar's bound {bound}")
    if bound is not None and measured > bound:
        out.append(f"{name}: Falcon adaptors measured {measured:.6g} units of 2^-63 > proven "
                   f"bound {bound:.6g} at x_bits={fpr['worst_x_bits']} "
                   f"ccs_bits={fpr['worst_ccs_bits']} ({fpr['worst_adaptor']} returned "
                   f"{fpr['worst_result']}; {fpr['over_bound']} of {fpr['inputs_checked']} "
                   "inputs over the bound)")
    if fpr["disagreements"]:
        first = fpr["first_disagreement"] or {}
        results = ", ".join(f"{k}={v}" for k, v in (first.get("results") or {}).items())
        out.append(f"{name}: the four Falcon adaptors disagree on {fpr['disagreements']} inputs "
                   f"of the domain, first at x_bits={first.get('x_bits')} "
                   f"ccs_bits={first.get('ccs_bits')} ({results})")
    return out


def render_table(entries: list[dict[str, Any]]) -> str:
    """The adaptors' figures as a plain-text table ("" when no kernel has them)."""
    rows = []
    for e in entries:
        f = e.get("fpr")
        if f is None:
            continue
        ok = not fpr_failures(e["name"], f)
        rows.append((e["name"], f"{f['max_err_2p63']:.6g}", None if f["bound"] is None else
                     f"{f['bound']:.6g}", f["worst_x_bits"], f["worst_ccs_bits"],
                     f["inputs_checked"], f["over_bound"], f["disagreements"],
                     "yes" if ok else "NO"))
    if not rows:
        return ""
    header = ("Falcon adaptors", "max err 2^-63", "bound", "worst x_bits", "worst ccs_bits",
              "inputs", "over bound", "disagree", "ok")
    return table.text(header, rows)
