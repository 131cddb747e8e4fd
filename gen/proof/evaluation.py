"""The evaluation error: how far each node's computed word is from its exact
value for the quantized coefficients, carried node by node through the
scheme (products, shifts, sums, truncated limb products and the binary64
tail).  Input: a :class:`gen.quantize.Quantized` and a segment index;
output: one signed interval per node, in units of the node's scale.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..quantize import Interval, Quantized, operand_shift
from ..scheme import drops_word
from .truncation import loss_bound


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
    the binary64 tail's error comes from its own proof (:mod:`gen.proof.float_tail`).
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
            if not drops_word(qz.scheme.nodes, node):  # exact product: only the operands' errors
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
    0 <= delta <= loss_bound(plan) (skipped partial products and floors,
    gen/quantize/limbs.py, gen/proof/truncation.py), or 0 <= delta < 1 for a full product."""
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
    loss = loss_bound(plan) if plan else Fraction(1)
    return (lo + lo2 + lo3) * scale - loss, (hi + hi2 + hi3) * scale


def _imul(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    products = [x * y for x in a for y in b]
    return min(products), max(products)
