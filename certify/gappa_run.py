"""Run Gappa on every segment of kernels and check it proves the generator's bounds.

For each sidecar, one Gappa script per segment is rendered by certify/gappa_script.py
into ``<build>/<name>/seg<i>.g`` and run (in parallel, ``--jobs``).  A
segment passes only if Gappa exits 0, i.e. it proved both the generator's
evaluation-error interval and every no-wrap-around range.  Gappa's own
enclosure of the error (the ``in ?`` query of the script) is parsed and
written with the timings to ``<build>/<name>.result.json``.

A form = "eft" kernel (its sidecar's "eft" section) gets one script
instead (certify/gappa_eft.py): the rounding claim of its small part.  A
form = "fold" or "twin" kernel gets one script per claim of its binary64
part (certify/gappa_fold.py, certify/gappa_twin.py), like a form = "head"
kernel.  Any
other kernel without the fixed-point interface (sidecar "fixed_point":
false) is skipped with a line that says so and how its bound is proven.

Usage: python3 -m certify.gappa_run [--build DIR] [--jobs N] KERNEL_FOLDER...
Exit status: 0 all proven, 1 some property not proven, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional

import kfolder
from certify import gappa_eft, gappa_fold, gappa_head, gappa_twin
from certify import gappa_script as gappa
from kfolder import Kernel
from toolkit import provenance
from toolkit.files import write_text_atomic

GAPPA_TIMEOUT = 300  # seconds per run; one segment of degree 13 takes about 1 s
# Pieces per segment tried in turn until Gappa proves everything: most
# segments need no split; a range within a few ulps of 2^W needs finer ones.
SPLITS = (1, 16, 64, 256)
_NUMBER = r"(-?\d+(?:b-?\d+)?)"
_RESULT = re.compile(rf"^\s*u(\d+)_s(\d+) - x\d+_s\d+ in \[{_NUMBER}(?: \{{[^}}]*\}})?, {_NUMBER}")
_FAILED = re.compile(r"^\s*BND\((.*?)\), best: (.*)$")


@dataclass
class SegmentResult:
    index: int
    proven: bool
    split: int                              # pieces of the last Gappa run (SPLITS)
    seconds: float                          # all runs of this segment
    generator: tuple[str, str]              # eval_error_core, as in the sidecar
    gappa: Optional[tuple[str, str]]        # Gappa's enclosure, exact dyadic "m*2^e" strings
    gappa_float: Optional[tuple[float, float]]
    failures: list[str]                     # Gappa's unproven properties, readable


def dyadic(text: str) -> Fraction:
    """Gappa's number syntax m or mbE (= m * 2^E) as an exact rational."""
    mantissa, _, exponent = text.partition("b")
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent or 0)


def _describe(prop: str, labels: list[str]) -> str:
    """A Gappa property name such as ``u4_s0`` made readable with the node label."""
    return re.sub(r"\b([ux])(\d+)_s\d+\b", lambda m: f"{m.group(0)}[{labels[int(m.group(2))]}]", prop)


def _run_gappa(script: Path) -> tuple[int, str]:
    try:
        proc = subprocess.run(["gappa", str(script)], capture_output=True, text=True, timeout=GAPPA_TIMEOUT)
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return -1, f"BND(timeout), best: none after {GAPPA_TIMEOUT} s"


def run_segment(sidecar: dict[str, Any], index: int, folder: Path, source: str) -> SegmentResult:
    """Prove one segment, with finer dichotomy hints while Gappa fails."""
    seg = sidecar["segment_list"][index]
    labels = [str(node.get("label", "")) for node in sidecar["nodes"]]
    start = time.monotonic()
    for split in SPLITS:
        script = folder / f"seg{index}.g"
        script.write_text(gappa.render_script(sidecar, source, [index], split))
        code, output = _run_gappa(script)
        if code == 0:
            break
    seconds = time.monotonic() - start
    enclosure = None
    failures = []
    for line in output.splitlines():
        found = _RESULT.match(line)
        if found:
            enclosure = (found.group(3), found.group(4))
        failed = _FAILED.match(line)
        if failed:
            failures.append(f"{_describe(failed.group(1), labels)} (Gappa's best: {failed.group(2)})")
    if code != 0 and not failures:
        failures.append(f"gappa exited with status {code}: {output.strip()[:300]}")
    return SegmentResult(
        index, code == 0 and not failures, split, round(seconds, 3),
        (seg["eval_error_core"][0], seg["eval_error_core"][1]),
        enclosure, (float(dyadic(enclosure[0])), float(dyadic(enclosure[1]))) if enclosure else None,
        failures)


def certify(kernel: Kernel, build: Path, jobs: int) -> tuple[bool, dict[str, Any]]:
    """Prove every segment of one kernel; returns (all proven, summary)."""
    sidecar, path = kernel.sidecar, kernel.sidecar_path
    gappa.segments(sidecar)  # validate once, before starting Gappa
    name = str(sidecar["name"])
    folder = build / name
    folder.mkdir(parents=True, exist_ok=True)
    count = len(sidecar["segment_list"])
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda i: run_segment(sidecar, i, folder, str(path)), range(count)))
    wall = time.monotonic() - start
    summary = {
        "name": name, "sidecar": str(path), "segments": count,
        "measured_on": provenance.measured_on(),
        "proven": all(r.proven for r in results),
        "wall_seconds": round(wall, 3), "gappa_cpu_seconds": round(sum(r.seconds for r in results), 3),
        "results": [asdict(r) for r in results],
    }
    write_text_atomic(build / f"{name}.result.json", json.dumps(summary, indent=1) + "\n")
    return summary["proven"], summary


def _prove_piece(sidecar: dict[str, Any], entry: str, index: int, folder: Path, source: str) -> Optional[str]:
    """One piece of one entry of a head-form kernel; None when proven, else
    what Gappa could not prove."""
    script = folder / f"{entry}{index}.g"
    script.write_text(gappa_head.render_script(sidecar, source, (entry,), slice(index, index + 1)))
    code, output = _run_gappa(script)
    if code == 0:
        return None
    failed = [f"{m.group(1)} (Gappa's best: {m.group(2)})" for m in map(_FAILED.match, output.splitlines()) if m]
    return "; ".join(failed) or f"gappa exited with status {code}: {output.strip()[:300]}"


def certify_head(kernel: Kernel, build: Path, jobs: int) -> tuple[bool, dict[str, Any]]:
    """Have Gappa re-prove every claim of a head-form kernel's binary64
    part (certify/gappa_head.py), one piece per run."""
    sidecar, path = kernel.sidecar, kernel.sidecar_path
    gappa_head.render_script(sidecar, str(path), pieces=slice(0, 1))   # validate before starting Gappa
    name = str(sidecar["name"])
    folder = build / name
    folder.mkdir(parents=True, exist_ok=True)
    claims = sidecar["head"]["binary64"]["claims"]
    tasks = [(entry, i) for entry in gappa_head.ENTRIES for i in range(len(claims[entry]))]
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        failures = list(pool.map(lambda t: _prove_piece(sidecar, t[0], t[1], folder, str(path)), tasks))
    summary = {
        "name": name, "sidecar": str(path), "form": "head", "claims": len(tasks),
        "measured_on": provenance.measured_on(), "proven": not any(failures),
        "wall_seconds": round(time.monotonic() - start, 3),
        "failures": [{"entry": e, "piece": i, "what": f} for (e, i), f in zip(tasks, failures) if f],
    }
    write_text_atomic(build / f"{name}.result.json", json.dumps(summary, indent=1) + "\n")
    return summary["proven"], summary


# The piecewise binary64 certificates: form -> the module that writes one
# Gappa script per claim (claims(sidecar), render_script(sidecar, source, slice)).
PIECEWISE = {"fold": gappa_fold, "twin": gappa_twin}


def _prove_claim(module: Any, sidecar: dict[str, Any], index: int, folder: Path, source: str) -> Optional[str]:
    """One claim of a fold- or twin-form kernel's binary64 part; None when
    proven, else what Gappa could not prove."""
    script = folder / f"tail{index}.g"
    script.write_text(module.render_script(sidecar, source, slice(index, index + 1)))
    code, output = _run_gappa(script)
    if code == 0:
        return None
    failed = [f"{m.group(1)} (Gappa's best: {m.group(2)})" for m in map(_FAILED.match, output.splitlines()) if m]
    return "; ".join(failed) or f"gappa exited with status {code}: {output.strip()[:300]}"


def certify_pieces(kernel: Kernel, build: Path, jobs: int) -> tuple[bool, dict[str, Any]]:
    """Have Gappa re-prove every claim of a fold- or twin-form kernel's
    binary64 part (certify/gappa_fold.py, certify/gappa_twin.py), one claim
    per run."""
    sidecar, path = kernel.sidecar, kernel.sidecar_path
    form = str(sidecar.get("form"))
    module = PIECEWISE[form]
    module.render_script(sidecar, str(path), slice(0, 1))   # validate before starting Gappa
    name = str(sidecar["name"])
    folder = build / name
    folder.mkdir(parents=True, exist_ok=True)
    count = len(module.claims(sidecar))
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        failures = list(pool.map(lambda i: _prove_claim(module, sidecar, i, folder, str(path)), range(count)))
    summary = {
        "name": name, "sidecar": str(path), "form": form, "claims": count,
        "measured_on": provenance.measured_on(), "proven": not any(failures),
        "wall_seconds": round(time.monotonic() - start, 3),
        "failures": [{"entry": "tail", "piece": i, "what": f} for i, f in enumerate(failures) if f],
    }
    write_text_atomic(build / f"{name}.result.json", json.dumps(summary, indent=1) + "\n")
    return summary["proven"], summary


def certify_eft(kernel: Kernel, build: Path) -> tuple[bool, dict[str, Any]]:
    """Have Gappa re-prove the small part's rounding claim of a form = "eft"
    kernel (certify/gappa_eft.py): one script."""
    sidecar, path = kernel.sidecar, kernel.sidecar_path
    name = str(sidecar["name"])
    folder = build / name
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "small_part.g"
    script.write_text(gappa_eft.render_script(sidecar, str(path)))
    start = time.monotonic()
    code, output = _run_gappa(script)
    failed = [f"{m.group(1)} (Gappa's best: {m.group(2)})" for m in map(_FAILED.match, output.splitlines()) if m]
    failure = None if code == 0 else ("; ".join(failed) or f"gappa exited with status {code}: {output.strip()[:300]}")
    summary = {
        "name": name, "sidecar": str(path), "form": "eft", "script": str(script),
        "claimed": float(Fraction(sidecar["eft"]["small_part"]["error"])),
        "measured_on": provenance.measured_on(), "proven": failure is None,
        "wall_seconds": round(time.monotonic() - start, 3), "failure": failure,
    }
    write_text_atomic(build / f"{name}.result.json", json.dumps(summary, indent=1) + "\n")
    return failure is None, summary


def _widest(summary: dict[str, Any]) -> str:
    """Union over segments of the generator's intervals and of Gappa's."""
    gen_lo = min(Fraction(r["generator"][0]) for r in summary["results"])
    gen_hi = max(Fraction(r["generator"][1]) for r in summary["results"])
    text = f"generator [{float(gen_lo):.9g}, {float(gen_hi):.9g}]"
    encl = [r["gappa"] for r in summary["results"] if r["gappa"]]
    if len(encl) == summary["segments"]:
        lo = min(dyadic(e[0]) for e in encl)
        hi = max(dyadic(e[1]) for e in encl)
        text += f", Gappa [{float(lo):.9g}, {float(hi):.9g}]"
    return text


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m certify.gappa_run", description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="+", type=Path,
                        help="kernel folders (generated/<name>) or their sidecars")
    parser.add_argument("--build", type=Path, default=Path("build/certify"), help="work folder")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel Gappa runs")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        print("certify: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    all_ok = True
    for path in args.kernels:
        try:
            kernel = kfolder.load_path(path)
            if not kernel.fixed_point and "eft" in kernel.sidecar:
                ok, summary = certify_eft(kernel, args.build)
                if not ok:
                    print(f"certify: FAIL {summary['name']} small part: Gappa cannot prove {summary['failure']}")
                print(f"certify: {summary['name']}: the small part's binary64 roundings "
                      f"{'proven' if ok else 'NOT PROVEN'} by Gappa within {summary['claimed']:.6g} units of "
                      f"2^-63 in {summary['wall_seconds']:.2f} s (IEEE-754 binary64 rounding, FMA rounded once; "
                      "the large part's lemmas and the approximation term are the generator's, docs/error-model.md)")
                all_ok = all_ok and ok
                continue
            if not kernel.fixed_point and kernel.sidecar.get("form") in PIECEWISE:
                ok, summary = certify_pieces(kernel, args.build, args.jobs)
                for f in summary["failures"]:
                    print(f"certify: FAIL {summary['name']} tail piece {f['piece']}: Gappa cannot prove {f['what']}")
                print(f"certify: {summary['name']}: {summary['claims']} claims of the binary64 part "
                      f"{'proven' if ok else 'NOT PROVEN'} by Gappa in {summary['wall_seconds']:.2f} s wall "
                      "(IEEE-754 binary64 rounding, FMA rounded once; the integer chain and the approximation "
                      "term are the generator's, docs/error-model.md)")
                all_ok = all_ok and ok
                continue
            if not kernel.fixed_point:
                # No fixed-point polynomial, segment list or evaluation-error
                # interval to re-prove; its proof comes with the kernel (the
                # sidecar's bound.method names it).
                print(f"certify: {path}: skipped (no fixed-point interface, form {kernel.form or '?'}: "
                      f"nothing of this certificate applies; its bound: {kernel.bound_method or 'no method stated'})")
                continue
            if gappa.has_limb_products(kernel.sidecar):
                print(f"certify: {path}: skipped (truncated limb products: Gappa does not model them; "
                      "see docs/error-model.md)")
                continue
            if kernel.sidecar.get("form") == "head":
                ok, summary = certify_head(kernel, args.build, args.jobs)
                for f in summary["failures"]:
                    print(f"certify: FAIL {summary['name']} {f['entry']} piece {f['piece']}: Gappa cannot prove "
                          f"{f['what']}")
                print(f"certify: {summary['name']}: {summary['claims']} claims of the binary64 part "
                      f"{'proven' if ok else 'NOT PROVEN'} by Gappa in {summary['wall_seconds']:.2f} s wall "
                      "(IEEE-754 binary64 rounding, FMA rounded once)")
                all_ok = all_ok and ok
                continue
            ok, summary = certify(kernel, args.build, args.jobs)
        except (gappa.SidecarError, gappa_eft.ClaimError, kfolder.KernelFolderError) as exc:
            print(f"certify: error: {path}: {exc}", file=sys.stderr)
            return 2
        except FileNotFoundError as exc:
            print(f"certify: error: cannot run gappa: {exc}", file=sys.stderr)
            return 2
        name = summary["name"]
        for r in summary["results"]:
            for failure in r["failures"]:
                print(f"certify: FAIL {name} segment {r['index']}: Gappa cannot prove {failure}; "
                      f"generator's interval [{r['generator'][0]}, {r['generator'][1]}]")
        state = "proven" if ok else "NOT PROVEN"
        print(f"certify: {name}: {summary['segments']} segment(s) {state} by Gappa in "
              f"{summary['wall_seconds']:.2f} s wall ({summary['gappa_cpu_seconds']:.2f} s of Gappa runs); "
              f"U_root - Uhat_root: {_widest(summary)}")
        all_ok = all_ok and ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
