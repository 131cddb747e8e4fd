"""Writes coeffs.h for the folded fast prototype (README.md).

The polynomial: e^-x ~= 1 - x + x^2 k(x) on [0, ln 2], with
k(x) = a_2 + a_3 x + ... + a_d x^(d-2) the minimax fit of (e^-x - 1 + x)
weighted by nothing (absolute error of the whole polynomial), powers 2..d
only, so 1 - x stays exact: the generator's own Remez (gen/fit/remez.py,
50 digits), the same fit as form "head" with exact_head = 2.

What the kernel needs from it (proto.h):
* the middle words W2 = round(a_2 2^64), W3 = round(-a_3 2^64),
  W4 = round(a_4 2^64) (Q0.64, the signs of exp(-x)'s Taylor terms, which
  the fit keeps: checked below);
* the binary64 coefficients of T(v) = v P(v), the innermost Horner term
  2^64 x (-a_5 - a_6 x - ... - a_d x^(d-5)) read at v = x 2^63:
  P's coefficient of v^i is -a_(5+i) 2^64 2^(-63 (i + 1)), a power-of-two
  scaling of the binary64 rounding of -a_(5+i), so evaluating in v gives the
  bits evaluating in x would (no intermediate leaves the normal range).

It prints the fit's levelled error (units of 2^-63, the approximation part
of the error budget) on stderr.  Usage: python3 gen_coeffs.py [DEGREE] > coeffs.h
"""
from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gen.exact import mpf_to_fraction        # noqa: E402
from gen.fit import remez                    # noqa: E402

MIDDLE = 3          # powers 2, 3, 4 in fixed point; 5..d in binary64


def fit(degree: int) -> tuple[list[Fraction], float]:
    """a_2..a_d (exact rationals of the 50-digit fit) and its levelled error."""
    with mpmath.workdps(50):
        b = mpmath.log(2)
        result = remez.remez(lambda v: mpmath.exp(-v) - 1 + v, b, degree, False, 1e-12, 60,
                             "fold fast", powers=list(range(2, degree + 1)))
        return [mpf_to_fraction(c) for c in result.coeffs], float(result.error)


def main() -> int:
    degree = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    a, err = fit(degree)
    mid, tail = a[:MIDDLE], a[MIDDLE:]
    signs = [1, -1, 1] + [-1 if i % 2 == 0 else 1 for i in range(len(tail))]
    if any((c > 0) != (s > 0) for c, s in zip(a, signs)):
        print("gen_coeffs: the fit lost the alternating signs of exp(-x)'s Taylor terms", file=sys.stderr)
        return 1
    words = [round(abs(c) * 2 ** 64) for c in mid]
    scaled = [float(-c) * 2.0 ** 64 * 2.0 ** (-63 * (i + 1)) for i, c in enumerate(tail)]
    print(f"gen_coeffs: degree {degree}, levelled error {err * 2 ** 63:.4f} units of 2^-63", file=sys.stderr)
    out = ["/* SPDX-License-Identifier: MIT */", "/* coeffs.h -- DO NOT EDIT: written by `python3 gen_coeffs.py "
           f"{degree} > coeffs.h` (research/fold_fast). */",
           f"/* Fit: e^-x ~= 1 - x + x^2 k(x) on [0, ln 2], powers 2..{degree}, levelled error "
           f"{err * 2 ** 63:.4f} units of 2^-63. */",
           "#define FOLD_DEGREE " + str(degree)]
    out += [f"#define FOLD_W{i + 2} UINT64_C(0x{w:016x})" for i, w in enumerate(words)]
    out.append("static const double FOLD_P[" + str(len(scaled)) + "] = {")
    out += [f"    {v.hex()}," for v in scaled]
    out.append("};")
    out.append(f"#define FOLD_TAIL_TERMS {len(scaled)}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
