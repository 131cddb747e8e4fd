"""Gappa scripts that re-prove the binary64 tail of a form = "fold" kernel.

The fold form (gen/fold/design.py) evaluates the powers from ``first_tail``
up in IEEE-754 binary64, F = (c v^s) Q(v) in v = max(x 2^63, 2^40) and
c = max(ccs 2^63, 1), Estrin's scheme with each multiply-add one FMA
(rounded once) and a final product by c v^s.  The generator's proof
(gen/fold/proof.py) encloses, per piece [vlo, vhi] of v and for c in the
sidecar's "c_range", the error of F (computed minus the same operations
done exactly) and the range of the computed F; the sidecar's
"fold"/"binary64" section lists those claims.  This module writes a Gappa
script in which

    fr<n>   is each operation as the C code computes it, rounded with
            Gappa's float<ieee_64, ne> (an FMA is rnd(a * b + c)), and
    fx<n>   its exact counterpart,

and asks Gappa to prove, for every piece, t - T inside the generator's
error interval and t inside its range.  Gappa shares no code with
gen/proof/ and models the rounding itself, so a proof that dropped a
rounding (an FMA's, say) fails here.  What the script does not cover (said
in docs/error-model.md): that no operand is subnormal (the generator's
proof and the run-time MXCSR test), the rounding of CVTSD2SI and the integer
chain (exact rational interval arithmetic in gen/fold/proof.py, the
self-check, the bit-identity tests, the audit).

Usage: python3 -m certify.gappa_fold generated/<name>/provenance/<name>.json [-o out.g]
"""

from __future__ import annotations

import sys
from typing import Any, Optional

from certify import gappa_claims
from certify.gappa_head import _fraction, goal, program_lines
from certify.gappa_script import SidecarError, sidecar_cli


def claims(sidecar: dict[str, Any]) -> list[list[str]]:
    """The sidecar's per-piece claims, checked for presence."""
    return gappa_claims.claims(sidecar, "fold")


def render_script(sidecar: dict[str, Any], source: str = "", pieces: Optional[slice] = None) -> str:
    """The Gappa script of every claim, or of the ``pieces`` asked for (a
    runner proves one piece per Gappa run: one proposition holding them all
    takes Gappa far longer)."""
    rows = claims(sidecar)
    try:
        cert = sidecar["fold"]["binary64"]
        tail = [_fraction(c, "tail coefficient") for c in cert["tail_coefficients"]]
        ops = cert["tail_program"]
        c_lo, c_hi = (_fraction(q, "c range") for q in cert["c_range"])
        name = sidecar["name"]
    except (KeyError, TypeError) as exc:
        raise SidecarError(f"sidecar: missing field {exc}") from None
    body, t_r, t_x = program_lines(ops, tail, "f", {"v": ("v", "v"), "c": ("c", "c")})
    goals = []
    for row in rows[pieces] if pieces is not None else rows:
        vlo, vhi, elo, ehi, clo, chi = (_fraction(q, "fold claim") for q in row)
        goals.append(goal([("v", vlo, vhi), ("c", c_lo, c_hi)], t_r, t_x, (elo, ehi), (clo, chi)))
    about = [
        'The binary64 tail of a form = "fold" kernel, for each piece of v the',
        "generator's proof used: t as computed (every operation rounded to nearest",
        "binary64, an FMA once) minus the same operations done exactly lies in the",
        "generator's error interval, and the computed t in its range.",
    ]
    return gappa_claims.script("certify/gappa_fold.py", f"{name} tail", source, about, body, goals)


def main(argv: list[str] | None = None) -> int:
    return sidecar_cli(argv, "gappa_fold", __doc__.splitlines()[0], render_script)


if __name__ == "__main__":
    sys.exit(main())
