"""Fixed-point quantization of an evaluation scheme, with proofs.

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
shifted operand: no step can overflow for any input.  The same graph walk
carries the truncation errors (:func:`eval_error`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Optional, Sequence

from . import floattail, limbs
from .errors import GenError
from .scheme import Scheme
from .segments import Segmentation

PIECES = 16  # equal sub-ranges of each segment's t in the interval proof (see _pieces)

Interval = tuple[int, int]


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
    tail: Optional[floattail.TailProof] = None  # the ftail node's proof, if any
    plans: tuple[Optional[limbs.TruncPlan], ...] = ()   # per node: truncated product plan, or None

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

    def coefficients(self, i: int) -> tuple[Fraction, ...]:
        """Exact rational coefficients (powers of v) of segment i's polynomial."""
        return tuple(Fraction(self.signs[const_node(self.scheme, j)] * k) / Fraction(2) ** self.const_scales[j]
                     for j, k in enumerate(self.ints[i]))


def _shift(value: int, r: int) -> int:
    return value >> r if r >= 0 else value << -r


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


def _real_values(scheme: Scheme, coeffs: Sequence[Fraction], v: Fraction) -> list[Fraction]:
    """Exact real value of every node at v."""
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
    return vals


def _node_signs(scheme: Scheme, seg: Segmentation, coeffs: Sequence[Sequence[Fraction]]) -> list[int]:
    """sigma_n from the exact real values at 9 points of every segment; must not vary."""
    W, g = seg.word_bits, seg.pre_shift
    seen: list[set[int]] = [set() for _ in scheme.nodes]
    for s, row in zip(seg.segments, coeffs):
        v_max = Fraction(s.t_max << g, 1 << W)
        for k in range(9):
            for n, value in enumerate(_real_values(scheme, row, v_max * k / 8)):
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


def quantize(scheme: Scheme, seg: Segmentation, coeffs: Sequence[Sequence[Fraction]],
             forced_scales: Optional[Sequence[Optional[int]]] = None,
             forced_ints: Optional[Sequence[Sequence[int]]] = None,
             root_margin: Callable[[int], int] = lambda s: 0) -> Quantized:
    """Give every node a scale and every coefficient an integer, with proofs.

    ``coeffs[i][j]`` are real coefficients (powers of v) for segment i.  With
    ``forced_scales[j]`` the scale of K_j is imposed; with ``forced_ints``
    the integers K_j are used as given (signed values at those scales).
    ``root_margin(s)`` is added to the root's upper range when its scale is
    s: room for a rounding constant added after the scheme.
    """
    W = seg.word_bits
    top = (1 << W) - 1
    d = len(coeffs[0]) - 1
    nsegs = len(seg.segments)
    signs = _node_signs(scheme, seg, coeffs)
    users = scheme.consumers()
    pieces = [_pieces(s.t_max) for s in seg.segments]
    g = seg.pre_shift

    scales: list[int] = [0] * len(scheme.nodes)
    terms: list[Optional[tuple[tuple[int, int], tuple[int, int]]]] = [None] * len(scheme.nodes)
    ints: list[list[int]] = [[0] * (d + 1) for _ in range(nsegs)]
    const_scales: list[int] = [0] * (d + 1)
    ranges: list[list[list[Interval]]] = [[[] for _ in scheme.nodes] for _ in range(nsegs)]
    plans: list[Optional[limbs.TruncPlan]] = [None] * len(scheme.nodes)

    def forced_scale(j: int) -> Optional[int]:
        return forced_scales[j] if forced_scales is not None else None

    def integers(j: int, s: int) -> list[int]:
        if forced_ints is not None:
            return [forced_ints[i][j] * signs[const_node(scheme, j)] for i in range(nsegs)]
        return [round_nearest(signs[const_node(scheme, j)] * coeffs[i][j] * Fraction(2) ** s)
                for i in range(nsegs)]

    def guess(magnitude: Fraction, bits: int = W) -> int:
        """A scale just above the largest at which magnitude fits ``bits`` bits."""
        magnitude = max(magnitude, Fraction(1, 1 << (4 * W)))
        return bits - magnitude.numerator.bit_length() + magnitude.denominator.bit_length() + 1

    tail_proof: Optional[floattail.TailProof] = None

    for n, node in enumerate(scheme.nodes):
        if node.kind == "var":
            scales[n] = W
            for i in range(nsegs):
                ranges[i][n] = [(lo << g, hi << g) for lo, hi in pieces[i]]
        elif node.kind == "const":
            if any(scheme.nodes[u].kind == "add" for u in users[n]):
                continue  # stored at the scale of the sum it feeds
            j = node.power
            # A binary64 tail coefficient is a 53-bit significand (2^53 included);
            # a constant of a 32-bit (narrow) step fits 32 bits.
            in_tail = any(scheme.nodes[u].kind == "ftail" for u in users[n])
            if in_tail:
                limit, bits = 1 << floattail.MANTISSA, floattail.MANTISSA
            elif node.narrow:
                limit, bits = (1 << 32) - 1, 32
            else:
                limit, bits = top, W
            candidates = [forced_scale(j)] if forced_scale(j) is not None else \
                range(guess(max(abs(r[j]) for r in coeffs), bits), -4 * W, -1)
            for s in candidates:
                ks = integers(j, s)
                if all(0 <= k <= limit for k in ks):
                    break
            else:
                raise GenError(f"coefficient_scales: x^{j} does not fit {bits} bits at the scale asked")
            if not all(0 <= k <= limit for k in ks):
                raise GenError(f"coefficient_scales: x^{j} does not fit {bits} bits at scale {s}")
            scales[n], const_scales[j] = s, s
            for i in range(nsegs):
                ints[i][j] = ks[i]
                ranges[i][n] = [(ks[i], ks[i])] * len(pieces[i])
        elif node.kind == "mul" and not node.wide and (node.narrow or scheme.truncation_budget is not None):
            _quantize_limb_mul(scheme, n, scales, ranges, plans, W, nsegs)
        elif node.kind == "mul":
            a, b = node.args
            drop = 0 if node.wide else W   # a wide product keeps all 2W bits
            scales[n] = scales[a] + scales[b] - drop
            for i in range(nsegs):
                ranges[i][n] = [((alo * blo) >> drop, (ahi * bhi) >> drop)
                                for (alo, ahi), (blo, bhi) in zip(ranges[i][a], ranges[i][b])]
        elif node.kind == "ftail":
            first = scheme.nodes[node.args[1]].power
            real = [[Fraction(signs[a] * ints[i][scheme.nodes[a].power])
                     / Fraction(2) ** const_scales[scheme.nodes[a].power] for a in node.args[1:]]
                    for i in range(nsegs)]
            tail_proof = floattail.prove(first, d, scheme.name, real, signs[n],
                                         [[(lo << g, hi << g) for lo, hi in p] for p in pieces], W)
            scales[n] = tail_proof.scale
            for i in range(nsegs):
                ranges[i][n] = list(tail_proof.ranges[i])
        else:
            margin = root_margin if n == scheme.root else (lambda s: 0)
            _choose_add(scheme, n, signs, scales, terms, ints, const_scales, ranges, integers,
                        forced_scale, guess, coeffs, 32 if node.narrow else W, nsegs, margin)
            if scheme.truncation_budget is not None:
                _fold_shifts(scheme, n, scales, terms, ranges, plans, users, W, nsegs, margin)

    return Quantized(scheme, W, tuple(scales), tuple(signs), tuple(tuple(r) for r in ints),
                     tuple(const_scales), tuple(terms),
                     tuple(tuple((min(lo for lo, _ in rs), max(hi for _, hi in rs)) for rs in seg_ranges)
                           for seg_ranges in ranges), tail_proof, tuple(plans))


def operand_shift(scheme: Scheme, n: int, x: int, word_bits: int) -> int:
    """A narrow (32-bit) product reads a 64-bit operand x as x >> 32."""
    return word_bits - 32 if scheme.nodes[n].narrow and not scheme.nodes[x].narrow else 0


def _quantize_limb_mul(scheme: Scheme, n: int, scales: list[int], ranges: list, plans: list,
                       W: int, nsegs: int) -> None:
    """A product on a narrow word and/or from truncated limb products
    (multiplier = "truncated", gen/limbs.py): its scale, its plan (chosen
    from the operands' proven maxima over every segment, the same C code for
    all) and its proven range."""
    node = scheme.nodes[n]
    a, b = node.args
    if not node.narrow and any(scheme.nodes[x].narrow for x in node.args):
        raise GenError(f"quantize: {node.label} multiplies a 32-bit step on 64 bits (not supported)")
    drop = 32 if node.narrow else W
    sh = [operand_shift(scheme, n, x, W) for x in (a, b)]
    scales[n] = scales[a] - sh[0] + scales[b] - sh[1] - drop
    his = [max(hi for i in range(nsegs) for _, hi in ranges[i][x]) >> r for x, r in zip((a, b), sh)]
    plan = None
    if scheme.truncation_budget is not None:
        plan = limbs.plan(his[0], his[1], drop, scheme.truncation_budget * Fraction(2) ** scales[n])
    plans[n] = plan
    for i, rs in enumerate(_limb_mul_ranges(scheme, n, ranges, plan, W, nsegs)):
        ranges[i][n] = rs


def _limb_mul_ranges(scheme: Scheme, n: int, ranges: list, plan: Optional[limbs.TruncPlan], W: int,
                     nsegs: int) -> list[list[Interval]]:
    """Per segment and piece, the proven range of limb product n: at most the
    exact floor(A B / 2^D), at least that minus ceil(delta_bound), >= 0."""
    a, b = scheme.nodes[n].args
    sa, sb = (operand_shift(scheme, n, x, W) for x in (a, b))
    drop = plan.drop if plan else 32
    bound = plan.delta_bound() if plan else Fraction(0)
    loss = -(-bound.numerator // bound.denominator)
    return [[(max(0, ((alo >> sa) * (blo >> sb) >> drop) - loss), ((ahi >> sa) * (bhi >> sb)) >> drop)
             for (alo, ahi), (blo, bhi) in zip(ranges[i][a], ranges[i][b])] for i in range(nsegs)]


def _fold_shifts(scheme: Scheme, n: int, scales: list[int], terms: list, ranges: list, plans: list,
                 users: dict[int, list[int]], W: int, nsegs: int, margin: Callable[[int], int]) -> None:
    """A truncated product that feeds only sum n, shifted by r there, is
    computed at the sum's scale instead: its accumulators are shifted by
    D + r (one floor each, counted by delta_bound) and the sum adds it
    unshifted, which saves a shift of a 64-bit word on a 32-bit core.  Kept
    only if the sum's range proof still holds with the product's new range."""
    node = scheme.nodes[n]
    top = (1 << (32 if node.narrow else W)) - 1
    current = terms[n]
    assert current is not None
    for k, a in enumerate(node.args):
        sign, r = current[k]
        plan = plans[a]
        if plan is None or r == 0 or len(users[a]) != 1:
            continue
        moved = replace(plan, drop=plan.drop + r)
        new_a = _limb_mul_ranges(scheme, a, ranges, moved, W, nsegs)
        if any(hi >> (32 if scheme.nodes[a].narrow else W) for rs in new_a for _, hi in rs):
            continue   # the product itself would not fit its word at the sum's scale
        trial_terms = tuple((sg, 0 if j == k else rr) for j, (sg, rr) in enumerate(current))
        new_n = []
        ok = True
        for i in range(nsegs):
            per_piece = []
            for p in range(len(ranges[i][n])):
                lo = hi = 0
                for j, (b, (sg, rr)) in enumerate(zip(node.args, trial_terms)):
                    blo, bhi = new_a[i][p] if j == k else ranges[i][b][p]
                    tlo, thi = _shift(blo, rr), _shift(bhi, rr)
                    if scheme.nodes[b].kind != "const" and thi > top:
                        ok = False
                    lo, hi = (lo + tlo, hi + thi) if sg > 0 else (lo - thi, hi - tlo)
                ok = ok and 0 <= lo and hi + margin(scales[n]) <= top
                per_piece.append((lo, hi))
            new_n.append(per_piece)
        if not ok:
            continue
        plans[a] = moved
        scales[a] -= r
        current = trial_terms
        for i in range(nsegs):
            ranges[i][a] = new_a[i]
            ranges[i][n] = new_n[i]
    terms[n] = current


def const_node(scheme: Scheme, j: int) -> int:
    return next(n for n, nd in enumerate(scheme.nodes) if nd.kind == "const" and nd.power == j)


def _choose_add(scheme, n, signs, scales, terms, ints, const_scales, ranges, integers,
                forced_scale, guess, coeffs, W, nsegs, margin) -> None:
    """Pick the largest scale of sum node n that provably fits its width.

    In a word-wide sum a constant is stored at the sum's scale (modulo 2^W);
    in a wide sum it is stored at the largest scale at which it fits a word
    (at most the sum's) and shifted left, exactly.
    """
    node = scheme.nodes[n]
    bits = 2 * W if node.wide else W
    top = (1 << bits) - 1
    word_top = (1 << W) - 1
    operand_signs = [signs[n] * signs[a] for a in node.args]
    if max(operand_signs) < 0:
        raise GenError(f"quantize: both operands of {node.label} have the wrong sign")
    const_args = [a for a in node.args if scheme.nodes[a].kind == "const"]
    forced = [] if node.wide else [forced_scale(scheme.nodes[a].power) for a in const_args
                                   if forced_scale(scheme.nodes[a].power) is not None]
    if forced:
        candidates: Sequence[int] = [forced[0]]
    else:
        sample = max((abs(sum(r[j] for j in range(len(r)))) for r in coeffs), default=Fraction(1))
        start = max([guess(sample) + bits - W] + [scales[a] for a in node.args if scheme.nodes[a].kind != "const"])
        candidates = range(start + 2, start - 4 * W, -1)

    def const_at(a: int, s: int) -> tuple[int, list[int]]:
        j = scheme.nodes[a].power
        if not node.wide:
            return s, integers(j, s)
        if forced_scale(j) is not None:
            return forced_scale(j), integers(j, forced_scale(j))
        sc = s
        while True:
            ks = integers(j, sc)
            if all(0 <= k <= word_top for k in ks) or sc < s - 4 * W:
                return sc, ks
            sc -= 1

    for s in candidates:
        consts = {a: const_at(a, s) for a in const_args}
        shifts = [consts[a][0] - s if a in consts else scales[a] - s for a in node.args]
        if any(not -(bits - 1) <= r <= bits - 1 for r in shifts):
            continue
        if node.wide and any(not all(0 <= k <= word_top for k in ks) or sc > s for sc, ks in consts.values()):
            continue
        ok = True
        new_ranges: list[list[Interval]] = []
        for i in range(nsegs):
            per_piece = []
            reference = next(a for a in node.args if a not in consts)
            for p in range(len(ranges[i][reference])):
                lo = hi = 0
                for a, sign, r in zip(node.args, operand_signs, shifts):
                    if a in consts:
                        tlo = thi = _shift(consts[a][1][i], r)
                    else:
                        alo, ahi = ranges[i][a][p]
                        tlo, thi = _shift(alo, r), _shift(ahi, r)
                        if thi > top:
                            ok = False
                    lo, hi = (lo + tlo, hi + thi) if sign > 0 else (lo - thi, hi - tlo)
                if not (0 <= lo and hi + margin(s) <= top):
                    ok = False
                per_piece.append((lo, hi))
                if not ok:
                    break
            if not ok:
                break
            new_ranges.append(per_piece)
        if ok:
            scales[n] = s
            terms[n] = tuple((sign, r) for sign, r in zip(operand_signs, shifts))
            for a, (sc, ks) in consts.items():
                j = scheme.nodes[a].power
                scales[a], const_scales[j] = sc, sc
                for i in range(nsegs):
                    ints[i][j] = ks[i]
                    ranges[i][a] = [(ks[i], ks[i])] * len(new_ranges[i])
            for i in range(nsegs):
                ranges[i][n] = new_ranges[i]
            return
    what = f"at the forced scale {candidates[0]}" if forced else "at any scale"
    raise GenError(f"coefficient_scales: {node.label} overflows a {bits}-bit word {what}")


def evaluate_core(qz: Quantized, seg: Segmentation, z: int, check: bool = False) -> int:
    """The root value for input z; see :func:`evaluate_nodes`."""
    return evaluate_nodes(qz, seg, z, check)[-1]


def local_word(seg: Segmentation, z: int) -> int:
    """T, the offset word of z in its segment."""
    return (seg.offset_of(z) << seg.pre_shift) & ((1 << seg.word_bits) - 1)


def evaluate_nodes(qz: Quantized, seg: Segmentation, z: int, check: bool = False) -> list[int]:
    """Every node's value for input z, exactly as the emitted C computes it
    (wrap-around modulo 2^W, or 2^2W for wide nodes).  With ``check``,
    assert what the interval proof claims: every true (unwrapped) value
    lies in [0, 2^width)."""
    W = qz.word_bits
    i = seg.index_of(z)
    T = local_word(seg, z)
    vals: list[int] = []
    for n, node in enumerate(qz.scheme.nodes):
        mask = (1 << (2 * W if node.wide else (32 if node.narrow else W))) - 1
        if node.kind == "var":
            value = T
        elif node.kind == "const":
            value = qz.table_word(i, node.power)
        elif node.kind == "mul" and (node.narrow or (qz.plans and qz.plans[n] is not None)):
            a, b = (vals[x] >> operand_shift(qz.scheme, n, x, W) for x in node.args)
            plan = qz.plans[n] if qz.plans else None
            value = plan.evaluate(a, b, check) if plan else (a * b) >> 32
            if check and value > mask:
                raise AssertionError(f"overflow at z={z}, node {node.label}: {value}")
        elif node.kind == "mul":
            value = (vals[node.args[0]] * vals[node.args[1]]) >> (0 if node.wide else W)
        elif node.kind == "ftail":
            assert qz.tail is not None
            value = qz.tail.model(T)
            if check and not 0 <= value < 1 << (W - 1):
                raise AssertionError(f"tail out of range at z={z}: {value}")
        else:
            value = 0
            terms = qz.terms[n]
            assert terms is not None
            for a, (sign, r) in zip(node.args, terms):
                is_const = qz.scheme.nodes[a].kind == "const"
                term = _shift(qz.ints[i][qz.scheme.nodes[a].power] if is_const else vals[a], r)
                if check and not is_const and term > mask:
                    raise AssertionError(f"overflow at z={z}, node {node.label}")
                value += sign * term
            if check and not 0 <= value <= mask:
                raise AssertionError(f"overflow at z={z}, node {node.label}: {value}")
            value &= mask
        vals.append(value)
    return vals


def eval_error(qz: Quantized, seg_index: int) -> tuple[Fraction, Fraction]:
    """Interval of eps = U_root - Uhat_root (units of the root's scale) on one
    segment; see :func:`node_errors`."""
    return node_errors(qz, seg_index)[-1]


def node_errors(qz: Quantized, seg_index: int) -> list[tuple[Fraction, Fraction]]:
    """Per node n, the interval of eps_n = U_n - Uhat_n (units of 2^-s_n) on one segment.

    Uhat_n is the exact value of node n for the quantized coefficients.
    Per node: var and const are exact; a product U = floor(U_a U_b / 2^W)
    with U_x = Uhat_x + eps_x has error
        (Uhat_a eps_b + Uhat_b eps_a + eps_a eps_b) / 2^W - delta,  0 <= delta < 1;
    a right shift by r gives eps / 2^r - delta', 0 <= delta' <= 1 - 2^-r; a
    left shift multiplies eps by 2^-r; a sum adds the signed operand errors;
    the binary64 tail's error comes from its own proof (:mod:`gen.floattail`).
    Uhat's range is U's proven range widened by eps.  Exact rationals.
    """
    W = qz.word_bits
    ranges = qz.ranges[seg_index]
    eps: list[tuple[Fraction, Fraction]] = []
    for n, node in enumerate(qz.scheme.nodes):
        if node.kind in ("var", "const"):
            eps.append((Fraction(0), Fraction(0)))
        elif node.kind == "ftail":
            assert qz.tail is not None
            eps.append(qz.tail.eps_eval[seg_index])
        elif node.kind == "mul" and (node.narrow or (qz.plans and qz.plans[n] is not None)):
            eps.append(_limb_mul_error(qz, n, ranges, eps))
        elif node.kind == "mul":
            a, b = node.args
            (ealo, eahi), (eblo, ebhi) = eps[a], eps[b]
            ua = (ranges[a][0] - eahi, ranges[a][1] - ealo)
            ub = (ranges[b][0] - ebhi, ranges[b][1] - eblo)
            lo, hi = _imul(ua, (eblo, ebhi))
            lo2, hi2 = _imul(ub, (ealo, eahi))
            lo3, hi3 = _imul((ealo, eahi), (eblo, ebhi))
            if node.wide:  # exact product: only the operands' errors
                eps.append((lo + lo2 + lo3, hi + hi2 + hi3))
            else:
                scale = Fraction(1, 1 << W)
                eps.append(((lo + lo2 + lo3) * scale - 1, (hi + hi2 + hi3) * scale))
        else:
            lo = hi = Fraction(0)
            terms = qz.terms[n]
            assert terms is not None
            for a, (sign, r) in zip(node.args, terms):
                elo, ehi = eps[a]
                if qz.scheme.nodes[a].kind != "const":  # constants are exact, shifts of them too
                    if r > 0:
                        elo, ehi = elo / (1 << r) - (1 - Fraction(1, 1 << r)), ehi / (1 << r)
                    elif r < 0:
                        elo, ehi = elo * (1 << -r), ehi * (1 << -r)
                lo, hi = (lo + elo, hi + ehi) if sign > 0 else (lo - ehi, hi - elo)
            eps.append((lo, hi))
    return eps


def _limb_mul_error(qz: Quantized, n: int, ranges: Sequence[Interval],
                    eps: list[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    """eps of a narrow and/or truncated product (docs/error-model.md):
    a 64-bit operand read as U >> 32 has eps / 2^32 - delta', 0 <= delta' <=
    1 - 2^-32; the product then errs by
    (Uhat_a eps_b + Uhat_b eps_a + eps_a eps_b) / 2^D - delta with
    0 <= delta <= plan.delta_bound() (skipped partial products and floors,
    gen/limbs.py), or 0 <= delta < 1 for a full product."""
    node = qz.scheme.nodes[n]
    ops = []
    for x in node.args:
        r = operand_shift(qz.scheme, n, x, qz.word_bits)
        (lo, hi), (elo, ehi) = ranges[x], eps[x]
        if r:
            lo, hi = lo >> r, hi >> r
            elo, ehi = elo / (1 << r) - (1 - Fraction(1, 1 << r)), ehi / (1 << r)
        ops.append(((lo - ehi, hi - elo), (elo, ehi)))
    (ua, ea), (ub, eb) = ops
    lo, hi = _imul(ua, eb)
    lo2, hi2 = _imul(ub, ea)
    lo3, hi3 = _imul(ea, eb)
    plan = qz.plans[n] if qz.plans else None
    scale = Fraction(1, 1 << (plan.drop if plan else 32))
    loss = plan.delta_bound() if plan else Fraction(1)
    return (lo + lo2 + lo3) * scale - loss, (hi + hi2 + hi3) * scale


def _imul(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    products = [x * y for x in a for y in b]
    return min(products), max(products)
