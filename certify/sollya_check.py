"""Cross-check the generator's approximation bounds with Sollya's supnorm.

For a segment i of a kernel, the quantized polynomial in v = T / 2^W is
    p(v) = sum_j sigma_j K_j 2^(-s_j) v^j
(sigma_j, s_j: sign and scale of the const node of power j; K_j from the
segment's "coefficients"), exact dyadic rationals, and the target is
f(x_first + v 2^-g) for v in [0, (t_max << g) / 2^W] (1 - f for the
"one_minus" form).  Sollya's ``supnorm(p, f, I, absolute, 2^-40)`` returns a
rigorous enclosure [l, u] of sup |p - f| on I; the generator's
"approx_bound" must satisfy  l <= approx_bound  (else the generator's proof
is wrong) and approx_bound <= TIGHTNESS * u  (else it is needlessly loose).

Usage: python3 -m certify.sollya_check KERNEL_FOLDER [--segments 0,3,7]
Exit status: 0 every checked segment passes, 1 some fails, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional, Sequence

import kfolder
from certify import gappa_script as gappa
from toolkit import provenance
from toolkit.files import write_text_atomic

TIGHTNESS = Fraction(101, 100)
PRECISION = 300        # Sollya working precision (bits); 64-bit words at scales up to 2^130
SUPNORM_ACCURACY = 40  # the enclosure's relative width is at most 2^-40
SOLLYA_TIMEOUT = 300
_DYADIC = re.compile(r"^(-?\d+)(?:b(-?\d+))?$")
_FUNCTION = re.compile(r"^[a-z0-9x()+\-*/^. ]+$")


class CheckError(ValueError):
    """A sidecar or a Sollya run that cannot be checked."""


@dataclass(frozen=True)
class Enclosure:
    index: int
    lower: Fraction      # Sollya: sup |p - f| >= lower
    upper: Fraction      # Sollya: sup |p - f| <= upper
    claimed: Fraction    # the generator's approx_bound

    @property
    def sound(self) -> bool:
        return self.claimed >= self.lower

    @property
    def tight(self) -> bool:
        return self.claimed <= TIGHTNESS * self.upper


def _dyadic_text(value: Fraction) -> str:
    """Exact Sollya constant for a dyadic rational (m * 2^e written as mbe)."""
    den = value.denominator
    if den & (den - 1):
        raise CheckError(f"coefficient {value} is not dyadic")
    return f"({value.numerator}b-{den.bit_length() - 1})"


def polynomial(sidecar: dict[str, Any], index: int) -> list[Fraction]:
    """Exact coefficients (powers of v) of segment ``index``'s polynomial.
    This check is about the polynomial, not about how its products are
    computed, so a kernel with limb products (multiplier = "truncated",
    which the Gappa certificate does not model) is checked too: its graph
    is not validated here, only that every power has one const node."""
    degree = int(sidecar["degree"])
    form = sidecar.get("form")
    if form in ("head", "fold", "twin"):
        # One polynomial in x (no node graph): the exact leading terms and
        # the fitted rest, as the sidecar states it (gen/proof/head.py and
        # gen/fold/design.py, polynomial).
        coeffs = [Fraction(c) for c in sidecar.get("polynomial") or ()]
        if len(coeffs) != degree + 1:
            raise CheckError(f"form {form}: {len(coeffs)} polynomial coefficients for degree {degree}")
        return coeffs
    if form == "mcu":
        # One polynomial per row in T = v (gen/render/mcu.py): the coefficients as the kernel reads them.
        coeffs = [Fraction(c) for c in sidecar["mcu"]["polynomials"][index]]
        if len(coeffs) != degree + 1:
            raise CheckError(f"form mcu: row {index}: {len(coeffs)} coefficients for degree {degree}")
        return coeffs
    if not gappa.has_limb_products(sidecar):
        gappa.segments(sidecar)  # validates the graph and the coefficients
    ks = [int(k) for k in sidecar["segment_list"][index]["coefficients"]]
    if len(ks) != degree + 1:
        raise CheckError(f"segment {index}: {len(ks)} coefficients for degree {degree}")
    found: dict[int, Fraction] = {}
    for node in sidecar["nodes"]:
        if node["kind"] == "const":
            power = int(node["power"])
            if power in found or not 0 <= power <= degree:
                raise CheckError(f"const node of power {power}: outside 0..{degree} or repeated")
            found[power] = Fraction(int(node["sign"]) * ks[power]) / Fraction(2) ** int(node["scale"])
    if sorted(found) != list(range(degree + 1)):
        raise CheckError(f"const nodes for powers {sorted(found)}, expected 0..{degree}")
    # The constant the root sum adds on every segment (gen/quantize: root_bias).
    root = sidecar["nodes"][-1]
    found[0] += Fraction(int(root["sign"]) * int(sidecar.get("root_bias", 0))) / Fraction(2) ** int(root["scale"])
    return [found[j] for j in range(degree + 1)]


def sollya_script(sidecar: dict[str, Any], rows: Sequence[tuple[int, Sequence[Fraction]]]) -> str:
    """One Sollya script printing 'inf sup' (dyadic) of supnorm per row."""
    function = str(sidecar.get("function", ""))
    if not _FUNCTION.match(function):
        raise CheckError(f"function {function!r} is not a plain expression in x")
    W = int(sidecar["word_bits"])
    g = int((sidecar.get("index") or {}).get("pre_shift", 0))   # form head: one segment, v = x
    lines = [f"prec = {PRECISION}!;", "display = dyadic!;", "verbosity = 0!;"]
    for i, coeffs in rows:
        seg = sidecar["segment_list"][i]
        x0 = Fraction(int(seg["z_first"]), 1 << W)
        v_max = Fraction(int(seg["t_max"]) << g, 1 << W)
        target = re.sub(r"\bx\b", f"({_dyadic_text(x0)} + v * 2^(-{g}))", function)
        if sidecar.get("form") == "one_minus":
            target = f"1 - ({target})"
        poly = " + ".join(f"{_dyadic_text(c)} * v^{j}" for j, c in enumerate(coeffs))
        lines += [f"p = {poly};", f"f = {target};",
                  f"r = supnorm(p, f, [0, {_dyadic_text(v_max)}], absolute, 2^(-{SUPNORM_ACCURACY}));",
                  f'write("S{i} ", inf(r), " ", sup(r), "\\n");']
    return "\n".join(lines) + "\nquit;\n"


def check(sidecar: dict[str, Any], indices: Sequence[int],
          override: Optional[dict[int, list[Fraction]]] = None) -> list[Enclosure]:
    """Sollya's enclosure against the generator's approx_bound for each segment.
    ``override`` replaces a segment's polynomial (the tests' broken controls)."""
    count = len(sidecar["segment_list"])
    if any(not 0 <= i < count for i in indices):
        raise CheckError(f"segments {list(indices)} outside 0..{count - 1}")
    rows = [(i, (override or {}).get(i) or polynomial(sidecar, i)) for i in indices]
    with tempfile.NamedTemporaryFile("w", suffix=".sollya", delete=False) as handle:
        handle.write(sollya_script(sidecar, rows))
    try:
        proc = subprocess.run(["sollya", handle.name], capture_output=True, text=True, timeout=SOLLYA_TIMEOUT)
    finally:
        Path(handle.name).unlink()
    found: dict[int, tuple[Fraction, Fraction]] = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("S") and all(_DYADIC.match(p) for p in parts[1:]):
            lo, hi = (dyadic(p) for p in parts[1:])
            found[int(parts[0][1:])] = (lo, hi)
    missing = [i for i in indices if i not in found]
    if missing:
        raise CheckError(f"Sollya gave no enclosure for segments {missing}: "
                         f"{(proc.stdout + proc.stderr).strip()[:300]}")
    return [Enclosure(i, *found[i], Fraction(str(sidecar["segment_list"][i]["approx_bound"])))
            for i in indices]


def dyadic(text: str) -> Fraction:
    """Sollya's and Gappa's m or mbE (= m * 2^E) as an exact rational."""
    mantissa, _, exponent = text.partition("b")
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent or 0)


def summary(name: str, results: list[Enclosure]) -> dict[str, Any]:
    """The JSON record of one kernel's check: each segment's enclosure and
    the generator's claim (exact dyadics as strings, floats for reading)."""
    return {"name": name, "measured_on": provenance.measured_on(),
            "sound": all(r.sound for r in results), "tight": all(r.tight for r in results),
            "segments": [{"index": r.index, "lower": float(r.lower), "upper": float(r.upper),
                          "claimed": float(r.claimed), "ratio": float(r.claimed / r.upper),
                          "sound": r.sound, "tight": r.tight} for r in results]}


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m certify.sollya_check", description=__doc__.splitlines()[0])
    parser.add_argument("kernel", type=Path, help="a kernel folder (generated/<name>) or its sidecar")
    parser.add_argument("--segments", help="comma-separated segment indices (default: all)")
    parser.add_argument("--json", type=Path, help="also write the enclosures here (make report reads them)")
    args = parser.parse_args(argv)
    try:
        kernel = kfolder.load_path(args.kernel)
        sidecar = kernel.sidecar
        if "segment_list" not in sidecar:
            # Form eft has no polynomial segments of the generator's fit
            # for Sollya to bound; its proof comes with the kernel.
            print(f"sollya_check: {args.kernel}: skipped (no segment list, form {kernel.form or '?'}; "
                  f"its bound: {kernel.bound_method or 'no method stated'})")
            return 0
        count = len(sidecar.get("segment_list", []))
        indices = [int(s) for s in args.segments.split(",")] if args.segments else list(range(count))
        results = check(sidecar, indices)
    except kfolder.KernelFolderError as exc:
        print(f"sollya_check: error: {exc}", file=sys.stderr)
        return 2
    except (gappa.SidecarError, CheckError, ValueError, KeyError) as exc:
        print(f"sollya_check: error: {args.kernel}: {exc}", file=sys.stderr)
        return 2
    if args.json is not None:
        write_text_atomic(args.json, json.dumps(summary(sidecar["name"], results), indent=1) + "\n")
    ok = True
    for r in results:
        state = "ok" if r.sound and r.tight else ("UNSOUND" if not r.sound else "LOOSE")
        ok = ok and r.sound and r.tight
        print(f"{sidecar['name']} segment {r.index}: Sollya sup|p-f| in [{float(r.lower):.6e}, "
              f"{float(r.upper):.6e}], generator approx_bound {float(r.claimed):.6e}, "
              f"ratio to Sollya's upper {float(r.claimed / r.upper):.5f}: {state}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
