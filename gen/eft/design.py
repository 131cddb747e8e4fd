"""The numbers and the operation list of a form = "eft" kernel.

The kernel computes ccs exp(-x) 2^63 in binary64 with error-free
transforms (docs/error-model.md, "Form eft"; the design was measured first
in research/fp_batch/):

* j = round(N x) and the exact reduced argument t = x - j/N, |t| <= 1/(2N);
* exp(-j/N) as a double-double Eh + El from a table selected in registers;
* the large part ccs 2^63 Eh e^-t (the table holds 2^63 Eh and 2^63 El, so
  ccs times an entry is ccs 2^63 times it, exactly as one product) summed in
  the binade [2^64, 2^65), where every rounding error is recovered by one
  more FMA;
* the small part (those errors, ccs 2^63 El and the polynomial remainder) summed
  and rounded once to an integer.

Everything here is exact or deterministic: the table and the polynomial
come from mpmath at 200 bits and are rounded to binary64 by Python's
correctly rounded conversions, so a render is byte-identical on every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mpmath import mp, mpf

from ..exact import double_bits as bits
from ..exact import mpf_to_fraction

# N: segments per unit of x (width 1/N, round to nearest).  16 is what the
# templates render: the AVX-512 select is one VPERMT2PD over 16 entries.
SEGMENTS = 16
# x < X_DOMAIN_END covers [0, ln 2] and the 2e-15 overshoot of Falcon's
# range reduction; round(16 x) <= 11 there, so the table has 12 live rows.
X_DOMAIN_END = Fraction(23, 32)
ROWS = 12
C64 = Fraction(2) ** 64                 # the big part's offset: s1, s2, s3 lie in [2^64, 2^65)
MAGIC52 = Fraction(3, 2) * 2 ** 52       # RN(v + MAGIC52) - MAGIC52 = round(v) for |v| < 2^51
X_FLUSH = Fraction(1, 2 ** 80)           # x below this counts as 0 (no subnormal reaches an FPU)
C_FLUSH = Fraction(1, 2 ** 64)           # ccs below this gives W = 0


def to_double(v: Fraction) -> float:
    """v rounded to the nearest binary64 (ties to even): Fraction.__float__
    is correctly rounded."""
    return float(v)


@dataclass(frozen=True)
class Design:
    """The constants of one kernel: table rows j = 0..15 of exp(-j/N) as
    (Eh, El), and the coefficients p_0..p_m of the polynomial p(t) ~=
    r(t) = (e^-t - 1 + t - t^2/2) / t^3, all binary64."""

    eh: tuple[float, ...]
    el: tuple[float, ...]
    poly: tuple[float, ...]

    @property
    def eh63(self) -> tuple[float, ...]:
        """2^63 Eh, the rows the kernel reads (exact: a power-of-two scaling)."""
        return tuple(v * 2.0 ** 63 for v in self.eh)

    @property
    def el63(self) -> tuple[float, ...]:
        """2^63 El (exact; every El is at least 2^-70 or 0, so no underflow)."""
        return tuple(v * 2.0 ** 63 for v in self.el)

    @property
    def xor_rows(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The AVX2 select's rows of Eh and of El as bit patterns: A = rows
        0..3, A ^ B, B ^ C (B = 4..7, C = 8..11), so that
        E = P(A) ^ (P(A^B) & [j >= 4]) ^ (P(B^C) & [j >= 8])."""
        def rows(tab: tuple[float, ...]) -> tuple[int, ...]:
            b = [bits(v) for v in tab[:ROWS]]
            return tuple(b[0:4] + [b[i] ^ b[i + 4] for i in range(4)] + [b[i + 4] ^ b[i + 8] for i in range(4)])
        return rows(self.eh63), rows(self.el63)


def r_taylor(k: int) -> Fraction:
    """The coefficient of t^k in r(t) = (e^-t - 1 + t - t^2/2) / t^3."""
    fact = 1
    for i in range(2, k + 4):
        fact *= i
    return Fraction((-1) ** (k + 3), fact)


def _r(t: mpf) -> mpf:
    """r(t) from its Taylor series (no cancellation), |t| <= 1/32."""
    s, k = mpf(0), 0
    while True:
        term = mpf(r_taylor(k).numerator) / r_taylor(k).denominator * t ** k
        s += term
        if k > 6 and abs(term) < mpf(2) ** -190:
            return s
        k += 1


def make_design(poly_degree: int) -> Design:
    """The table and a polynomial of degree poly_degree for r on
    |t| <= 1/(2N), interpolating r at Chebyshev nodes in 200-bit arithmetic
    (near-minimax; the proof bounds whatever comes out)."""
    with mp.workprec(200):
        eh, el = [], []
        for j in range(16):
            e = mp.exp(-mpf(j) / SEGMENTS)
            h = to_double(mpf_to_fraction(e))
            eh.append(h)
            el.append(to_double(mpf_to_fraction(e) - Fraction(h)))
        half = mpf(1) / (2 * SEGMENTS)
        n = poly_degree + 1
        nodes = [half * mp.cos(mp.pi * (2 * i + 1) / (2 * n)) for i in range(n)]
        a = mp.matrix(n, n)
        b = mp.matrix(n, 1)
        for i, t in enumerate(nodes):
            for k in range(n):
                a[i, k] = t ** k
            b[i] = _r(t)
        c = mp.lu_solve(a, b)
        poly = tuple(to_double(mpf_to_fraction(c[k])) for k in range(n))
    return Design(tuple(eh), tuple(el), poly)


# ---------------------------------------------------------------------------
# The operation list.  Each binary64 operation rounds once to nearest even:
#   fma(a, b, c) = RN(a b + c), fnma(a, b, c) = RN(c - a b), fms(a, b, c) = RN(a b - c),
#   mul, add, sub as usual.  Operands are names of earlier results, of the
#   inputs (x, ccs, and the table entries Eh = 2^63 Eh[j], El = 2^63 El[j]) or of constants (CONSTANTS, p0..pm).
# Every rendering (scalar, AVX-512, AVX2) walks this list in this order,
# which is why their results are the same bits.

@dataclass(frozen=True)
class Op:
    dest: str
    kind: str                  # fma, fnma, fms, mul, add, sub
    args: tuple[str, ...]
    why: str                   # the comment the annotated header carries


CONSTANTS: dict[str, Fraction] = {
    "C16": Fraction(SEGMENTS), "INV16": Fraction(1, SEGMENTS), "MAGIC": MAGIC52, "C64": C64,
    "HALF": Fraction(1, 2), "ONE": Fraction(1),
}

INDEX_OPS: tuple[Op, ...] = (
    Op("m", "fma", ("x", "C16", "MAGIC"), "m = 1.5 2^52 + round(16 x): the low 4 bits of m are j"),
    Op("jd", "sub", ("m", "MAGIC"), "jd = j, exact"),
    Op("t", "fnma", ("jd", "INV16", "x"), "t = x - j/16, exact (Sterbenz for j >= 1, t = x for j = 0)"),
)


def main_ops(poly_degree: int) -> tuple[Op, ...]:
    """The operations after the table select, for a polynomial p of degree
    poly_degree (coefficients p0..pm)."""
    m = poly_degree
    horner = [Op(f"r{m - 1}", "fma", (f"p{m}", "t", f"p{m - 1}"), "Horner step of p(t)")]
    horner += [Op(f"r{k}", "fma", (f"r{k + 1}", "t", f"p{k}"), "Horner step of p(t)") for k in range(m - 2, -1, -1)]
    return (
        Op("s1", "fma", ("ccs", "Eh", "C64"), "s1 = RN(2^64 + ccs 2^63 Eh), in [2^64, 2^65)"),
        Op("z1", "sub", ("s1", "C64"), "z1 = s1 - 2^64, exact"),
        Op("e1", "fms", ("ccs", "Eh", "z1"), "e1 = RN(ccs 2^63 Eh - z1): the rounding error of s1, |e1| <= 2^11"),
        Op("s2", "fnma", ("z1", "t", "s1"), "s2 = RN(s1 - z1 t)"),
        Op("y", "sub", ("s1", "s2"), "y = s1 - s2, exact"),
        Op("e2", "fnma", ("z1", "t", "y"), "e2 = RN(y - z1 t): the rounding error of s2"),
        Op("th", "mul", ("HALF", "t"), "t/2, exact"),
        Op("s3", "fma", ("y", "th", "s2"), "s3 = RN(s2 + y t/2)"),
        Op("d3", "sub", ("s2", "s3"), "s2 - s3, exact"),
        Op("e3", "fma", ("y", "th", "d3"), "e3 = RN(s2 - s3 + y t/2): the rounding error of s3"),
        *horner,
        Op("tr", "mul", ("t", "r0"), "t p(t)"),
        Op("e2p", "add", ("tr", "HALF"), "~ (e^-t - 1 + t)/t^2 = 1/2 + t r(t)"),
        Op("g", "fnma", ("t", "e2p", "ONE"), "~ 1 - t (e^-t - 1 + t)/t^2"),
        Op("em", "fnma", ("t", "g", "ONE"), "~ e^-t"),
        Op("L", "fma", ("ccs", "El", "e1"), "ccs 2^63 El + e1"),
        Op("sm1", "fma", ("e2", "g", "e3"), "small part: e2 g + e3"),
        Op("sm2", "fma", ("L", "em", "sm1"), "... + L e^-t"),
        Op("yt", "mul", ("y", "t"), "y t"),
        Op("sm3", "fma", ("yt", "tr", "sm2"), "... + (y t)(t p(t)): the small part, |small| < 2^46"),
    )


def exact(kind: str, a: Fraction, b: Fraction, c: Fraction = Fraction(0)) -> Fraction:
    """The exact value an operation rounds."""
    if kind == "fma":
        return a * b + c
    if kind == "fnma":
        return c - a * b
    if kind == "fms":
        return a * b - c
    if kind == "mul":
        return a * b
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    raise ValueError(kind)


def constants(d: Design) -> dict[str, Fraction]:
    """Every named constant of the operation list, the polynomial's included."""
    return CONSTANTS | {f"p{k}": Fraction(v) for k, v in enumerate(d.poly)}
