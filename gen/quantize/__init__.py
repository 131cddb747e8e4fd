"""Stage 4, quantization: the fitted coefficients and the evaluation scheme
in, a :class:`Quantized` scheme out (every node's scale and sign, every
coefficient's integer, every node's proven range).

Every node n of the scheme (:mod:`gen.scheme`) holds a non-negative W-bit
word U_n standing for the real value sigma_n * U_n * 2^-s_n: a fixed sign
sigma_n (the same on every segment, checked) and a fixed scale s_n (baked
into the code as shift counts).  This sign-magnitude form is FACCT's
``y = C - hi(z, y)`` generalised: products are unsigned multiply-highs,
sums are additions or subtractions chosen by the signs, and a constant K_j
is stored modulo 2^W (it may be "negative": unsigned wrap-around is exact
because the true value of the sum lies in [0, 2^W)).

Scales are chosen greedily in graph order, each the largest for which
*exact integer interval arithmetic* over every segment (each split into
``PIECES`` sub-ranges of T) proves 0 <= U < 2^W for the node and for every
shifted operand: no step can overflow for any input.  These range proofs
choose the scales, so they live here; the errors are carried by
:mod:`gen.proof.evaluation` over the same graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional, Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..floattail import MANTISSA
from ..proof import float_tail
from ..scheme import Scheme, drops_word
from ..segments import Segmentation
from . import limbs
from .base import Interval, const_node, operand_shift, shift
from .products import quantize_limb_mul
from .sums import choose_add, fold_shifts

__all__ = ["Interval", "Quantized", "const_node", "operand_shift", "shift", "quantize",
           "round_nearest", "root_margin", "final_product_plan", "check_root_scale"]

PIECES = 16  # equal sub-ranges of each segment's t in the interval proof (see _pieces)


@dataclass(frozen=True)
class Quantized:
    scheme: Scheme
    word_bits: int
    scales: tuple[int, ...]             # s_n per node
    signs: tuple[int, ...]              # sigma_n per node
    ints: tuple[tuple[int, ...], ...]   # k[i][j]: signed integer K_j of segment i
    const_scales: tuple[int, ...]       # scale of K_j, per power j
    terms: tuple[Optional[tuple[tuple[int, int], tuple[int, int]]], ...]
    # for an add node: ((sign_a, shift_a), (sign_b, shift_b)): U = sum sign * shift(U_x)
    ranges: tuple[tuple[Interval, ...], ...]  # [i][n]: proven range of U_n on segment i
    tail: Optional[float_tail.TailProof] = None  # the ftail node's proof, if any
    plans: tuple[Optional[limbs.TruncPlan], ...] = ()   # per node: truncated product plan, or None
    # A constant the root sum adds, the same on every segment, in units of
    # 2^-s_root (may be negative): part of the polynomial's constant term
    # (see coefficients), so that a two-word root can be centred where its
    # one-word a_0 cannot move (gen/fit/centre.py).
    root_bias: int = 0

    @property
    def degree(self) -> int:
        return len(self.const_scales) - 1

    @property
    def root(self) -> int:
        return self.scheme.root

    @property
    def root_scale(self) -> int:
        return self.scales[self.root]

    def table_word(self, i: int, j: int) -> int:
        """K_j of segment i as stored: k modulo 2^W."""
        return self.ints[i][j] % (1 << self.word_bits)

    def table_coefficients(self, i: int) -> tuple[Fraction, ...]:
        """Exact rational coefficients (powers of v) of segment i's table row."""
        return tuple(Fraction(self.signs[const_node(self.scheme, j)] * k) / Fraction(2) ** self.const_scales[j]
                     for j, k in enumerate(self.ints[i]))

    def coefficients(self, i: int) -> tuple[Fraction, ...]:
        """Exact rational coefficients (powers of v) of segment i's
        polynomial: the table row, the root bias added to the constant term."""
        row = self.table_coefficients(i)
        bias = Fraction(self.signs[self.root] * self.root_bias) / Fraction(2) ** self.root_scale
        return (row[0] + bias,) + row[1:]

    def signed_ints(self) -> list[list[int]]:
        """Per segment, the integers of the coefficients with their signs
        (a_j 2^s_j, exact): what :func:`quantize` takes as ``forced_ints``."""
        return [[round_nearest(c * Fraction(2) ** self.const_scales[j])
                 for j, c in enumerate(self.table_coefficients(i))]
                for i in range(len(self.ints))]


def _pieces(t_max: int) -> list[tuple[int, int]]:
    """Sub-ranges of t in [0, t_max] for the interval proof: {0}, then
    dyadic ranges [2^k, 2^(k+1) - 1] up to t_max / PIECES, then PIECES
    equal ranges.  Sums of monotone terms near v = 0 (Estrin's
    a_0 + a_1 v - a_2 v^2 ...) are only provably non-negative on pieces
    whose width is a fraction of their distance from 0: the dyadic part
    gives exactly that."""
    if t_max < 2 * PIECES:
        return [(t, t) for t in range(t_max + 1)]
    out = [(0, 0)]
    start = 1
    while 2 * start <= t_max // PIECES:
        out.append((start, 2 * start - 1))
        start *= 2
    span = t_max - start + 1
    cuts = [start + span * k // PIECES for k in range(PIECES)] + [t_max + 1]
    out += [(cuts[k], cuts[k + 1] - 1) for k in range(PIECES)]
    return out


def round_nearest(value: Fraction) -> int:
    """Round to nearest, ties away from zero (deterministic)."""
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


def _real_values(scheme: Scheme, coeffs: Sequence[Fraction], v: Fraction,
                 root_offset: Fraction = Fraction(0)) -> list[Fraction]:
    """Exact real value of every node at v (the root sum adding ``root_offset``)."""
    vals: list[Fraction] = []
    for node in scheme.nodes:
        if node.kind == "var":
            vals.append(v)
        elif node.kind == "const":
            vals.append(coeffs[node.power])
        elif node.kind == "mul":
            vals.append(vals[node.args[0]] * vals[node.args[1]])
        elif node.kind == "ftail":
            vals.append(sum(vals[a] * v ** scheme.nodes[a].power for a in node.args[1:]))
        else:
            vals.append(vals[node.args[0]] + vals[node.args[1]])
    vals[-1] += root_offset
    return vals


def _node_signs(scheme: Scheme, seg: Segmentation, coeffs: Sequence[Sequence[Fraction]],
                root_offset: Fraction = Fraction(0)) -> list[int]:
    """sigma_n from the exact real values at 9 points of every segment; must not vary."""
    W, g = seg.word_bits, seg.pre_shift
    seen: list[set[int]] = [set() for _ in scheme.nodes]
    for s, row in zip(seg.segments, coeffs):
        v_max = Fraction(s.t_max << g, 1 << W)
        for k in range(9):
            for n, value in enumerate(_real_values(scheme, row, v_max * k / 8, root_offset)):
                if value != 0:
                    seen[n].add(1 if value > 0 else -1)
    signs = []
    for n, node in enumerate(scheme.nodes):
        if len(seen[n]) > 1:
            what = f"x^{node.power}" if node.kind == "const" else f"intermediate {node.label}"
            raise GenError(f"coefficients: {what} changes sign across the domain; only sign-stable "
                           "schemes are supported (try more segments or another evaluation)")
        signs.append(seen[n].pop() if seen[n] else 1)
    return signs


class State:
    """The quantization in progress: what every rule reads and fills in,
    node by node in graph order."""

    def __init__(self, scheme: Scheme, seg: Segmentation, coeffs: Sequence[Sequence[Fraction]],
                 forced_scales: Optional[Sequence[Optional[int]]],
                 forced_ints: Optional[Sequence[Sequence[int]]], root_offset: Fraction = Fraction(0)) -> None:
        self.scheme, self.seg, self.coeffs = scheme, seg, coeffs
        self.root_offset = root_offset
        self.W = seg.word_bits
        self.nsegs = len(seg.segments)
        self.signs = _node_signs(scheme, seg, coeffs, root_offset)
        self.users = scheme.consumers()
        self.pieces = [_pieces(s.t_max) for s in seg.segments]
        count, degree = len(scheme.nodes), len(coeffs[0]) - 1
        self.scales: list[int] = [0] * count
        self.terms: list[Optional[tuple[tuple[int, int], tuple[int, int]]]] = [None] * count
        self.ints: list[list[int]] = [[0] * (degree + 1) for _ in range(self.nsegs)]
        self.const_scales: list[int] = [0] * (degree + 1)
        self.ranges: list[list[list[Interval]]] = [[[] for _ in scheme.nodes] for _ in range(self.nsegs)]
        self.plans: list[Optional[limbs.TruncPlan]] = [None] * count
        self.tail: Optional[float_tail.TailProof] = None
        self._forced_scales, self._forced_ints = forced_scales, forced_ints

    def forced_scale(self, j: int) -> Optional[int]:
        return self._forced_scales[j] if self._forced_scales is not None else None

    def integers(self, j: int, s: int) -> list[int]:
        """The stored integers (sign applied) of power j at scale s, per segment."""
        sign = self.signs[const_node(self.scheme, j)]
        if self._forced_ints is not None:
            return [self._forced_ints[i][j] * sign for i in range(self.nsegs)]
        return [round_nearest(sign * self.coeffs[i][j] * Fraction(2) ** s) for i in range(self.nsegs)]

    def guess(self, magnitude: Fraction, bits: Optional[int] = None) -> int:
        """A scale just above the largest at which magnitude fits ``bits`` bits."""
        bits = self.W if bits is None else bits
        magnitude = max(magnitude, Fraction(1, 1 << (4 * self.W)))
        return bits - magnitude.numerator.bit_length() + magnitude.denominator.bit_length() + 1


def _var(st: State, n: int) -> None:
    st.scales[n] = st.W
    for i in range(st.nsegs):
        st.ranges[i][n] = [(lo << st.seg.pre_shift, hi << st.seg.pre_shift) for lo, hi in st.pieces[i]]


def _const(st: State, n: int) -> None:
    """A constant that does not feed a sum (those are stored at the sum's
    scale, :func:`gen.quantize.sums.choose_add`): the largest scale at
    which every segment's integer fits."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    if any(scheme.nodes[u].kind == "add" for u in st.users[n]):
        return
    j = node.power
    assert j is not None
    # A binary64 tail coefficient is a 53-bit significand (2^53 included);
    # a constant of a 32-bit (narrow) step fits 32 bits.
    if any(scheme.nodes[u].kind == "ftail" for u in st.users[n]):
        limit, bits = 1 << MANTISSA, MANTISSA
    elif node.narrow:
        limit, bits = (1 << 32) - 1, 32
    else:
        limit, bits = (1 << st.W) - 1, st.W
    forced = st.forced_scale(j)
    candidates = [forced] if forced is not None else \
        range(st.guess(max(abs(r[j]) for r in st.coeffs), bits), -4 * st.W, -1)
    for s in candidates:
        ks = st.integers(j, s)
        if all(0 <= k <= limit for k in ks):
            break
    else:
        raise GenError(f"coefficient_scales: x^{j} does not fit {bits} bits at the scale asked")
    if not all(0 <= k <= limit for k in ks):
        raise GenError(f"coefficient_scales: x^{j} does not fit {bits} bits at scale {s}")
    st.scales[n], st.const_scales[j] = s, s
    for i in range(st.nsegs):
        st.ints[i][j] = ks[i]
        st.ranges[i][n] = [(ks[i], ks[i])] * len(st.pieces[i])


def _full_mul(st: State, n: int) -> None:
    """mulhi(U_a, U_b), or the exact 2W-bit product of a wide node."""
    node = st.scheme.nodes[n]
    a, b = node.args
    # A wide product of two words keeps all 2W bits; of a 2W-bit operand, the top 2W.
    drop = st.W if drops_word(st.scheme.nodes, node) else 0
    st.scales[n] = st.scales[a] + st.scales[b] - drop
    for i in range(st.nsegs):
        st.ranges[i][n] = [((alo * blo) >> drop, (ahi * bhi) >> drop)
                           for (alo, ahi), (blo, bhi) in zip(st.ranges[i][a], st.ranges[i][b])]


def _ftail(st: State, n: int) -> None:
    """The binary64 tail: its scale and ranges come from its proof."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    first = scheme.nodes[node.args[1]].power
    degree = len(st.const_scales) - 1
    real = [[Fraction(st.signs[a] * st.ints[i][scheme.nodes[a].power])
             / Fraction(2) ** st.const_scales[scheme.nodes[a].power] for a in node.args[1:]]
            for i in range(st.nsegs)]
    g = st.seg.pre_shift
    st.tail = float_tail.prove(first, degree, scheme.name, real, st.signs[n],
                               [[(lo << g, hi << g) for lo, hi in p] for p in st.pieces], st.W)
    st.scales[n] = st.tail.scale
    for i in range(st.nsegs):
        st.ranges[i][n] = list(st.tail.ranges[i])


def quantize(scheme: Scheme, seg: Segmentation, coeffs: Sequence[Sequence[Fraction]],
             forced_scales: Optional[Sequence[Optional[int]]] = None,
             forced_ints: Optional[Sequence[Sequence[int]]] = None,
             root_margin: Callable[[int], int] = lambda s: 0, root_offset: Fraction = Fraction(0)) -> Quantized:
    """Give every node a scale and every coefficient an integer, with proofs.

    ``coeffs[i][j]`` are real coefficients (powers of v) for segment i.  With
    ``forced_scales[j]`` the scale of K_j is imposed; with ``forced_ints``
    the integers K_j are used as given (signed values at those scales).
    ``root_margin(s)`` is added to the root's upper range when its scale is
    s: room for a rounding constant added after the scheme.  ``root_offset``
    is a real constant the root sum adds on every segment (part of a_0; it
    must be a whole number of units of the root's scale, Quantized.root_bias).
    """
    st = State(scheme, seg, coeffs, forced_scales, forced_ints, root_offset)
    for n, node in enumerate(scheme.nodes):
        if node.kind == "var":
            _var(st, n)
        elif node.kind == "const":
            _const(st, n)
        elif node.kind == "mul" and not node.wide and (node.narrow or scheme.truncation_budget is not None):
            quantize_limb_mul(st, n)
        elif node.kind == "mul":
            _full_mul(st, n)
        elif node.kind == "ftail":
            _ftail(st, n)
        else:
            margin = root_margin if n == scheme.root else (lambda s: 0)
            choose_add(st, n, 32 if node.narrow else st.W, margin, root_offset if n == scheme.root else Fraction(0))
            if scheme.truncation_budget is not None:
                fold_shifts(st, n, margin)
    return Quantized(scheme, st.W, tuple(st.scales), tuple(st.signs), tuple(tuple(r) for r in st.ints),
                     tuple(st.const_scales), tuple(st.terms),
                     tuple(tuple((min(lo for lo, _ in rs), max(hi for _, hi in rs)) for rs in seg_ranges)
                           for seg_ranges in st.ranges), st.tail, tuple(st.plans),
                     int(root_offset * st.signs[scheme.root] * Fraction(2) ** st.scales[scheme.root]))


def root_margin(cfg: KernelConfig) -> Callable[[int], int]:
    """Room the root word must leave for the rounding constants added after
    the scheme: 2^(q-1) for _eval's rounding (q = s - S) and, in one_minus
    form or with a wide root, 2^(s-64) for rounding to 2^-63 (when
    ccs == 1, and _expm_p63's rounding of a wide direct root, whose N is
    at most U)."""
    def margin(s: int) -> int:
        out = 1 << (s - cfg.scale_bits - 1) if s > cfg.scale_bits else 0
        if (cfg.form == "one_minus" or cfg.wide) and cfg.word_bits == 64 and s > 63:
            out = max(out, 1 << (s - 64))
        return out
    return margin


def check_root_scale(cfg: KernelConfig, qz: Quantized) -> None:
    """The root word must hold the result at the scale the outputs need."""
    top_scale = 128 if cfg.wide else 127
    if cfg.form == "one_minus" and cfg.word_bits == 64 and not 64 <= qz.root_scale <= top_scale:
        raise GenError(f"form: one_minus needs the result at a scale from 2^64 to 2^{top_scale}, "
                       f"got 2^{qz.root_scale}")
    lowest = max(cfg.word_bits, cfg.scale_bits + 1)   # _eval and _expm_p63 round the two words to one
    if cfg.form == "direct" and cfg.wide and not lowest <= qz.root_scale <= 2 * cfg.word_bits:
        raise GenError(f"wide: the direct form needs the two-word result at a scale from "
                       f"2^{lowest} to 2^{2 * cfg.word_bits}, got 2^{qz.root_scale}")
    if qz.root_scale < cfg.scale_bits:
        raise GenError(f"scale_bits: {cfg.scale_bits} needs the result at scale 2^{cfg.scale_bits}, "
                       f"but the {cfg.word_bits}-bit word holds it only at 2^{qz.root_scale}")


def final_product_plan(cfg: KernelConfig, qz: Quantized) -> Optional[limbs.TruncPlan]:
    """The truncated product w U of _expm_p63 (direct form, multiplier =
    "truncated"): w any 64-bit word, U the root word; budget at U's scale."""
    if cfg.multiplier != "truncated" or cfg.word_bits != 64 or qz.scheme.truncation_budget is None:
        return None
    u_hi = max(r[qz.root][1] for r in qz.ranges)
    budget = qz.scheme.truncation_budget
    if cfg.truncation_budgets_log2 is not None:
        budget = Fraction(2 ** cfg.truncation_budgets_log2[-1])
    return limbs.plan((1 << 64) - 1, u_hi, 64, budget * Fraction(2) ** qz.root_scale)
