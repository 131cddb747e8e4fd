"""The binary64 tail of a mixed kernel (config key ``float_tail = k``): its
straight-line program and the program's exact model.

The powers k..d of the polynomial are evaluated in IEEE-754 binary64:

    t(v, c) = c * v^k * Q(v),   Q(v) = sum_i b_i v^i,   b_i = sigma a_(k+i) 2^s

and the result is truncated to a word, U = trunc(t) (t >= 0 is proven), that
stands for sigma U 2^-s like any other node of the fixed-point scheme.  The
tail is small (|a_k v^k| << 1), so the relative error of binary64 costs far
less than a unit of the result, while its multiplications run on the
floating-point unit in parallel with the integer multiplier, which is the
bottleneck of an all-integer kernel.  The factor c is ccs (Q0.64 w / 2^64
as a double): folding it in the tail lets the kernel subtract ccs * tail
after its integer product by w, off the critical path.

One straight-line program (:func:`program`) is the single source of the
emitted C (:func:`gen.cemit.tail_lines`), of the exact model (:func:`run`:
Python floats are binary64 with round-to-nearest-even, like SSE2 under the
default MXCSR) and of the proof (:mod:`gen.proof.float_tail`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from .errors import GenError

MANTISSA = 53


@dataclass(frozen=True)
class Op:
    kind: str                 # "v", "c", "in", "coef", "mul", "add", "sub", "fma"
    args: tuple[int, ...] = ()   # fma: (a, b, c) for RN(a * b + c), one rounding
    index: int = 0            # coef: i, the coefficient of v^(k+i); in: which extra input
    label: str = ""


class Builder:
    """A straight-line program under construction, v at index 0: ``put``
    appends an operation and returns its index, ``power(n)`` is v^n, each
    power made once, from the largest power of two below n."""

    def __init__(self, inputs: Sequence[Op]) -> None:
        self.ops: list[Op] = list(inputs)
        self._powers: dict[int, int] = {1: 0}

    def put(self, op: Op) -> int:
        self.ops.append(op)
        return len(self.ops) - 1

    def power(self, n: int) -> int:
        if n not in self._powers:
            top = 1 << (n.bit_length() - 1)
            a, b = (self.power(n // 2), self.power(n // 2)) if top == n else (self.power(top), self.power(n - top))
            self._powers[n] = self.put(Op("mul", (a, b), label=f"v^{n}"))
        return self._powers[n]


def program(k: int, degree: int, evaluation: str) -> list[Op]:
    """The tail's operations in order; the last one is t."""
    prog = Builder([Op("v", label="v"), Op("c", label="c")])
    ops, power = prog.ops, prog.power

    def coef(i: int) -> int:
        return prog.put(Op("coef", index=i, label=f"b{i}"))

    def mul(a: int, b: int, label: str) -> int:
        return prog.put(Op("mul", (a, b), label=label))

    def add(a: int, b: int, label: str) -> int:
        return prog.put(Op("add", (a, b), label=label))

    m = degree - k
    if evaluation == "horner":
        q = coef(m)
        for i in range(m - 1, -1, -1):
            q = add(mul(q, 0, f"v*q{i + 1}"), coef(i), f"q{i}")
    else:
        terms = [add(coef(i), mul(coef(i + 1), 0, f"b{i + 1}*v"), f"q{i}_{i + 1}") if i + 1 <= m else coef(i)
                 for i in range(0, m + 1, 2)]
        width = 1
        while len(terms) > 1:
            width *= 2
            pw = power(width)
            terms = [add(terms[j], mul(terms[j + 1], pw, f"v^{width}*q"), f"q{width}_{j // 2}")
                     if j + 1 < len(terms) else terms[j] for j in range(0, len(terms), 2)]
        q = terms[0]
    vkc = mul(power(k), 1, f"c*v^{k}")
    mul(q, vkc, "t")
    return ops


def head_program(first: int, count: int, fma: bool, evaluation: str = "estrin") -> list[Op]:
    """The binary64 part of form "head": c v^first (t_0 + t_1 v + ...
    + t_(count-1) v^(count-1)) + e, with e an extra input (the rounding
    constant plus the conversion corrections), by Estrin's or Horner's
    scheme; each multiply-add one FMA when ``fma``, else a product and a sum."""
    prog = Builder([Op("v", label="v"), Op("c", label="c"), Op("in", index=0, label="e")])
    ops, put, power = prog.ops, prog.put, prog.power

    def madd(a: int, b: int, c: int, label: str) -> int:
        if fma:
            return put(Op("fma", (a, b, c), label=label))
        return put(Op("add", (put(Op("mul", (a, b), label=f"{label} product")), c), label=label))

    if evaluation == "horner":
        q = put(Op("coef", index=count - 1, label=f"t{count - 1}"))
        for i in range(count - 2, -1, -1):
            q = madd(q, 0, put(Op("coef", index=i, label=f"t{i}")), f"q{i}")
        terms = [q]
    else:
        terms = [madd(put(Op("coef", index=i + 1, label=f"t{i + 1}")), 0, put(Op("coef", index=i, label=f"t{i}")),
                      f"q{i}_{i + 1}") if i + 1 < count else put(Op("coef", index=i, label=f"t{i}"))
                 for i in range(0, count, 2)]
    width = 1
    while len(terms) > 1:
        width *= 2
        terms = [madd(terms[k + 1], power(width), terms[k], f"q{width}_{k // 2}") if k + 1 < len(terms)
                 else terms[k] for k in range(0, len(terms), 2)]
    top = 1 << (first.bit_length() - 1)
    cv = put(Op("mul", (1, power(top)), label=f"c*v^{top}"))
    if first > top:
        cv = put(Op("mul", (cv, power(first - top)), label=f"c*v^{first}"))
    madd(cv, terms[0], 2, "t")
    return ops


def correction_program(fma: bool) -> list[Op]:
    """The extra input of :func:`head_program` in the Falcon adaptors:
    RN(cc rx + RN(M - RN(rc t3(x)))), t3(x) = 1 - x + x^2/2, with v = x,
    c = cc (ccs), in0 = rx and in1 = rc (the conversion remainders of x and
    ccs, in units of 2^-63) and coef 0 = M (the rounding constant plus the
    centring bias).  Every intermediate is an exact zero or bounded away
    from the subnormal range (M - p is about M; gen.proof.head proves it)."""
    ops: list[Op] = [Op("v", label="x"), Op("c", label="ccs"), Op("in", index=0, label="rx"),
                     Op("in", index=1, label="rc"), Op("coef", index=0, label="M"),
                     Op("coef", index=1, label="1/2"), Op("coef", index=2, label="-1"), Op("coef", index=3, label="1")]

    def put(op: Op) -> int:
        ops.append(op)
        return len(ops) - 1

    def madd(a: int, b: int, c: int, label: str) -> int:
        if fma:
            return put(Op("fma", (a, b, c), label=label))
        return put(Op("add", (put(Op("mul", (a, b), label=f"{label} product")), c), label=label))

    t3 = madd(madd(0, 5, 6, "x/2 - 1"), 0, 7, "t3")
    p = put(Op("mul", (3, t3), label="rc*t3"))
    madd(1, 2, put(Op("sub", (4, p), label="M - rc*t3")), "e")
    return ops


CORRECTION_CONSTANTS = (Fraction(1, 2), Fraction(-1), Fraction(1))   # coef 1..3 of correction_program


def _fma(a: float, b: float, c: float) -> float:
    """RN(a b + c) with one rounding (Python has no math.fma before 3.13):
    the exact rational value, correctly rounded by float()."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def run(ops: Sequence[Op], coeffs: Sequence[float], v: float, c: float, extra: Sequence[float] = ()) -> float:
    """The program on Python floats: the exact model of the emitted C."""
    vals: list[float] = []
    for op in ops:
        if op.kind == "v":
            vals.append(v)
        elif op.kind == "c":
            vals.append(c)
        elif op.kind == "in":
            vals.append(extra[op.index])
        elif op.kind == "coef":
            vals.append(coeffs[op.index])
        elif op.kind == "mul":
            vals.append(vals[op.args[0]] * vals[op.args[1]])
        elif op.kind == "fma":
            vals.append(_fma(*(vals[a] for a in op.args)))
        elif op.kind == "sub":
            vals.append(vals[op.args[0]] - vals[op.args[1]])
        else:
            vals.append(vals[op.args[0]] + vals[op.args[1]])
    return vals[-1]


def hex_double(value: Fraction) -> str:
    """The hexadecimal notation of a binary64-representable value (exact;
    for comments, sidecars and Gappa)."""
    as_float = float(value)
    if Fraction(as_float) != value:
        raise GenError(f"float_tail: coefficient {value} is not a binary64 value")
    return as_float.hex() if as_float < 0 or as_float > 0 else "0.0"


def to_double(word: int) -> float:
    """RN((word >> 1)) * 2^-63, as ``(double)(int64_t)(word >> 1) * 0x1p-63``
    (the conversion rounds to nearest even, like Python's int -> float)."""
    return float(word >> 1) * 2.0 ** -63
