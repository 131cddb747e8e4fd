"""Minimax polynomial approximation by the Remez exchange algorithm (mpmath).

The polynomial is fitted on [0, b] in the variable v; internally we work in
s = v / b on [0, 1], where the monomial basis is well conditioned enough
for 50-digit arithmetic at the degrees we use, and scale back at the end.

Convergence test: after an exchange, the weighted error at the n + 2 new
reference points alternates in sign by construction; we stop when the
largest and smallest of their magnitudes agree to ``tolerance`` (relative),
which is de la Vallee Poussin's criterion: the true minimax error then lies
between the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import mpmath

from ..errors import GenError


class PrecisionError(GenError):
    """Remez broke down in a way that means the working precision cannot
    resolve the error it is minimizing (or the interval is too short)."""

Real = Any  # an mpmath mpf
Func = Callable[[Real], Real]

_GOLDEN = (mpmath.sqrt(5) - 1) / 2


@dataclass(frozen=True)
class RemezResult:
    coeffs: tuple[Real, ...]    # one per power (a_0 .. a_n by default), in powers of v
    error: Real                 # levelled weighted error |E|
    extrema: tuple[Real, ...]   # the final reference, in v
    iterations: int
    spread: Real                # (max - min) / max of |error| at the reference


def _poly(coeffs: Sequence[Real], s: Real, powers: Sequence[int] | None = None) -> Real:
    if powers is not None:
        return sum((c * s**p for p, c in zip(powers, coeffs)), mpmath.mpf(0))
    acc = mpmath.mpf(0)
    for c in reversed(coeffs):
        acc = acc * s + c
    return acc


def _bracketed_root(fn: Func, lo: Real, hi: Real, flo: Real, fhi: Real, tol: Real) -> Real:
    """A root of fn in (lo, hi) where flo, fhi have opposite signs (Illinois)."""
    side = 0
    for _ in range(400):
        mid = (lo * fhi - hi * flo) / (fhi - flo)
        fmid = fn(mid)
        if fmid == 0 or hi - lo < tol:
            return mid
        if (fmid > 0) == (fhi > 0):
            hi, fhi = mid, fmid
            if side == 1:
                flo /= 2
            side = 1
        else:
            lo, flo = mid, fmid
            if side == -1:
                fhi /= 2
            side = -1
    return (lo + hi) / 2


def _argmax(fn: Func, lo: Real, hi: Real, tol: Real) -> tuple[Real, Real]:
    """Maximum of fn on [lo, hi], end points included (Brent's method: golden
    section steps safeguarding parabolic interpolation steps)."""
    a, b = lo, hi
    x = w = v = a + (1 - _GOLDEN) * (b - a)
    fx = fw = fv = fn(x)
    step = prev = mpmath.mpf(0)
    for _ in range(200):
        mid = (a + b) / 2
        tol1 = tol / 2 + abs(x) * mpmath.mpf(10) ** (-mpmath.mp.dps + 3)
        if abs(x - mid) <= 2 * tol1 - (b - a) / 2:
            break
        parabolic = False
        if abs(prev) > tol1:
            # Vertex of the parabola through (v, fv), (w, fw), (x, fx).
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2 * (q - r)
            if q > 0:
                p = -p
            q = abs(q)
            if abs(p) < abs(q * prev / 2) and q * (a - x) < p < q * (b - x):
                prev, step = step, p / q
                parabolic = True
                if (x + step) - a < 2 * tol1 or b - (x + step) < 2 * tol1:
                    step = tol1 if mid > x else -tol1
        if not parabolic:
            prev = (b - x) if x < mid else (a - x)
            step = (1 - _GOLDEN) * prev
        u = x + (step if abs(step) >= tol1 else (tol1 if step > 0 else -tol1))
        fu = fn(u)
        if fu >= fx:
            if u < x:
                b = x
            else:
                a = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu >= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu >= fv or v == x or v == w:
                v, fv = u, fu
    best = max(((fx, x), (fn(lo), lo), (fn(hi), hi)), key=lambda p: p[0])
    return best[1], best[0]


def remez(fn: Func, b: Real, degree: int, relative: bool, tolerance: float,
          max_iterations: int, label: str, powers: Sequence[int] | None = None) -> RemezResult:
    """Minimax polynomial for fn on [0, b]; see the module docstring.

    By default the basis is 1, v, ..., v^degree; ``powers`` restricts it to
    the given powers (the result then holds one coefficient per power).
    Without power 0 the basis vanishes at v = 0: that is the constrained
    fit used after the constant coefficient has been rounded.
    """
    powers = list(range(degree + 1)) if powers is None else list(powers)
    n = len(powers) - 1
    g: Func = lambda s: fn(b * s)
    weight: Func = (lambda s: 1 / abs(g(s))) if relative else (lambda s: mpmath.mpf(1))
    if 0 in powers:
        ref = [(1 - mpmath.cos(mpmath.pi * i / (n + 1))) / 2 for i in range(n + 2)]
    else:
        # Every basis function vanishes at 0, and so does the error there
        # when fn(0) = 0: keep the reference away from 0.
        ref = [(1 - mpmath.cos(mpmath.pi * (i + 1) / (n + 2))) / 2 for i in range(n + 2)]
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps + 5)
    locate = max(mpmath.sqrt(mpmath.mpf(tolerance)) * mpmath.mpf("1e-3"), eps)
    spread = mpmath.mpf(1)
    for iteration in range(1, max_iterations + 1):
        rows = [[s**p for p in powers] + [(-1) ** i / weight(s)] for i, s in enumerate(ref)]
        try:
            solution = mpmath.lu_solve(mpmath.matrix(rows), mpmath.matrix([g(s) for s in ref]))
        except ZeroDivisionError:
            raise PrecisionError(f"remez: {label}: singular system at iteration {iteration}") from None
        coeffs = [solution[j] for j in range(n + 1)]
        err: Func = lambda s, c=coeffs: (g(s) - _poly(c, s, powers)) * weight(s)
        values = [err(s) for s in ref]
        roots = []
        for k in range(n + 1):
            if values[k] == 0 or (values[k] > 0) == (values[k + 1] > 0):
                raise PrecisionError(f"remez: {label}: error does not alternate at iteration {iteration}")
            roots.append(_bracketed_root(err, ref[k], ref[k + 1], values[k], values[k + 1], eps))
        edges = [mpmath.mpf(0)] + roots + [mpmath.mpf(1)]
        new_ref, magnitudes = [], []
        for k in range(n + 2):
            sign = 1 if values[k] > 0 else -1
            s, value = _argmax(lambda s, sg=sign: sg * err(s), edges[k], edges[k + 1], locate)
            new_ref.append(s)
            magnitudes.append(value)
        if min(magnitudes) <= 0:
            raise PrecisionError(f"remez: {label}: lost an extremum at iteration {iteration}")
        spread = (max(magnitudes) - min(magnitudes)) / max(magnitudes)
        ref = new_ref
        if spread < tolerance:
            scaled = tuple(c / b**p for p, c in zip(powers, coeffs))
            return RemezResult(scaled, max(magnitudes), tuple(b * s for s in ref), iteration, spread)
    raise GenError(f"remez: {label}: did not converge after {max_iterations} iterations "
                   f"(extrema spread {mpmath.nstr(spread, 3)} > remez_tolerance {tolerance})")


def error_extrema(fn: Func, coeffs: list[Real], b: Real, count: int) -> tuple[Real, ...]:
    """Local maxima of |fn - p| on [0, b] for a given polynomial p (in v).

    Used for third-party polynomials, which come without a Remez reference:
    a grid of ``count`` points finds the candidates, golden-section search
    refines them.  The result guides the checker; no bound relies on it.
    """
    err: Func = lambda v: abs(fn(v) - _poly(coeffs, v))
    grid = [b * i / (count - 1) for i in range(count)]
    values = [err(v) for v in grid]
    found = []
    for i, value in enumerate(values):
        left = values[i - 1] if i > 0 else mpmath.mpf(-1)
        right = values[i + 1] if i + 1 < count else mpmath.mpf(-1)
        if value >= left and value >= right:
            lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, count - 1)]
            found.append(_argmax(err, lo, hi, b * mpmath.mpf("1e-12"))[0])
    return tuple(found)
