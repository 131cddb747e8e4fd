"""Segmentation: which inputs z each polynomial serves, and how the kernel
finds the segment of an input from the fixed-point z alone.

Inputs are integers z = floor(x * 2^W) (Q0.W), W the word size, from
``z_lo = ceil(lo * 2^W)`` to ``z_max`` = the last z with z / 2^W < hi.  The
kernel works on u = z - z_lo (z_lo is 0 for the default domain [0, ln 2)).

* ``equal``: N segments of Wz = ceil((z_max - z_lo + 1) / N) inputs each
  (width ln 2 / N up to one unit in the last place; the last segment is
  shorter).  index = floor(u / Wz), computed without a division as
  mulhi(u, M) >> sh, with (M, sh) chosen so that the result is exact for
  every u in range (proved in :func:`_division_magic`).  Cost: one
  multiply-high, one shift, one small multiply and a subtraction for the
  offset t = u - index * Wz.
* ``pow2``: segments of width 2^-bits.  index = u >> (W - bits) and
  t = u & (2^(W - bits) - 1): one shift and one mask.  The last segment is
  cut at hi.

Inside a segment the polynomial variable is v = T / 2^W with T = t << g,
where g = W - bitlength(max t) puts the top bit of the largest offset at the
top of the word, so v lies in [0, 1) and the products keep full precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import mpmath

from . import expr
from .exact import interval_to_fractions
from .config import KernelConfig
from .errors import GenError


@dataclass(frozen=True)
class Segment:
    index: int
    z_first: int  # first input z of the segment
    z_last: int   # last input z of the segment

    @property
    def t_max(self) -> int:
        return self.z_last - self.z_first


@dataclass(frozen=True)
class Segmentation:
    kind: str
    word_bits: int
    z_lo: int
    z_max: int
    width: int               # Wz for 'equal'; 2^(W - bits) for 'pow2'
    magic: Optional[int]     # M for 'equal' with N > 1
    magic_shift: Optional[int]
    pow2_shift: Optional[int]
    pre_shift: int           # g: T = t << g
    segments: tuple[Segment, ...]

    @property
    def count(self) -> int:
        return len(self.segments)

    def index_of(self, z: int) -> int:
        """The segment index exactly as the emitted C code computes it."""
        u = z - self.z_lo
        if self.count == 1:
            return 0
        if self.kind == "pow2":
            assert self.pow2_shift is not None
            return u >> self.pow2_shift
        assert self.magic is not None and self.magic_shift is not None
        return ((u * self.magic) >> self.word_bits) >> self.magic_shift

    def offset_of(self, z: int) -> int:
        """t = u - start of the segment, as the C code computes it."""
        u = z - self.z_lo
        if self.count == 1:
            return u
        if self.kind == "pow2":
            return u & (self.width - 1)
        return u - self.index_of(z) * self.width


def _end_times_2w(tree: expr.Node, text: str, W: int) -> Fraction | tuple[int, int]:
    """end * 2^W exactly (a Fraction) for rational ends, else an enclosure
    (n, n + 1) by consecutive integers, computed with 100-digit intervals."""
    try:
        return _exact(tree) * (1 << W)
    except ValueError:
        pass
    saved = mpmath.iv.dps
    mpmath.iv.dps = 100
    try:
        low, high = interval_to_fractions(expr.evaluate(tree, None, mpmath.iv) * 2**W)
        lo, hi = low.numerator // low.denominator, high.numerator // high.denominator
    finally:
        mpmath.iv.dps = saved
    if lo != hi:
        raise GenError(f"domain: cannot decide where {text!r} falls on the Q0.{W} grid")
    return (lo, lo + 1)


def _exact(node: expr.Node) -> Fraction:
    """Exact value of a constant expression of literals, or ValueError."""
    if isinstance(node, expr.Num):
        return Fraction(node.text)
    if isinstance(node, expr.Neg):
        return -_exact(node.arg)
    if isinstance(node, expr.Pow):
        return _exact(node.base) ** node.exponent
    if isinstance(node, expr.BinOp):
        a, b = _exact(node.left), _exact(node.right)
        if node.op == "/" and b == 0:
            raise GenError("domain: division by zero")
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else a}[node.op]
    raise ValueError("not rational")


def domain_bounds(cfg: KernelConfig) -> tuple[int, int]:
    """(z_lo, z_max): the first and last input z with lo <= z / 2^W < hi."""
    W = cfg.word_bits
    lo = _end_times_2w(cfg.domain_trees[0], cfg.domain[0], W)
    hi = _end_times_2w(cfg.domain_trees[1], cfg.domain[1], W)
    lo_low = lo if isinstance(lo, Fraction) else Fraction(lo[0])
    hi_high = hi if isinstance(hi, Fraction) else Fraction(hi[1])
    if lo_low < 0 or hi_high > (1 << W):
        raise GenError(f"domain: must lie within [0, 1] (inputs are Q0.{W})")
    z_lo = -((-lo.numerator) // lo.denominator) if isinstance(lo, Fraction) else lo[1]
    if isinstance(hi, Fraction):
        z_max = -((-hi.numerator) // hi.denominator) - 1   # ceil(hi 2^W) - 1
    else:
        z_max = hi[0]
    if z_max < z_lo:
        raise GenError(f"domain: empty domain [{cfg.domain[0]}, {cfg.domain[1]}) holds no Q0.{W} input")
    return z_lo, z_max


def _division_magic(width: int, u_max: int, W: int) -> tuple[int, int]:
    """(M, sh) with mulhi(u, M) >> sh == u // width for all 0 <= u <= u_max.

    With M = ceil(2^(W+sh) / width) and e = M * width - 2^(W+sh) (0 <= e <
    width): u * M / 2^(W+sh) = u / width + u * e / (width * 2^(W+sh)), and
    the floor is unchanged when u * e < 2^(W+sh), because the fractional
    part of u / width is at most (width - 1) / width.  We take the largest
    sh for which M still fits in W bits, then check that condition.
    """
    sh = 0
    while (-(-(1 << (W + sh + 1)) // width)) < (1 << W):
        sh += 1
    M = -(-(1 << (W + sh)) // width)
    e = M * width - (1 << (W + sh))
    if not (M < (1 << W) and u_max * e < (1 << (W + sh))):
        raise GenError(f"segments.count: no exact multiply-high index for width {width}")
    return M, sh


def segment(cfg: KernelConfig) -> Segmentation:
    """Build the segmentation of ``cfg``; see the module docstring."""
    W = cfg.word_bits
    z_lo, z_max = domain_bounds(cfg)
    u_max = z_max - z_lo
    magic = magic_shift = pow2_shift = None
    if cfg.segment_kind == "equal":
        n = cfg.segment_count
        width = -(-(u_max + 1) // n)
        starts = [i * width for i in range(n)]
        if starts[-1] > u_max:
            raise GenError(f"segments.count: {n} equal segments leave the last one empty; use fewer")
        if n > 1:
            magic, magic_shift = _division_magic(width, u_max, W)
    else:
        assert cfg.segment_bits is not None
        pow2_shift = W - cfg.segment_bits
        width = 1 << pow2_shift
        n = (u_max >> pow2_shift) + 1
        starts = [i * width for i in range(n)]
    segs = tuple(Segment(i, z_lo + s, z_lo + min(s + width - 1, u_max)) for i, s in enumerate(starts))
    t_max = max(s.t_max for s in segs)
    pre_shift = W - max(t_max.bit_length(), 1)
    result = Segmentation(cfg.segment_kind, W, z_lo, z_max, width, magic, magic_shift,
                          pow2_shift, pre_shift, segs)
    _self_check(result)
    return result


def _self_check(seg: Segmentation) -> None:
    """Refuse a segmentation whose index computation disagrees at any boundary."""
    for s in seg.segments:
        for z in {s.z_first, s.z_first + 1, s.z_last - 1, s.z_last}:
            if s.z_first <= z <= s.z_last:
                if seg.index_of(z) != s.index or seg.offset_of(z) != z - s.z_first:
                    raise GenError(f"segments: internal error, index of z={z} is not {s.index}")
