"""The numbers and the binary64 program of a form = "twin" kernel.

The kernel (docs/error-model.md, "Form twin") computes ccs exp(-x) 2^63 from the doubles x and ccs on two
paths that run side by side and meet once, in a 128-bit sum:

    e^-x ~= p(x) = 1 - x + x^2 k(x) + t(x),
    k(x) = a_2 + a_3 x + ... + a_6 x^4        (64-bit integers)
    t(x) = a_7 x^7 + ... + a_13 x^13          (binary64 with FMA)

Integer path, with t = floor(x 2^64) (exact from the bits of x: its
significand shifted right by 1022 - e), C = trunc(ccs 2^63) and
hi(a, b) = floor(a b / 2^64):

    K_4 = W_4 - hi(t, W_5) + hi(zz, W_6),   zz = hi(t, t),
    K_2 = W_2 - hi(t, W_3) + hi(zz, K_4)    (Estrin on Q0.65 words, W_j = round(|a_j| 2^65)),
    B_2 = floor(C t^2 / 2^126)              (C x^2 in units of u/4, u the result's unit),
    A   = floor(C x 2^64)                   (exact: C times x's significand, shifted),
    S   = C 2^64 - A + floor(B_2 K_2 / 8) + G 2^60,   result = floor(S / 2^64).

Binary64 path, with v = x lifted to at least 2^-23 and c = ccs lifted to
at least 2^-63 by an integer maximum on the high halves of their bit
patterns (VPMAXSD: no binary64 operation ever sees a subnormal, not even
the clamp; a lifted value keeps its low 32 bits, so it lies in
[2^-23, 2^-23 (1 + 2^-20)), resp. [2^-63, 2^-63 (1 + 2^-20))):

    g = RN(c v^7 Q(v) + corr),  Q(v) = q_0 + q_1 v + ... + q_6 v^6 (Estrin, one FMA per step),
    corr = RN(K + rc E(v)),     rc = ccs 2^63 - C (exact), E(v) = e_0 + e_1 v ~= 16 e^-v,
    q_i = RN(a_(7+i) 2^67), so that c v^7 Q(v) ~= 16 ccs 2^63 t(x): units of u/16;
    K = 1.5 2^52 + bias: g lies in [2^52, 2^53), where binary64's unit is 1,
    so the last FMA rounds the tail to a whole number of u/16 (one rounding)
    and G = g - 1.5 2^52 is read from g's bits.

Everything here is deterministic: the fit is the generator's 50-digit Remez
(the same as form fold's), rounded by Python's correctly rounded conversions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from ..errors import GenError
from ..exact import mpf_to_fraction
from ..fit import remez
from ..floattail import Builder, Op
from ..fold.design import fit

DEGREE = 13
FIRST_TAIL = 7                                   # powers 7..13 in binary64, 2..6 in integers
WORD_SCALE = 65                                  # W_j = round(|a_j| 2^65)
TAIL_SCALE = 4                                   # the binary64 part in units of u / 2^4
V_MIN = Fraction(1, 1 << 23)                     # v = x lifted to at least 2^-23
C_MIN = Fraction(1, 1 << 63)                     # c = ccs lifted to at least 2^-63
LIFT_SPREAD = Fraction(1, 1 << 20)               # a lifted value lies in [m, m (1 + 2^-20)), m = V_MIN or C_MIN
K_BASE = Fraction(3, 2) * Fraction(2) ** 52      # the rounding constant without the bias
WORD = Fraction(2) ** 64
C_MAX = Fraction(2) ** 63


@dataclass(frozen=True)
class Design:
    """One kernel's constants: the fitted a_2..a_13 (exact rationals), the
    Q0.65 words W_2..W_6, the binary64 coefficients q_0..q_6 of the tail and
    e_0, e_1 of E, the bias (units of u/16) and the binary64 program."""

    fitted: tuple[Fraction, ...]           # a_2 .. a_13
    fit_error: Fraction                    # the Remez levelled error (informative; the proof bounds p)
    words: tuple[int, ...]                 # W_2 .. W_6
    tail: tuple[float, ...]                # q_0 .. q_6 (signed)
    e: tuple[float, float]                 # e_0, e_1 of E(v) = 16 (e_0 + e_1 v) / 16
    e_error: Fraction                      # levelled error of the linear fit (informative)
    bias: int                              # added to K, units of u/16
    ops: tuple[Op, ...]                    # the binary64 program, its last op g

    @property
    def k(self) -> float:
        """The rounding constant K = 1.5 2^52 + bias (a binary64 value)."""
        return float(K_BASE + self.bias)

    def coefficients(self) -> list[float]:
        """The program's coefficients by index: q_0..q_6, e_0, e_1, K."""
        return [*self.tail, *self.e, self.k]

    def polynomial(self) -> tuple[Fraction, ...]:
        """The quantized polynomial the kernel evaluates, as exact rationals
        (coefficients of x^0..x^13): 1, -1, sign(a_j) W_j / 2^65, then the
        tail's q_i / 2^67."""
        mid = [(1 if j % 2 == 0 else -1) * Fraction(w) / Fraction(2) ** WORD_SCALE
               for j, w in zip(range(2, FIRST_TAIL), self.words)]
        tail = [Fraction(q) / Fraction(2) ** (63 + TAIL_SCALE) for q in self.tail]
        return (Fraction(1), Fraction(-1), *mid, *tail)

    def int_polynomial(self) -> tuple[Fraction, ...]:
        """k(x) = sum sign(a_j) W_j / 2^65 x^(j-2), j = 2..6: what K_2 stands for (times 2^65)."""
        return tuple((1 if j % 2 == 0 else -1) * Fraction(w) / Fraction(2) ** WORD_SCALE
                     for j, w in zip(range(2, FIRST_TAIL), self.words))

    def tail_polynomial(self) -> tuple[Fraction, ...]:
        """t(x) / x^7 = sum q_i / 2^67 x^i: what c v^7 Q(v) stands for, over 16 ccs 2^63."""
        return tuple(Fraction(q) / Fraction(2) ** (63 + TAIL_SCALE) for q in self.tail)


# Indices of the program's inputs and coefficients (gen.floattail.Op):
# coefficients 0..6 are q0..q6, then e0, e1 and K.
V, C, RC = 0, 1, 2
E0, E1, KC = 7, 8, 9


def program() -> tuple[Op, ...]:
    """The binary64 program in the order the kernel issues it (the critical
    Estrin steps first): inputs v, c and rc (extra input 0); the last op is g."""
    prog = Builder([Op("v", label="v"), Op("c", label="c"), Op("in", index=0, label="rc")])
    put = prog.put

    def coef(i: int, label: str) -> int:
        return put(Op("coef", index=i, label=label))

    def fma(a: int, b: int, c: int, label: str) -> int:
        return put(Op("fma", (a, b, c), label=label))

    def mul(a: int, b: int, label: str) -> int:
        return put(Op("mul", (a, b), label=label))

    p01 = fma(V, coef(1, "q1"), coef(0, "q0"), "p01 = q0 + q1 v")
    p23 = fma(V, coef(3, "q3"), coef(2, "q2"), "p23 = q2 + q3 v")
    p45 = fma(V, coef(5, "q5"), coef(4, "q4"), "p45 = q4 + q5 v")
    v2 = mul(V, V, "v^2")
    cv = mul(C, V, "c v")
    e = fma(V, coef(E1, "e1"), coef(E0, "e0"), "E = e0 + e1 v")
    corr = fma(RC, e, coef(KC, "K"), "corr = K + rc E")
    v4 = mul(v2, v2, "v^4")
    r0 = fma(p23, v2, p01, "r0 = p01 + p23 v^2")
    r1 = fma(v2, coef(6, "q6"), p45, "r1 = p45 + q6 v^2")
    cv3 = mul(cv, v2, "c v^3")
    q = fma(r1, v4, r0, "Q = r0 + r1 v^4")
    cv7 = mul(cv3, v4, "c v^7")
    fma(cv7, q, corr, "g = corr + c v^7 Q")
    return tuple(prog.ops)


def linear_exp() -> tuple[tuple[Fraction, Fraction], Fraction]:
    """e_0 + e_1 v: the linear minimax fit of e^-v on [0, ln 2], 50 digits."""
    with mpmath.workdps(50):
        result = remez.remez(lambda v: mpmath.exp(-v), mpmath.log(2), 1, False, 1e-12, 60,
                             "form twin (E)", powers=[0, 1])
        e0, e1 = (mpf_to_fraction(c) for c in result.coeffs)
        return (e0, e1), mpf_to_fraction(result.error)


def make_design(degree: int, first_tail: int, bias: int) -> Design:
    """Fit, check the signs the integer chain needs, quantize."""
    if degree != DEGREE or first_tail != FIRST_TAIL:
        raise GenError(f"form 'twin': its layout is degree = {DEGREE} with float_tail = {FIRST_TAIL} "
                       f"(got degree = {degree}, float_tail = {first_tail})")
    a, err = fit(degree)
    for j, c in enumerate(a, start=2):
        if c == 0 or (c > 0) != (j % 2 == 0):
            raise GenError(f"form 'twin': the fit's coefficient of x^{j} has the wrong sign for the "
                           "subtraction chain (exp(-x)'s Taylor signs alternate)")
    words = tuple(round(abs(c) * Fraction(2) ** WORD_SCALE) for c in a[:FIRST_TAIL - 2])
    if any(not 0 < w < WORD for w in words):
        raise GenError("form 'twin': a Q0.65 word does not fit in 64 bits")
    tail = tuple(float(c * Fraction(2) ** (63 + TAIL_SCALE)) for c in a[FIRST_TAIL - 2:])
    (e0, e1), e_err = linear_exp()
    e = (float(e0 * 2 ** TAIL_SCALE), float(e1 * 2 ** TAIL_SCALE))
    if not -(1 << 20) < bias < 1 << 20:
        raise GenError("form 'twin': the bias must be a small whole number of u/16")
    return Design(a, err, words, tail, e, e_err, bias, program())

