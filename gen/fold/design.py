"""The numbers and the binary64 program of a form = "fold" kernel.

The kernel (docs/error-model.md, "Form fold"; measured first in
research/fold_fast/) computes ccs exp(-x) 2^63 from the doubles x and ccs as

    e^-x ~= p(x) = 1 - x + x^2 k(x),   k(x) = a_2 + a_3 x + ... + a_d x^(d-2),

with ccs folded into the products instead of multiplied at the end.  With
z = 2 trunc(x 2^63) (Q0.64), C = trunc(ccs 2^63) (an integer of [0, 2^63])
and hi(a, b) = floor(a b / 2^64):

    A = hi(C, z) ~= C x,   B = hi(A, z) ~= C x^2,   zz = hi(z, z) ~= x^2 2^64,
    K_(s-1) = W_(s-1),
    K_j = W_j - hi(z, W_(j+1)) + hi(zz, K_(j+2))   (j = s-3, s-5, ... >= 2),
    K_2 = W_2 - hi(z, K_3)   (only when s is even: one Horner step last),
    R = C - A + hi(B, K_2) + sign(a_s) F ~= C p(x).

The signs of exp(-x)'s Taylor coefficients alternate and the fit keeps
them (checked), so with k_j(x) = a_j + a_(j+1) x + ...,
|k_j| = |a_j| - x |a_(j+1)| + x^2 |k_(j+2)| = |a_j| - x |k_(j+1)|: every
middle word is made of magnitudes, W_j = round(|a_j| 2^64) (Q0.64).  The
steps of two powers (Estrin's scheme on the words) keep the products off
each other's path, and none of them waits for the binary64 part: the
powers s..d (s: the config key float_tail) are F, ccs already folded in,
evaluated in binary64 with FMA from v = max(x 2^63, 2^40) and
c = max(ccs 2^63, 1) and rounded to an integer by CVTSD2SI, and F enters
the result last, by one addition or subtraction:

    F(v, c) = c v^s (c_0 + c_1 v + ... + c_m v^m) ~= C x^s |k_s(x)|,
    c_i = sign(a_s) RN(a_(s+i)) 2^(-63 (s + i)),

so that evaluating in v gives the bits evaluating in x would (the scaling
by powers of two is exact and no value leaves the normal range).  x below
2^-23 is read as 2^-23 and ccs below 2^-63 as 2^-63 (v >= 2^40, c >= 1:
no subnormal; the proof counts both differences, far below a unit).
(The previous version, measured in research/fold_fast/, subtracted the
binary64 part from the innermost word: two products more on the path from
the tail to the result; docs/bench.md has both.)

Everything here is deterministic: the fit is the generator's 50-digit Remez,
rounded by Python's correctly rounded conversions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from ..errors import GenError
from ..exact import mpf_to_fraction
from ..fit import remez
from ..floattail import Builder, Op

V_MIN = Fraction(2) ** 40                        # v = max(x 2^63, 2^40): x below 2^-23 read as 2^-23
C_MIN = Fraction(1)                              # c = max(ccs 2^63, 1): ccs below 2^-63 read as 2^-63
SCALE_V = 63                                     # v = x 2^63
WORD = Fraction(2) ** 64


@dataclass(frozen=True)
class Design:
    """One kernel's constants: the fitted a_2..a_d (exact rationals of the
    50-digit fit), the middle words W_2..W_(s-1), the tail's binary64
    coefficients c_0..c_m (in v) and its program F(v, c)."""

    degree: int
    first_tail: int                        # s: the first power evaluated in binary64
    fitted: tuple[Fraction, ...]           # a_2 .. a_d
    fit_error: Fraction                    # the Remez levelled error (informative; the proof bounds p)
    words: tuple[int, ...]                 # W_2 .. W_(s-1)
    tail: tuple[float, ...]                # c_0 .. c_m
    ops: tuple[Op, ...]                    # the tail's program (gen.floattail.Op), its last op t

    @property
    def tail_sign(self) -> int:
        """sign(a_s): F stands for C x^s |k_s(x)|, which the result gains
        with this sign."""
        return 1 if self.first_tail % 2 == 0 else -1

    def polynomial(self) -> tuple[Fraction, ...]:
        """The quantized polynomial the kernel evaluates, as exact rationals
        (coefficients of x^0..x^d): 1, -1, then sign(a_j) W_j / 2^64, then
        the tail's coefficients scaled back to x."""
        mid = [(1 if j % 2 == 0 else -1) * Fraction(w) / WORD for j, w in zip(range(2, self.first_tail), self.words)]
        tail = [self.tail_sign * Fraction(c) * Fraction(2) ** (SCALE_V * (self.first_tail + i))
                for i, c in enumerate(self.tail)]
        return (Fraction(1), Fraction(-1), *mid, *tail)


@dataclass(frozen=True)
class Step:
    """One step of the middle, from the innermost out: ``pair`` is
    K_j = W_j - hi(z, W_(j+1)) + hi(zz, K_(j+2)), ``horner`` is
    K_j = W_j - hi(z, K_(j+1))."""

    kind: str
    j: int


def middle_steps(first_tail: int) -> tuple[Step, ...]:
    """The steps after K_(s-1) = W_(s-1) - T, down to K_2."""
    out, j = [], first_tail - 3
    while j >= 2:
        out.append(Step("pair", j))
        j -= 2
    if j == 1:
        out.append(Step("horner", 2))
    return tuple(out)


def tail_program(count: int, first: int) -> tuple[Op, ...]:
    """F(v, c) = (c v^first) Q(v), Q(v) = c_0 + ... + c_(count-1) v^(count-1)
    by Estrin's scheme (pairs c_i + c_(i+1) v, then powers v^2, v^4, ...),
    each multiply-add one FMA (one rounding); c v^first is ready long before
    Q, so one product follows Q."""
    prog = Builder([Op("v", label="v"), Op("c", label="c")])
    put, power = prog.put, prog.power

    def coef(i: int) -> int:
        return put(Op("coef", index=i, label=f"c{i}"))

    terms = [put(Op("fma", (coef(i + 1), 0, coef(i)), label=f"q{i}_{i + 1}")) if i + 1 < count else coef(i)
             for i in range(0, count, 2)]
    width = 1
    while len(terms) > 1:
        width *= 2
        terms = [put(Op("fma", (terms[k + 1], power(width), terms[k]), label=f"q{width}_{k // 2}"))
                 if k + 1 < len(terms) else terms[k] for k in range(0, len(terms), 2)]
    cv = put(Op("mul", (1, power(first)), label=f"c*v^{first}"))
    put(Op("mul", (cv, terms[0]), label="F"))
    return tuple(prog.ops)


def fit(degree: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """a_2..a_d: the minimax fit of e^-x - 1 + x on [0, ln 2] in the powers
    2..d (absolute error, so 1 - x stays exact), 50 digits."""
    with mpmath.workdps(50):
        result = remez.remez(lambda v: mpmath.exp(-v) - 1 + v, mpmath.log(2), degree, False, 1e-12, 60,
                             "form fold", powers=list(range(2, degree + 1)))
        return tuple(mpf_to_fraction(c) for c in result.coeffs), mpf_to_fraction(result.error)


def make_design(degree: int, first_tail: int) -> Design:
    """Fit, check the signs the structure needs, quantize."""
    if not 3 <= first_tail <= degree:
        raise GenError(f"float_tail: {first_tail} must lie in [3, degree = {degree}] for form 'fold'")
    a, err = fit(degree)
    for j, c in enumerate(a, start=2):
        if c == 0 or (c > 0) != (j % 2 == 0):
            raise GenError(f"form 'fold': the fit's coefficient of x^{j} has the wrong sign for the "
                           "subtraction chain (exp(-x)'s Taylor signs alternate)")
    words = tuple(round(abs(c) * WORD) for c in a[:first_tail - 2])
    if any(not 0 < w < WORD for w in words):
        raise GenError("form 'fold': a middle word does not fit in 64 bits")
    sign = 1 if first_tail % 2 == 0 else -1
    tail = tuple(sign * float(c) * 2.0 ** (-SCALE_V * (first_tail + i))
                 for i, c in enumerate(a[first_tail - 2:]))
    return Design(degree, first_tail, a, err, words, tail, tail_program(len(tail), first_tail))
