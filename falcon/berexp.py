"""Run falcon/berexp.c over every kernel with Falcon adaptors and write
build/berexp.json: measured decision and byte-count differences against
the FACCT reference on identical random bytes, next to their predictions.

Usage: python3 -m falcon.berexp [--draws N] [--seed S] [--threads T]
           [--control-bits D] [--audit build/audit.json]
           [--out build/berexp.json] [--build build/falcon] [NAME ...]

NAME defaults to every kernels/*.toml name; kernels without adaptors are
skipped.  The control kernel (the reference's output with its low D bits
cleared) must show differences at the predicted rate; see falcon/predict.py.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from falcon import predict
from toolkit import provenance, table
from toolkit.files import write_text_atomic
from falcon.kernels import (FALCON, REF_MAX_ERR_2P63, RUNTIME, TOOLKIT_C, FalconError, Kernel,
                            adaptor_kernels, audit_figures, compile_c, shipped_names)

# Falcon's sigma_min per degree n (the specification's parameter table).
SIGMA_MIN = {512: 1.2778336969128337, 1024: 1.2982803343442918}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def registry_source(kernels: Sequence[Kernel]) -> str:
    """C source of the kernel table berexp.c reads (falcon/berexp.h).  The
    headers are included by absolute path, so each finds its own fxp.h and
    table next to it; the wrappers stop the adaptors being inlined into one
    another's callers, which does not matter for counting."""
    lines = ['#include "berexp.h"']
    for k in kernels:
        if not _IDENT.match(k.name):
            raise FalconError(f"kernel name {k.name!r} is not a C identifier")
        lines.append(f'#include "{k.falcon_header.resolve()}"')
    for k in kernels:
        lines.append(f"static uint64_t w_{k.name}(uint64_t x, uint64_t c) "
                     f"{{ return {k.name}_fpr_expm_p63(x, c); }}")
    entries = ", ".join(f'{{"{k.name}", w_{k.name}}}' for k in kernels) or '{"", 0}'
    lines.append(f"const berexp_kernel berexp_kernels[] = {{{entries}}};")
    lines.append(f"const unsigned berexp_kernel_count = {len(kernels)};")
    return "\n".join(lines) + "\n"


def build_berexp(kernels: Sequence[Kernel], build: Path) -> Path:
    """The berexp program linked with a registry of `kernels`."""
    build.mkdir(parents=True, exist_ok=True)
    reg = build / "berexp_registry.c"
    text = registry_source(kernels)
    if not reg.is_file() or reg.read_text(encoding="utf-8") != text:
        reg.write_text(text, encoding="utf-8")
    # One translation unit holds every kernel, so it is built with the union
    # of their instruction-set flags (-mfma for the head-form kernels).
    flags = sorted({f for k in kernels for f in k.cflags})
    return compile_c([FALCON / "berexp.c", reg, RUNTIME / "facct_ref.c"], build / "berexp",
                     [FALCON, RUNTIME, TOOLKIT_C], flags=flags, link=["-lpthread", "-lm"])


def run_berexp(binary: Path, draws: int, seed: int, threads: int, sigma_min: float,
               control_bits: int) -> dict[str, Any]:
    done = subprocess.run([str(binary), str(draws), str(seed), str(threads),
                           repr(sigma_min), str(control_bits)], stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise FalconError(f"{binary} exited with {done.returncode}")
    return json.loads(done.stdout)


# Falcon's budget: 2^-43 relative to ccs exp(-r), whose smallest value in
# the sampler is 0.61 * exp(-ln 2) = 0.305 (ccs >= 0.61, r < ln 2).
BUDGET_LOG2_REL = -43.0
SMALLEST_OUTPUT = 0.61 * 0.5


def budget(error_2p63: float | None) -> dict[str, Any] | None:
    """The error as log2 absolute and worst-case log2 relative, and whether
    it meets the 2^-43 relative budget."""
    if error_2p63 is None or error_2p63 <= 0:
        return None
    log2_abs = math.log2(error_2p63) - 63
    log2_rel = log2_abs - math.log2(SMALLEST_OUTPUT)
    return {"log2_abs": log2_abs, "log2_rel_worst": log2_rel,
            "meets_2^-43_relative": log2_rel <= BUDGET_LOG2_REL}


def _error_figures(name: str, kernels: dict[str, Kernel], audit: dict[str, Any],
                   control_bits: int) -> dict[str, Any]:
    """The kernel's error against the exact value, units of 2^-63."""
    if name.startswith("control_trunc"):
        # Clearing D low bits of the reference moves it by [0, 2^D).
        return {"measured_2p63": REF_MAX_ERR_2P63 + 2.0 ** control_bits,
                "bound_2p63": REF_MAX_ERR_2P63 + 2.0 ** control_bits}
    entry = audit.get(name, {})
    # The adaptors' error against the double inputs (what BerExp calls), or
    # _expm_p63's on the fixed-point grid from an audit that predates it.
    measured = (entry.get("fpr") or entry.get("expm_p63") or {}).get("max_err_2p63")
    return {"measured_2p63": measured, "bound_2p63": kernels[name].fpr_bound_2p63,
            "falcon_budget_ok": entry.get("falcon_budget_ok")}


def _sampler_summary(n: int, sampler: dict[str, Any]) -> dict[str, Any]:
    """The simulated sampler's figures, s_prob cut after its last nonzero."""
    probs = list(sampler["s_prob"])
    while probs and probs[-1] == 0:
        probs.pop()
    return {"n": n, "sigma_min": SIGMA_MIN[n], **sampler, "s_prob": probs}


def analyse(raw: dict[str, Any], sampler_1024: dict[str, Any], kernels: dict[str, Kernel],
            audit: dict[str, Any], control_bits: int) -> dict[str, Any]:
    """Measured counts next to the exact and analytic predictions."""
    draws = raw["draws"]
    s_prob = raw["sampler"]["s_prob"]
    samplers = {512: raw["sampler"], 1024: sampler_1024}
    out_kernels = []
    for k in raw["kernels"]:
        errors = _error_figures(k["name"], kernels, audit, control_bits)
        exact_dec = int(k["sum_abs_z_diff"]) / predict.TWO64
        exact_bytes = predict.bytes_diff_expected(k["first_byte_diff"])
        row: dict[str, Any] = {
            "name": k["name"], "errors": errors,
            "budget": {w: budget(errors.get(w)) for w in ("measured_2p63", "bound_2p63")},
            "measured": {"decision_diffs": k["decision_diffs"], "bytes_diffs": k["bytes_diffs"],
                         "decision_rate": k["decision_diffs"] / draws,
                         "bytes_rate": k["bytes_diffs"] / draws,
                         "max_abs_expm_diff_2p63": k["max_abs_expm_diff"]},
            "expected_from_run": {"decision_diffs": exact_dec, "bytes_diffs": exact_bytes},
        }
        per_call: dict[str, Any] = {}
        for which in ("measured_2p63", "bound_2p63"):
            e = errors.get(which)
            if e is None:
                continue
            vs_ref = e + REF_MAX_ERR_2P63 if not k["name"].startswith("control") else e
            per_call[which] = {
                "vs_reference_bound": predict.per_call_bound(vs_ref, s_prob),
                "vs_exact_bound": predict.per_call_bound(e, s_prob),
                "per_signature_vs_exact_bound": {
                    str(n): predict.per_call_bound(e, s_prob)
                    * predict.calls_per_signature(n, samplers[n]["calls_per_sample"])
                    for n in (512, 1024)},
            }
        observed = exact_dec / draws
        per_call["observed_vs_reference"] = {
            "per_call": observed,
            "per_signature": {str(n): observed * predict.calls_per_signature(
                n, samplers[n]["calls_per_sample"]) for n in (512, 1024)}}
        row["per_call"] = per_call
        if k["name"].startswith("control"):
            # Clearing D low bits: |dE| uniform-ish in [0, 2^D), mean 2^(D-1).
            row["expected_analytic_decision_diffs"] = draws * predict.per_call_estimate(
                2.0 ** (control_bits - 1), s_prob)
        out_kernels.append(row)
    return {"draws": draws, "seed": raw["seed"],
            "sampler": {str(n): _sampler_summary(n, s) for n, s in samplers.items()},
            "mean_2_pow_minus_s": predict.mean_two_pow_minus_s(s_prob),
            "reference_max_err_2p63": REF_MAX_ERR_2P63,
            "kernels": out_kernels}


def consistent(observed: int, expected: float) -> bool:
    """Is a Poisson count `observed` plausible for mean `expected`?  Five
    standard deviations plus a slack of 3 for small means."""
    return abs(observed - expected) <= 5.0 * math.sqrt(expected) + 3.0


def _table(result: dict[str, Any]) -> str:
    """The measured counts next to their expectations, one row per kernel."""
    header = ("kernel", "dec diffs", "expected", "byte diffs", "expected", "max |dE|",
              "per call (run)", "per sig n=1024")
    rows = []
    for k in result["kernels"]:
        m, x, pc = k["measured"], k["expected_from_run"], k["per_call"]["observed_vs_reference"]
        rows.append((k["name"], str(m["decision_diffs"]), f"{x['decision_diffs']:.3g}",
                     str(m["bytes_diffs"]), f"{x['bytes_diffs']:.3g}",
                     str(m["max_abs_expm_diff_2p63"]), f"{pc['per_call']:.3g}",
                     f"{pc['per_signature']['1024']:.3g}"))
    return table.text(header, rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*")
    p.add_argument("--draws", type=int, default=10**9)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--control-bits", type=int, default=40)
    p.add_argument("--audit", type=Path, default=Path("build/audit.json"))
    p.add_argument("--out", type=Path, default=Path("build/berexp.json"))
    p.add_argument("--build", type=Path, default=Path("build/falcon"))
    args = p.parse_args(argv)
    if args.draws <= 0 or args.threads <= 0 or not 0 <= args.control_bits <= 62:
        print("berexp: error: need --draws > 0, --threads > 0, 0 <= --control-bits <= 62",
              file=sys.stderr)
        return 2
    try:
        kernels = adaptor_kernels(args.names or shipped_names())
        binary = build_berexp(kernels, args.build)
        raw = run_berexp(binary, args.draws, args.seed, args.threads, SIGMA_MIN[512],
                         args.control_bits)
        # A one-draw run only for the n = 1024 sampler figures.
        s1024 = run_berexp(binary, 1, args.seed, 1, SIGMA_MIN[1024], 0)["sampler"]
        result = analyse(raw, s1024, {k.name: k for k in kernels}, audit_figures(args.audit),
                         args.control_bits)
    except FalconError as exc:
        print(f"berexp: error: {exc}", file=sys.stderr)
        return 2
    result["measured_on"] = provenance.measured_on()
    write_text_atomic(args.out, json.dumps(result, indent=1) + "\n")
    print(_table(result))
    bad = [k["name"] for k in result["kernels"]
           if not consistent(k["measured"]["decision_diffs"], k["expected_from_run"]["decision_diffs"])
           or not consistent(k["measured"]["bytes_diffs"], k["expected_from_run"]["bytes_diffs"])]
    if bad:
        print(f"berexp: counts inconsistent with their expectation: {', '.join(bad)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
