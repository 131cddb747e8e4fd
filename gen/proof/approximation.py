"""The approximation bound: proven sup |p - f| of a quantized polynomial on
one segment (Taylor models).  Input: the target function's tree, the exact
rational coefficients, the segment; output: an :class:`ApproxBound`.  The
method is written out in docs/error-model.md; in short:

On a segment, with v = m + u (m its centre, |u| <= rho),
f(x(v)) = sum_{k<=K} F_k u^k + F_{K+1}(xi) u^{K+1} (Taylor with Lagrange
remainder).  The F_k are enclosed by automatic differentiation on truncated
power series in mpmath's ``iv`` interval arithmetic (outward rounding), at
the centre for k <= K and over the whole segment for the remainder term.
The quantized polynomial's coefficients are exact rationals, shifted to the
centre exactly.  The difference D(u) = p(m + u) - sum F_k u^k is a
polynomial with tiny interval coefficients, and sup |D| on [-rho, rho] is
bounded above and below by branch and bound (:func:`_upper`).

The evaluation errors are carried node by node in :mod:`gen.proof.evaluation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Sequence

import mpmath

from .. import expr
from ..errors import GenError
from ..exact import fraction_to_interval, interval_to_fractions

iv = mpmath.iv
IV_DPS = 60
REL_TOL = Fraction(1, 2000)


# --- Truncated power series with interval coefficients ----------------------

Series = list  # of iv intervals, coefficient k multiplies u^k


def _const(value: Any, n: int) -> Series:
    return [value] + [iv.mpf(0)] * (n - 1)


def _mul(a: Series, b: Series) -> Series:
    n = len(a)
    return [sum((a[i] * b[k - i] for i in range(k + 1)), iv.mpf(0)) for k in range(n)]


def _div(a: Series, b: Series) -> Series:
    c: Series = []
    for k in range(len(a)):
        acc = a[k] - sum((b[i] * c[k - i] for i in range(1, k + 1)), iv.mpf(0))
        c.append(acc / b[0])
    return c


def _exp(a: Series) -> Series:
    b = [iv.exp(a[0])]
    for k in range(1, len(a)):
        b.append(sum((i * a[i] * b[k - i] for i in range(1, k + 1)), iv.mpf(0)) / k)
    return b


def _log(a: Series) -> Series:
    b = [iv.log(a[0])]
    for k in range(1, len(a)):
        acc = a[k] - sum((i * b[i] * a[k - i] for i in range(1, k)), iv.mpf(0)) / k
        b.append(acc / a[0])
    return b


def _sqrt(a: Series) -> Series:
    b = [iv.sqrt(a[0])]
    for k in range(1, len(a)):
        acc = a[k] - sum((b[i] * b[k - i] for i in range(1, k)), iv.mpf(0))
        b.append(acc / (2 * b[0]))
    return b


def _sincos(a: Series) -> tuple[Series, Series]:
    s, c = [iv.sin(a[0])], [iv.cos(a[0])]
    for k in range(1, len(a)):
        s.append(sum((i * a[i] * c[k - i] for i in range(1, k + 1)), iv.mpf(0)) / k)
        c.append(-sum((i * a[i] * s[k - i] for i in range(1, k + 1)), iv.mpf(0)) / k)
    return s, c


def taylor(node: expr.Node, x: Series) -> Series:
    """Taylor coefficients of f(x(u)) at u = 0, given those of x(u)."""
    n = len(x)
    if isinstance(node, expr.Var):
        return x
    if isinstance(node, (expr.Num, expr.Const)):
        return _const(expr.evaluate(node, None, iv), n)
    if isinstance(node, expr.Neg):
        return [-c for c in taylor(node.arg, x)]
    if isinstance(node, expr.BinOp):
        a, b = taylor(node.left, x), taylor(node.right, x)
        if node.op == "+":
            return [p + q for p, q in zip(a, b)]
        if node.op == "-":
            return [p - q for p, q in zip(a, b)]
        return _mul(a, b) if node.op == "*" else _div(a, b)
    if isinstance(node, expr.Pow):
        result = _const(iv.mpf(1), n)
        base = taylor(node.base, x)
        for _ in range(node.exponent):
            result = _mul(result, base)
        return result
    if isinstance(node, expr.Call):
        a = taylor(node.arg, x)
        if node.func == "exp":
            return _exp(a)
        if node.func == "expm1":
            b = _exp(a)
            return [iv.expm1(a[0])] + b[1:]
        if node.func == "log":
            return _log(a)
        if node.func == "log1p":
            shifted = [a[0] + 1] + a[1:]
            return [iv.log1p(a[0])] + _log(shifted)[1:]
        if node.func == "sqrt":
            return _sqrt(a)
        s, c = _sincos(a)
        return s if node.func == "sin" else c
    raise TypeError(node)


# --- Polynomials with interval coefficients ---------------------------------

def _horner(coeffs: Sequence[Any], u: Any) -> Any:
    acc = iv.mpf(0)
    for c in reversed(coeffs):
        acc = acc * u + c
    return acc


def _derivative(coeffs: Sequence[Any]) -> list[Any]:
    return [k * coeffs[k] for k in range(1, len(coeffs))] or [iv.mpf(0)]


def _abs_hi(value: Any) -> Fraction:
    lo, hi = interval_to_fractions(value)
    return max(abs(lo), abs(hi))


def _upper(coeffs: Sequence[Any], rho: Fraction) -> Fraction:
    """Proven upper bound of max D(u) over |u| <= rho (branch and bound).

    On a piece [c - h, c + h], D <= D(c) + |D'(c)| h + sup|D''| h^2 / 2 (Taylor
    at c with the Lagrange form of the second-order remainder); D(c) itself is
    a lower bound of the maximum.  Pieces whose upper bound exceeds the best
    lower bound by more than REL_TOL of its size are split.
    """
    d1 = _derivative(coeffs)
    d2 = _derivative(d1)
    n0 = 2 * len(coeffs)
    pieces = [(-rho + rho * (2 * k + 1) / n0, rho / n0) for k in range(n0)]
    lower: Fraction | None = None
    ceiling = Fraction(0)  # the largest upper bound of any piece dropped so far
    best = Fraction(0)
    for _ in range(48):
        scored = []
        for c, h in pieces:
            ci, hi_ = fraction_to_interval(c), fraction_to_interval(h)
            at_lo, at_hi = interval_to_fractions(_horner(coeffs, ci))
            span = ci + hi_ * iv.mpf([-1, 1])
            upper = at_hi + _abs_hi(_horner(d1, ci)) * h + _abs_hi(_horner(d2, span)) * h * h / 2
            lower = at_lo if lower is None else max(lower, at_lo)
            scored.append((c, h, upper))
        assert lower is not None
        slack = abs(lower) * REL_TOL + Fraction(1, 1 << 200)
        keep = [(c, h) for c, h, up in scored if up > lower + slack]
        dropped = [up for _, _, up in scored if up <= lower + slack]
        ceiling = max([ceiling] + dropped)
        best = max(up for _, _, up in scored)
        if not keep:
            return max(best, ceiling)
        pieces = [(c + s * h / 2, h / 2) for c, h in keep for s in (-1, 1)]
    # Out of rounds: every piece is either dropped (bounded by ceiling) or
    # among the last scored (bounded by best).
    return max(best, ceiling)


@dataclass(frozen=True)
class ApproxBound:
    lo: Fraction          # proven lower bound of min (p - f) on the segment
    hi: Fraction          # proven upper bound of max (p - f)
    taylor_order: int
    remainder: Fraction   # the Lagrange remainder's share of the bound

    @property
    def bound(self) -> Fraction:
        """Proven sup |p - f|."""
        return max(-self.lo, self.hi)

    def shifted(self, delta: Fraction) -> "ApproxBound":
        """The bound of p + delta (a change of the constant coefficient)."""
        return ApproxBound(self.lo + delta, self.hi + delta, self.taylor_order, self.remainder)


def approximation_bound(tree: expr.Node, coeffs: Sequence[Fraction], x_first: Fraction,
                        v_max: Fraction, pre_shift: int) -> ApproxBound:
    """Proven sup over v in [0, v_max] of |p(v) - f(x_first + v 2^-g)|."""
    saved = iv.dps
    iv.dps = IV_DPS
    try:
        m = v_max / 2
        rho = v_max / 2
        step = Fraction(1, 1 << pre_shift)
        d = len(coeffs) - 1
        # p(m + u) = sum_k P_k u^k, exact.
        shifted = [sum(coeffs[j] * comb(j, k) * m ** (j - k) for j in range(k, d + 1))
                   for k in range(d + 1)]
        # Every x of the segment, for the remainder's enclosure.
        segment_x = fraction_to_interval(x_first) + fraction_to_interval(v_max * step) * iv.mpf([0, 1])
        order = d + 8
        while True:
            centre = [fraction_to_interval(x_first + m * step), fraction_to_interval(step)]
            centre += [iv.mpf(0)] * order
            f_centre = taylor(tree, centre)
            whole = [segment_x, fraction_to_interval(step)] + [iv.mpf(0)] * order
            f_whole = taylor(tree, whole)
            remainder = _abs_hi(f_whole[order + 1]) * rho ** (order + 1)
            diff = [(fraction_to_interval(shifted[k]) if k <= d else iv.mpf(0)) - f_centre[k]
                    for k in range(order + 1)]
            hi = _upper(diff, rho)
            lo = -_upper([-c for c in diff], rho)
            body = max(-lo, hi)
            if remainder <= body * REL_TOL / 4 or order >= 120:
                break
            order += 8
        if remainder > body * REL_TOL:
            raise GenError("bounds: Taylor remainder does not become small; segment too wide")
        return ApproxBound(lo - remainder, hi + remainder, order, remainder)
    finally:
        iv.dps = saved
