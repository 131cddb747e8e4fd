"""An error bound for proto.h's _domain_bits, in units of 2^-63, against
the exact value ccs exp(-x) 2^63 of the double inputs: research-level (this
script, not the generator, states the kernel's arithmetic), assembled from

* A, the approximation: sup over T in [0, 1] of |p_j(T) - exp(-(j + T)/128)|
  per row, p_j with the coefficients exactly as proto.h reads them
  (rotated a3, a5 packed in a4's word, the bias included), by mpmath
  interval arithmetic on 256 pieces per row, exp's Taylor series to degree
  12 and its remainder bounded (gen/mcu/proof.py's approximation: the
  generator's form mcu, which now emits this design, proves the same term);
* L5..L1, the truncation loss of each Horner product: t times the computed
  y, minus what the kernel keeps of it (the partial products of the
  15-bit limbs it skips, the low bits its limbs leave out, the floors of
  its column shifts), each term non-negative and bounded by its limbs'
  maxima times its weight.  Each Horner step subtracts its product, so
  the error of y_k is L_k - t err(y_{k+1}): the bounds alternate;
* Lp, the same for the ccs product (R = y0 M 2^63 for ccs = M 2^-s);
* the final shift's floor (below 1), and the conversion of x (z =
  floor(x 2^64), or 1 for x < 2^-63: |x - z/2^64| < 2^-64, at most 1/2);
* ccs < 2^-63 (s clamped to 63, zero and subnormals included): the
  result and the exact value are both below 2, so the error is too.

It also checks that no 32-bit accumulator and no Horner word wraps (the
ranges of the exact Horner values widened by their error bounds), and,
with --check N, runs a bit-exact Python model of proto.h against the C
kernel (research/m3_small_table/drv.c on stdin) on N random inputs and
compares every step's actual loss with its bound.

Usage: python3 bound.py [--check N DRIVER]
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path


HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from gen.mcu.proof import approximation   # noqa: E402  (the generator's form mcu proves the same layout)
W15 = 2 ** 15 - 1
# t = T1 2^-15 + T2 2^-30 + T3 2^-45 + T4 2^-60, T4 = 8 b (12 bits of z)
# The largest top limbs the loss bounds assume (row_bound checks them): y3's and y2's whole high
# words, y1's and y0's high words >> 15.
Y3_TOP, Y2_TOP, Y1_TOP, Y0_TOP = 2 ** 15, 2 ** 16, 2 ** 15, 2 ** 15
T_PARTS = [(W15, F(1, 2 ** 15)), (W15, F(1, 2 ** 30)), (W15, F(1, 2 ** 45)), (2 ** 15 - 8, F(1, 2 ** 60))]


def rows() -> list[list[int]]:
    text = (HERE / "table.h").read_text()
    return [[int(w, 16) for w in re.findall(r"0x([0-9a-f]{8})u", line)]
            for line in text.splitlines() if line.strip().startswith("{0x")]


def coefficients(r: list[int]) -> list[F]:
    """a0..a5 as exact values, read as proto.h reads them."""
    w6 = r[6]
    return [F(r[1] << 32 | r[0], 2 ** 62), F(r[3] << 32 | r[2], 2 ** 69), F(r[5] << 32 | r[4], 2 ** 62),
            F((w6 & 0x7FFF) << 32 | w6, 2 ** 70), F(r[7], 2 ** 64), F(r[7] & 0x7FF, 2 ** 52)]


def skipped(y_parts: list[tuple[int, F]], kept: set[tuple[int, int]],
            x_parts: list[tuple[int, F]] = T_PARTS) -> F:
    """The largest sum of the partial products x_i y_k not kept, at the
    limbs' maxima (every term is non-negative, so the loss is at least 0).
    Parts are (largest value, weight)."""
    out = F(0)
    for i, (xm, xw) in enumerate(x_parts):
        for k, (ym, yw) in enumerate(y_parts):
            if (i, k) not in kept:
                out += xm * ym * xw * yw
    return out


def step_losses(a: list[F]) -> dict[str, F]:
    """The largest loss of each product, as absolute values, and the limbs'
    maxima the accumulator checks use; the limb layouts are proto.h's."""
    a5 = a[5] * 2 ** 52
    L = {}
    # y4 = w7 - floor(T1 a5 / 8), units 2^-64: t a5 2^-52 with only T1 kept.
    L["L5"] = skipped([(int(a5), F(1, 2 ** 52))], {(0, 0)}) + F(1, 2 ** 64)
    # y3: y4 = Y4h 2^16 + Y4l 2 + b0 (units 2^-64); c0 = T1 Y4h + floor((T1 Y4l + T2 Y4h) / 2^15), units 2^-63.
    L["L4"] = skipped([(2 ** 16 - 1, F(2 ** 16, 2 ** 64)), (W15, F(2, 2 ** 64)), (1, F(1, 2 ** 64))],
                      {(0, 0), (0, 1), (1, 0)}) + F(1, 2 ** 63)
    # y2: y3 = Ya 2^32 + Yb 2^17 + Yc 2^2 + d (units 2^-70, Ya the whole high word);
    # c2 at 2^-83 (floor / 2^15), c1 at 2^-68 (floor / 2^6 into 2^-62), c0 at 2^-53.
    L["L3"] = skipped([(Y3_TOP, F(2 ** 32, 2 ** 70)), (W15, F(2 ** 17, 2 ** 70)), (W15, F(4, 2 ** 70)), (3, F(1, 2 ** 70))],
                      {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)}) + F(1, 2 ** 68) + F(1, 2 ** 62)
    # y1: y2 = Ya 2^32 + Yb 2^17 + Yc 2^2 + d (units 2^-62); c2 at 2^-75 (floor / 2^15), c1 at 2^-60, c0 at 2^-45.
    L["L2"] = skipped([(Y2_TOP, F(2 ** 32, 2 ** 62)), (W15, F(2 ** 17, 2 ** 62)), (W15, F(4, 2 ** 62)), (3, F(1, 2 ** 62))],
                      {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)}) + F(1, 2 ** 60)
    # y0: y1 = Ya 2^47 + Yb 2^32 + Yc 2^17 + Yd 2^2 + d (units 2^-69); c3 at 2^-82 (floor / 2^15),
    # c2 at 2^-67 (floor / 2^5 into 2^-62), c1 at 2^-52, c0 at 2^-37.
    L["L1"] = skipped([(Y1_TOP, F(2 ** 47, 2 ** 69)), (W15, F(2 ** 32, 2 ** 69)), (W15, F(2 ** 17, 2 ** 69)),
                       (W15, F(4, 2 ** 69)), (3, F(1, 2 ** 69))],
                      {(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (3, 0)}) \
        + F(1, 2 ** 67) + F(1, 2 ** 62)
    return L


# The ccs product: y0 = P1 2^47 + P2 2^32 + P3 2^17 + P4 2^2 + d (units 2^-62), M = W1 2^38 + W2 2^23 +
# W3 2^8 + W4 2^-7 (units 2^-52, W1 in [2^14, 2^15), W4 = (8 mantissa bits) << 7); c3 at 2^-74 of y0 M
# (floor / 2^15 into c2), c2 at 2^-59, c1 at 2^-44, c0 at 2^-29; R = y0 M 2^63 exactly from c0..c2.
M_PARTS = [(2 ** 15 - 1, F(2 ** 38, 2 ** 52)), (W15, F(2 ** 23, 2 ** 52)), (W15, F(2 ** 8, 2 ** 52)),
           (255 << 7, F(1, 2 ** 59))]
Y0_PARTS = [(Y0_TOP, F(2 ** 47, 2 ** 62)), (W15, F(2 ** 32, 2 ** 62)), (W15, F(2 ** 17, 2 ** 62)),
            (W15, F(4, 2 ** 62)), (3, F(1, 2 ** 62))]
LP = skipped(Y0_PARTS, {(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (2, 0), (0, 3), (1, 2), (2, 1), (3, 0)},
             M_PARTS) + F(1, 2 ** 59)
# (0, k) is W1 times the k-th part of y0: c0 = W1 P1, c1 = W1 P2 + W2 P1, c2 = W1 P3 + W2 P2 + W3 P1,
# c3 = W1 P4 + W2 P3 + W3 P2 + W4 P1.


def row_bound(j: int, r: list[int]) -> tuple[F, F, list[str]]:
    """[lo, hi] of (result - exact) 2^-63 for inputs in row j with ccs >= 2^-63,
    and the range checks that failed (none, or the kernel may wrap)."""
    a = coefficients(r)
    L = step_losses(a)
    fails = []
    e4 = (F(0), L["L5"])
    e3 = (-e4[1], L["L4"])
    e2 = (-e3[1], L["L3"] - min(F(0), e3[0]))
    e1 = (-e2[1], L["L2"] - min(F(0), e2[0]))
    e0 = (-e1[1], L["L1"] - min(F(0), e1[0]))
    # (range of the computed value, its unit, the word's bits, the shift of its top limb, that limb's
    # largest value as step_losses and the accumulator sizes assume it)
    ranges = {"y4": (a[4] - a[5] + e4[0], a[4] + e4[1], 2 ** 64, 32, 16, 2 ** 16 - 1),
              "y3": (a[3] - a[4] + e3[0], a[3] + e3[1], 2 ** 70, 64, 32, Y3_TOP),
              "y2": (a[2] - a[3] + e2[0], a[2] + e2[1], 2 ** 62, 64, 32, Y2_TOP),
              "y1": (a[1] - a[2] + e1[0], a[1] + e1[1], 2 ** 69, 64, 47, Y1_TOP),
              "y0": (a[0] - a[1] + e0[0], a[0] + e0[1], 2 ** 62, 64, 47, Y0_TOP)}
    for name, (lo, hi, unit, bits, shift, top) in ranges.items():
        if lo < 0 or int(hi * unit) >> bits:
            fails.append(f"row {j}: {name} may wrap")
        if int(hi * unit) >> shift > top:
            fails.append(f"row {j}: {name}'s top limb may exceed {top}")
    alo, ahi = approximation(j, a)
    s63 = F(2) ** 63
    # ccs in (0, 1] times (E0 + A) 2^63, the conversion within 1/2, the floor of the shift in (-1, 0]
    hi = max(F(0), (e0[1] + ahi) * s63) + F(1, 2)
    lo = min(F(0), (e0[0] + alo) * s63) - F(1, 2) - 1 - LP * s63
    return lo, hi, fails


# The 32-bit accumulators, as (pairs of (t or M part, y part) indices, carry in = the previous
# accumulator's index in the list, shifted right by 15), with the y parts each step uses.
ACCUMULATORS = {
    "y3 from y4": ([(2 ** 16 - 1), W15], [[(0, 1), (1, 0)], [(0, 0)]], [None, 0]),
    "y2 from y3": ([Y3_TOP, W15, W15], [[(0, 2), (1, 1), (2, 0)], [(0, 1), (1, 0)], [(0, 0)]], [None, 0, None]),
    "y1 from y2": ([Y2_TOP, W15, W15], [[(0, 2), (1, 1), (2, 0)], [(0, 1), (1, 0)], [(0, 0)]], [None, 0, None]),
    "y0 from y1": ([Y1_TOP, W15, W15, W15], [[(0, 3), (1, 2), (2, 1), (3, 0)], [(0, 2), (1, 1), (2, 0)],
                                             [(0, 1), (1, 0)], [(0, 0)]], [None, 0, None, None]),
}


def accumulators_fit() -> list[str]:
    """Every 32-bit accumulator below 2^32 at its parts' maxima."""
    fails = []
    t_max = [m for m, _ in T_PARTS]
    cases = dict(ACCUMULATORS)
    cases["ccs product"] = ([m for m, _ in Y0_PARTS[:4]], [[(0, 3), (1, 2), (2, 1), (3, 0)], [(0, 2), (1, 1), (2, 0)],
                                                           [(0, 1), (1, 0)], [(0, 0)]], [None, 0, None, None])
    for name, (y_max, accs, carry) in cases.items():
        x_max = [m for m, _ in M_PARTS] if name == "ccs product" else t_max
        values: list[int] = []
        for pairs, c in zip(accs, carry):
            v = sum(x_max[i] * y_max[k] for i, k in pairs) + (values[c] >> 15 if c is not None else 0)
            values.append(v)
            if v >> 32:
                fails.append(f"{name}: an accumulator may reach {v} >= 2^32")
    return fails


M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def _shift_count(k: int, h: int) -> int:
    v = (k - (h << 1)) & M32
    v = v - (1 << 32) if v >> 31 else v
    return min(max(v >> 21, 0), 63)


def model(table: list[list[int]], xb: int, cb: int) -> tuple[int, int, dict[str, F]]:
    """proto.h's _domain_bits in Python integers (bit-exact, for inputs in its
    domain), with the row and each product's actual loss (t y - kept)."""
    z = (((xb & ((1 << 52) - 1)) | (1 << 52)) << 11) >> _shift_count(0x7FDFFFFF, xb >> 32)
    j, tb = z >> 57, z & ((1 << 57) - 1)
    t = F(tb, 2 ** 57)
    k = table[j]
    T1, T2, T3, T4 = (tb >> 42) & W15, (tb >> 27) & W15, (tb >> 12) & W15, (tb & 0xFFF) << 3
    got: dict[str, F] = {}
    a5 = k[7] & 0x7FF
    y4 = k[7] - ((T1 * a5) >> 3)
    got["L5"] = t * F(a5, 2 ** 52) - F((T1 * a5) >> 3, 2 ** 64)
    h, l4 = y4 >> 16, (y4 >> 1) & W15
    c1 = T1 * l4 + T2 * h
    c0 = T1 * h + (c1 >> 15)
    got["L4"] = t * F(y4, 2 ** 64) - F(c0, 2 ** 63)
    y3 = (((k[6] & 0x7FFF) << 32) | k[6]) - (c0 << 7)
    ya, yb, yc = y3 >> 32, (y3 >> 17) & W15, (y3 >> 2) & W15
    c2 = T1 * yc + T2 * yb + T3 * ya
    c1 = T1 * yb + T2 * ya + (c2 >> 15)
    c0 = T1 * ya
    sub = (c0 << 9) + (c1 >> 6)
    got["L3"] = t * F(y3, 2 ** 70) - F(sub, 2 ** 62)
    y2 = ((k[5] << 32) | k[4]) - sub
    ya, yb, yc = y2 >> 32, (y2 >> 17) & W15, (y2 >> 2) & W15
    c2 = T1 * yc + T2 * yb + T3 * ya
    c1 = T1 * yb + T2 * ya + (c2 >> 15)
    c0 = T1 * ya
    sub = (c0 << 24) + (c1 << 9)
    got["L2"] = t * F(y2, 2 ** 62) - F(sub, 2 ** 69)
    y1 = ((k[3] << 32) | k[2]) - sub
    ya, yb, yc, yd = y1 >> 47, (y1 >> 32) & W15, (y1 >> 17) & W15, (y1 >> 2) & W15
    c3 = T1 * yd + T2 * yc + T3 * yb + T4 * ya
    c2 = T1 * yc + T2 * yb + T3 * ya + (c3 >> 15)
    c1 = T1 * yb + T2 * ya
    c0 = T1 * ya
    sub = (c0 << 25) + (c1 << 10) + (c2 >> 5)
    got["L1"] = t * F(y1, 2 ** 69) - F(sub, 2 ** 62)
    y0 = ((k[1] << 32) | k[0]) - sub
    for name, v in (("y4", y4), ("y3", y3), ("y2", y2), ("y1", y1), ("y0", y0)):
        assert v >= 0 and v >> 64 == 0, name
    p = [y0 >> 47, (y0 >> 32) & W15, (y0 >> 17) & W15, (y0 >> 2) & W15]
    ch, cl = cb >> 32, cb & M32
    w = [((ch >> 6) & 0x3FFF) | 0x4000, ((ch & 0x3F) << 9) | (cl >> 23), (cl >> 8) & W15, (cl & 0xFF) << 7]
    c3 = w[0] * p[3] + w[1] * p[2] + w[2] * p[1] + w[3] * p[0]
    c2 = w[0] * p[2] + w[1] * p[1] + w[2] * p[0] + (c3 >> 15)
    c1 = w[0] * p[1] + w[1] * p[0]
    c0 = w[0] * p[0]
    r = (c0 << 34) + (c1 << 19) + (c2 << 4)
    m = F((w[0] << 38) + (w[1] << 23) + (w[2] << 8) + (cl & 0xFF), 2 ** 52)
    got["Lp"] = F(y0, 2 ** 62) * m - F(r, 2 ** 63)
    return (r >> _shift_count(0x7FFFFFFF, ch)) & M64, j, got


def check(n: int, driver: str) -> int:
    """The model against the C kernel on n random in-domain inputs, and
    every actual loss against its bound."""
    table = rows()
    bounds = [step_losses(coefficients(r)) | {"Lp": LP} for r in table]
    rng = random.Random(15)
    inputs = []
    for i in range(n):
        ex = 1022 - rng.randrange(70) if i % 3 else 1022 - rng.randrange(12)
        xb = min(ex << 52 | rng.getrandbits(52), 0x3FE62E42FEFA39EF)
        cb = (1022 - (rng.randrange(60) if i % 4 == 0 else 0)) << 52 | rng.getrandbits(52)
        inputs.append((xb, cb if i % 97 else 0x3FF0000000000000))
    text = "".join(f"{x:016x} {c:016x}\n" for x, c in inputs)
    outs = subprocess.run([driver], input=text, capture_output=True, text=True, check=True).stdout.split()
    worst = {name: F(0) for name in bounds[0]}
    for (xb, cb), out in zip(inputs, outs):
        r, j, got = model(table, xb, cb)
        if r != int(out, 16):
            print(f"model and C differ at x {xb:016x} ccs {cb:016x}")
            return 1
        for name, v in got.items():
            if not 0 <= v <= bounds[j][name]:
                print(f"{name} = {float(v * 2 ** 63):.4f} units outside its bound at x {xb:016x} ccs {cb:016x}")
                return 1
            worst[name] = max(worst[name], v / bounds[j][name])
    print(f"model == C on {n} inputs; largest loss / bound: "
          + ", ".join(f"{k} {float(v):.3f}" for k, v in worst.items()))
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "--check":
        return check(int(argv[2]), argv[3])
    if len(argv) != 1:
        print("usage: python3 bound.py [--check N DRIVER]", file=sys.stderr)
        return 2
    worst_lo, worst_hi, fails = F(0), F(0), accumulators_fit()
    for j, r in enumerate(rows()):
        lo, hi, f = row_bound(j, r)
        worst_lo, worst_hi = min(worst_lo, lo), max(worst_hi, hi)
        fails += f
    for f in fails:
        print(f)
    print(f"result - exact in [{float(worst_lo):.3f}, {float(worst_hi):.3f}] units of 2^-63 for ccs >= 2^-63 "
          f"(ccs product loss {float(LP * 2 ** 63):.3f}); below 2 for smaller ccs")
    bound = max(-worst_lo, worst_hi, F(2))
    print(f"BOUND {float(bound):.3f} units of 2^-63")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
