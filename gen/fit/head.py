"""The fit of form = "head": the first k Taylor terms of f at 0 kept exact,
the others fitted.

f(x) ~ T_k(x) + sum_{j=k..d} a_j x^j, where T_k is f's Taylor polynomial of
degree k - 1 at 0 with dyadic coefficients the kernel computes exactly (for
exp(-x): 1 - x + x^2/2).  The powers k..d are fitted by Remez against
f - T_k on [0, x_max], which minimizes max |f - T_k - sum a_j x^j|, the
error weighted by x^k that the remainder h(x) = (f - T_k) / x^k would have;
so the removable singularity of h at 0 never has to be evaluated.  The
coefficients of powers j >= float_tail are rounded to binary64 here (the
kernel evaluates them in binary64), those below are kept as exact
rationals for the quantizer; the approximation bound is proven for the
whole quantized polynomial against f itself (gen.proof.head).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
import mpmath

from .. import expr
from ..config import KernelConfig
from ..errors import GenError
from ..exact import interval_to_fractions, mpf_to_fraction
from ..proof.approximation import taylor
from ..segments import Segmentation
from . import remez
from .minimax import MinimaxInfo, to_z

# The Taylor polynomials the exact head can compute: k -> its coefficients.
# The kernel evaluates G = 1 - T_k exactly (x, or x - x^2/2), so only these.
HEADS: dict[int, tuple[Fraction, ...]] = {2: (Fraction(1), Fraction(-1)),
                                          3: (Fraction(1), Fraction(-1), Fraction(1, 2))}


@dataclass(frozen=True)
class HeadFit:
    """Coefficients a_0..a_d of the whole polynomial (exact rationals; the
    head's are its Taylor terms, the tail's binary64 values)."""

    coefficients: tuple[Fraction, ...]
    info: MinimaxInfo                # (minimax error, iterations, extrema z)


def taylor_at_zero(cfg: KernelConfig, count: int) -> list[tuple[Fraction, Fraction]]:
    """Enclosures of f's first ``count`` Taylor coefficients at 0."""
    iv = mpmath.iv
    saved = iv.dps
    iv.dps = 60
    try:
        series = taylor(cfg.function_tree, [iv.mpf(0), iv.mpf(1)] + [iv.mpf(0)] * (count - 2))
        return [interval_to_fractions(c) for c in series[:count]]
    except (ZeroDivisionError, ValueError):
        raise GenError(f"function: {cfg.function!r} has no Taylor expansion at 0") from None
    finally:
        iv.dps = saved


def _show(q: Fraction) -> str:
    """q to 6 significant digits, or its power of two when q is beyond the
    range of a double (a mutated function's Taylor bound may be)."""
    try:
        return f"{float(q):.6g}"
    except OverflowError:
        return f"{'-' if q < 0 else ''}~2^{abs(q.numerator).bit_length() - q.denominator.bit_length()}"


def check_head(cfg: KernelConfig, seg: Segmentation) -> tuple[Fraction, ...]:
    """The exact head's coefficients, after checking that f's Taylor terms
    are exactly those (dyadic) and that the form fits the segmentation."""
    assert cfg.head is not None
    if seg.count != 1 or seg.z_lo != 0 or seg.pre_shift != 0:
        raise GenError("form: 'head' needs one segment starting at 0 and reaching above 1/2 "
                       "(the variable is x itself)")
    k = cfg.head.exact_head
    want = HEADS[k]
    for j, ((lo, hi), c) in enumerate(zip(taylor_at_zero(cfg, k), want)):
        if not lo <= c <= hi:
            raise GenError(f"exact_head: the x^{j} Taylor coefficient of {cfg.function} at 0 lies in "
                           f"[{_show(lo)}, {_show(hi)}], not {c}; the exact head computes only "
                           f"1 - x{' + x^2/2' if k == 3 else ''} (use exact_head = 2, or another form)")
    return want


def fit_head(cfg: KernelConfig, seg: Segmentation) -> HeadFit:
    """The head form's coefficients and their proven approximation bound."""
    assert cfg.head is not None and cfg.float_tail is not None
    head = check_head(cfg, seg)
    k, d, first_tail = cfg.head.exact_head, cfg.degree, cfg.float_tail
    s = seg.segments[0]
    x_max = Fraction(s.t_max, 1 << cfg.word_bits)
    with mpmath.workdps(cfg.precision_digits):
        b = mpmath.mpf(x_max.numerator) / x_max.denominator
        head_mp = [mpmath.mpf(c.numerator) / c.denominator for c in head]
        target = lambda v: (expr.evaluate(cfg.function_tree, v, mpmath.mp)
                            - sum(c * v**j for j, c in enumerate(head_mp)))
        try:
            result = remez.remez(target, b, d, False, cfg.remez_tolerance, cfg.remez_max_iterations,
                                 "head remainder", powers=list(range(k, d + 1)))
        except GenError as exc:
            raise GenError(f"{exc} (for form 'head', try a lower degree or a higher precision_digits)") from None
        fitted = [mpf_to_fraction(c) for c in result.coeffs]
        extrema = to_z(seg, s, result.extrema)
    rest = [c if j < first_tail else Fraction(float(c)) for j, c in zip(range(k, d + 1), fitted)]
    return HeadFit(tuple(head) + tuple(rest), (float(result.error), result.iterations, extrema))


def middle_and_tail(cfg: KernelConfig, fit: HeadFit) -> tuple[list[Fraction], list[Fraction]]:
    """(n_0..n_dm, t_0..t_dt): the middle's and the tail's coefficients with
    the sign the kernel subtracts them with, D = C (G + x^k mid(x) + x^j tail(x)),
    1 - p(x) = G(x) + x^k mid(x) + x^j tail(x)."""
    assert cfg.head is not None and cfg.float_tail is not None
    k, j = cfg.head.exact_head, cfg.float_tail
    a = fit.coefficients
    return [-c for c in a[k:j]], [-c for c in a[j:]]
