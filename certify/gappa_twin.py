"""Gappa scripts that re-prove the binary64 part of a form = "twin" kernel.

The twin form (gen/twin/design.py) evaluates in IEEE-754 binary64, from
v and c (x and ccs lifted to at least 2^-23 and 2^-63) and
rc = ccs 2^63 - trunc(ccs 2^63),

    g = RN(c v^7 Q(v) + RN(K + rc E(v))),

Estrin's scheme with each multiply-add one FMA (rounded once), K the
rounding constant that puts g in [2^52, 2^53).  The generator's proof
(gen/twin/proof.py) encloses, per piece [vlo, vhi] of v and per case of
ccs (a range of c and of rc), the error of g (computed minus the same
operations done exactly) and the range of the computed g; the sidecar's
"twin"/"binary64" section lists those claims.  This module writes a Gappa
script in which

    gr<n>   is each operation as the kernel computes it, rounded with
            Gappa's float<ieee_64, ne> (an FMA is rnd(a * b + c)), and
    gx<n>   its exact counterpart,

and asks Gappa to prove, for every claim, g - G inside the generator's
error interval and g inside its range.  Gappa shares no code with
gen/proof/ and models the rounding itself, so a proof that dropped a
rounding (an FMA's, say) fails here.  What the script does not cover (said
in docs/error-model.md): that no operand is subnormal (the generator's
proof and the run-time MXCSR test), the integer chain (exact rational
interval arithmetic in gen/twin/proof.py, the self-check, the bit-identity
tests, the audit) and the approximation term.

Usage: python3 -m certify.gappa_twin generated/<name>/provenance/<name>.json [-o out.g]
"""

from __future__ import annotations

import sys
from typing import Any, Optional

from certify import gappa_claims
from certify.gappa_head import _fraction, goal, program_lines
from certify.gappa_script import SidecarError, sidecar_cli


def claims(sidecar: dict[str, Any]) -> list[list[str]]:
    """The sidecar's per-piece claims, checked for presence."""
    return gappa_claims.claims(sidecar, "twin")


def render_script(sidecar: dict[str, Any], source: str = "", pieces: Optional[slice] = None) -> str:
    """The Gappa script of every claim, or of the ``pieces`` asked for (a
    runner proves one claim per Gappa run)."""
    rows = claims(sidecar)
    try:
        cert = sidecar["twin"]["binary64"]
        coeffs = [_fraction(c, "coefficient") for c in cert["coefficients"]]
        ops = cert["program"]
        name = sidecar["name"]
    except (KeyError, TypeError) as exc:
        raise SidecarError(f"sidecar: missing field {exc}") from None
    body, g_r, g_x = program_lines(ops, coeffs, "g", {"v": ("v", "v"), "c": ("c", "c"), "in0": ("rc", "rc")})
    goals = []
    for row in rows[pieces] if pieces is not None else rows:
        if len(row) != 10:
            raise SidecarError("a twin claim has 10 fields (v, c, rc ranges, error, range)")
        vlo, vhi, clo, chi, rlo, rhi, elo, ehi, glo, ghi = (_fraction(q, "twin claim") for q in row)
        goals.append(goal([("v", vlo, vhi), ("c", clo, chi), ("rc", rlo, rhi)], g_r, g_x, (elo, ehi), (glo, ghi)))
    about = [
        'The binary64 part of a form = "twin" kernel, for each piece of v and case of',
        "ccs the generator's proof used: g as computed (every operation rounded to",
        "nearest binary64, an FMA once) minus the same operations done exactly lies in",
        "the generator's error interval, and the computed g in its range.",
    ]
    return gappa_claims.script("certify/gappa_twin.py", f"{name} binary64 part", source, about, body, goals)


def main(argv: list[str] | None = None) -> int:
    return sidecar_cli(argv, "gappa_twin", __doc__.splitlines()[0], render_script)


if __name__ == "__main__":
    sys.exit(main())
