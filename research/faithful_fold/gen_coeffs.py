"""Writes coeffs.h for the faithful folded prototype (README.md).

The polynomial: e^-x ~= 1 - x + sum_{j=2..13} a_j x^j on [0, ln 2], the
generator's own 50-digit Remez (gen/fit/remez.py) on the powers 2..13, so
1 - x stays exact (as research/fold_fast and form fold).  What proto.h
needs from it:

* the middle words W_j = round(|a_j| 2^65), j = 2..6 (one scale for the
  whole Estrin chain: K_2 = W_2 - hi(z, W_3) + hi(zz, K_4), K_4 = W_4 -
  hi(z, W_5) + hi(zz, W_6), all at 2^65; W_2 < 2^64 because a_2 < 1/2);
* the binary64 coefficients of the tail Q(v) = sum_i a_(7+i) 2^8 2^(-63 (7+i)) v^i
  (signs kept), read at v = x 2^63, so that c v^7 Q(v) = 2^8 c x^7 (a_7 + a_8 x + ...)
  with c = ccs 2^63: the tail in units of 2^-8 of the result's unit;
* E_j: 2^8 times the minimax quadratic of e^-x on [0, ln 2] (its error,
  about 0.0012, multiplies only the conversion remainder of ccs, below 1).

It prints the fits' levelled errors on stderr.  Usage: python3 gen_coeffs.py > coeffs.h
"""
from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gen.exact import mpf_to_fraction        # noqa: E402
from gen.fit import remez                    # noqa: E402

DEGREE = 13
FIRST_TAIL = 7          # powers 2..6 in fixed point, 7..13 in binary64
WORD_SCALE = 65
TAIL_SCALE = 8          # the tail and the remainders in units of 2^-8 of the result's unit


def fit(f, degree: int, powers: list[int]) -> tuple[list[Fraction], float]:
    with mpmath.workdps(50):
        result = remez.remez(f, mpmath.log(2), degree, False, 1e-12, 60, "faithful fold", powers=powers)
        return [mpf_to_fraction(c) for c in result.coeffs], float(result.error)


def main() -> int:
    a, err = fit(lambda v: mpmath.exp(-v) - 1 + v, DEGREE, list(range(2, DEGREE + 1)))
    if any((c > 0) != (j % 2 == 0) for j, c in enumerate(a, start=2)):
        print("gen_coeffs: the fit lost the alternating signs of exp(-x)'s Taylor terms", file=sys.stderr)
        return 1
    e, eerr = fit(lambda v: mpmath.exp(-v), 2, [0, 1, 2])
    mid, tail = a[:FIRST_TAIL - 2], a[FIRST_TAIL - 2:]
    words = [round(abs(c) * 2 ** WORD_SCALE) for c in mid]
    if max(words) >= 2 ** 64:
        print("gen_coeffs: a middle word does not fit 64 bits", file=sys.stderr)
        return 1
    scaled = [float(c) * 2.0 ** (TAIL_SCALE - 63 * (FIRST_TAIL + i)) for i, c in enumerate(tail)]
    print(f"gen_coeffs: degree {DEGREE}, levelled error {err * 2 ** 63:.4f} units of 2^-63; "
          f"e^-x quadratic error {eerr:.5f}", file=sys.stderr)
    out = ["/* SPDX-License-Identifier: MIT */",
           "/* coeffs.h -- DO NOT EDIT: written by `python3 gen_coeffs.py > coeffs.h` (research/faithful_fold). */",
           f"/* Fit: e^-x ~= 1 - x + sum a_j x^j on [0, ln 2], powers 2..{DEGREE}, levelled error "
           f"{err * 2 ** 63:.4f} units of 2^-63; e^-x ~= quadratic E, error {eerr:.5f}. */"]
    out += [f"#define FF_W{j} UINT64_C(0x{w:016x})" for j, w in enumerate(words, start=2)]
    out.append(f"static const double FF_Q[{len(scaled)}] = {{")
    out += [f"    {v.hex()}," for v in scaled]
    out.append("};")
    out.append("static const double FF_E[3] = {" + ", ".join(
        (float(c) * 2.0 ** TAIL_SCALE).hex() for c in e) + "};")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
