#!/usr/bin/env python3
"""Term-by-term error budget of the prototype (a proof SKETCH, see PROOF.md).

Rigorous parts: the approximation error of the r3 polynomial (interval
arithmetic on 8192 subintervals, Taylor tail bounded), the table error
|exp(-j/16) - Eh - El|.  The rounding terms use the standard model
|RN(v) - v| <= u |v| (u = 2^-53) with the magnitude bounds stated in proto.h
(which acc.c checks on every input); they are written out here, not derived by
a tool: a generator proof would compute them the same way from the operation
list.  Reads the coefficients from coeffs.h.
"""
import re
from mpmath import mp, mpf, iv, exp, log

mp.prec = 200
iv.prec = 200
U = mpf(2) ** -53
H = mpf(1) / 32
TWO63 = mpf(2) ** 63


def read_coeffs() -> tuple[list[mpf], list[mpf], list[mpf]]:
    text = open("coeffs.h").read()

    def arr(name: str) -> list[mpf]:
        body = re.search(name + r"\[[^\]]*\] = \{([^}]*)\}", text).group(1)
        return [mpf(float.fromhex(v.strip())) for v in body.split(",")]
    return arr("R3C"), arr("TAB_EH"), arr("TAB_EL")


def r3_taylor(k: int) -> mpf:
    """Coefficient of t^k in (e^-t - 1 + t - t^2/2)/t^3."""
    return mpf(-1) ** (k + 3) / mp.factorial(k + 3)


def approx_bound(p: list[mpf], nsub: int = 8192) -> mpf:
    """Rigorous sup over |t| <= 1/32 of (2^63 |t|^3 + 2^11 t^2) |r3(t) - p(t)|,
    the weight bounding |y t t| since y = z1 t + e2*, z1 <= 2^63, |e2*| <= 2^11."""
    K = 14
    d = [r3_taylor(k) - (p[k] if k < len(p) else 0) for k in range(K + 1)]
    tail = H ** (K + 1) / mp.factorial(K + 4) / (1 - H)   # |sum_{k>K} a_k t^k|
    worst = mpf(0)
    for i in range(nsub):
        a = -H + 2 * H * i / nsub
        b = -H + 2 * H * (i + 1) / nsub
        t = iv.mpf([a, b])
        q = iv.mpf(0)
        for k in range(K, -1, -1):
            q = q * t + iv.mpf(d[k])
        q = abs(q) + iv.mpf([0, tail])
        at = abs(t)
        w = iv.mpf(TWO63) * at * at * at + iv.mpf(2048) * at * at
        v = (w * q).b
        worst = max(worst, mpf(v))
    return worst


def horner_err(p: list[mpf]) -> tuple[mpf, mpf]:
    """(max |r|, bound on |fl-Horner(r) - p(t)|): u * sum_k max|v_k| h^k."""
    vmax = []
    v_lo = v_hi = p[-1]
    # crude but safe: |v_k| <= |p_k| + h |v_{k+1}|max
    m = abs(p[-1])
    ms = [m]
    for k in range(len(p) - 2, -1, -1):
        m = abs(p[k]) + H * m
        ms.append(m)
    ms.reverse()                     # ms[k] bounds |v_k|, v_0 = r
    err = sum(U * ms[k] * H ** k for k in range(len(p) - 1))
    return ms[0], err


def main() -> None:
    p, eh, el = read_coeffs()
    rmax, herr = horner_err(p)
    app = approx_bound(p)
    tab = max(abs(exp(-mpf(j) / 16) - eh[j] - el[j]) for j in range(12))
    ymax_t = TWO63 * H ** 3 + 2 ** 11 * H * H       # bound of |y t| |t|
    rows = []
    rows.append(("final rint of the small sum", mpf(1) / 2))
    rows.append(("r3 approximation, (2^63|t|^3 + 2^11 t^2)|r3 - p| (interval, rigorous)", app))
    rows.append(("Horner rounding of r, |y t t| * u*sum|v_k|h^k", ymax_t * herr))
    rows.append(("RN(y t), RN(t r) and the fma: |y t t| |r| (2u + u^2)", ymax_t * rmax * (2 * U + U * U)))
    small_max = ymax_t * rmax * (1 + 3 * U) + 2 ** 11 * 1.1 + 2 ** 9 * 1.1 + 2 ** 11 * 1.05 + 2 ** 12
    rows.append(("last fma of the small sum: u |small|", U * small_max))
    rows.append(("two inner fmas of the small sum: u (2^13 + 2^14)", U * (2 ** 13 + 2 ** 14)))
    rows.append(("e1, e2, e3 rounded (<= u 2^11 each), times |em|,|g| <= 1.04", U * (2 ** 11 * 1.04 * 2 + 2 ** 11)))
    rows.append(("L = RN(W El + e1): u (2^11 + 2^9) |em|", U * (2 ** 11 + 2 ** 9) * 1.04))
    rows.append(("em = RN(1 - t g), g = RN(1 - t e2p): |L| (1.1 u) + |e2| (1.1 u)", (2 ** 11 + 2 ** 9) * 1.1 * U + 2 ** 11 * 1.1 * U))
    rows.append(("table |e^-j/16 - Eh - El| * 2^63 * 1.04", tab * TWO63 * 1.04))
    rows.append(("flush x < 2^-80 to 0: 2^63 (1 - e^-x) <= 2^-17", mpf(2) ** -17))
    total = sum(v for _, v in rows)
    print("Error budget, units of 2^-63 (|t| <= 1/32, W <= 2^63, j <= 11):")
    for name, v in rows:
        print(f"  {float(v):12.6g}  (2^{float(log(v, 2)):7.2f})  {name}")
    print(f"  {float(total):12.6g}  TOTAL bound on |result - ccs e^-x 2^63|  (faithful iff < 1)")
    print(f"  max |r| = {float(rmax):.6f}, Horner bound {float(herr / U):.4f} u, |y t t| <= 2^{float(log(ymax_t, 2)):.3f}")
    print("  flush ccs < 2^-64 -> 0: error = ccs e^-x 2^63 < 0.5 (separate case)")


if __name__ == "__main__":
    main()
